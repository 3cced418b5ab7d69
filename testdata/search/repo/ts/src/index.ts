/**
 * Public entry point of @acme/storefront-client: the API client, the user service and
 * the formatting helpers used by the admin dashboard.
 */
import { ApiClient } from "./api/client";
import type { ClientOptions } from "./api/client";
import { HttpUserRepository } from "./repositories/userRepository";
import { UserService } from "./services/userService";

export { ApiClient, ApiError, parseHeaders } from "./api/client";
export type { ClientOptions } from "./api/client";
export { getUserData, deactivateUser } from "./api/users";
export { HttpUserRepository, InMemoryUserRepository } from "./repositories/userRepository";
export type { IUserRepository } from "./repositories/userRepository";
export { UserService, UnknownUserError } from "./services/userService";
export { TtlCache } from "./utils/cache";
export { formatCurrency, formatDate, truncate, initials } from "./utils/format";
export type { Address, User, UserData, Result } from "./types";

/** Creates a UserService that reads users from the API at baseUrl. */
export function createUserService(baseUrl: string, options: Omit<ClientOptions, "baseUrl"> = {}): UserService {
  return new UserService(new HttpUserRepository(new ApiClient({ baseUrl, ...options })));
}
