import type { IUserRepository } from "../repositories/userRepository";
import type { User } from "../types";
import { TtlCache } from "../utils/cache";

/** Thrown when an operation names a user that does not exist. */
export class UnknownUserError extends Error {
  constructor(readonly userId: string) {
    super(`unknown user ${userId}`);
    this.name = "UnknownUserError";
  }
}

/**
 * UserService is what the UI talks to: it caches profiles for a minute and keeps the
 * rules about who can be renamed or deactivated in one place.
 */
export class UserService {
  private readonly cache = new TtlCache<string, User>(60_000);

  constructor(private readonly repo: IUserRepository) {}

  /** Returns the user with the given id, from the cache when it is fresh. */
  async getUser(id: string): Promise<User> {
    const cached = this.cache.get(id);
    if (cached) return cached;
    const user = await this.repo.findById(id);
    if (!user) throw new UnknownUserError(id);
    this.cache.set(id, user);
    return user;
  }

  /** Changes a user's display name; blank names are rejected. */
  async rename(id: string, displayName: string): Promise<User> {
    const name = displayName.trim();
    if (name.length === 0 || name.length > 64) {
      throw new RangeError("display name must be 1 to 64 characters");
    }
    const user = { ...(await this.getUser(id)), displayName: name };
    await this.repo.save(user);
    this.cache.set(id, user);
    return user;
  }

  /** Deactivates a user. Returns false when the user was already inactive. */
  async deactivate(id: string): Promise<boolean> {
    const user = await this.getUser(id);
    if (!user.active) return false;
    await this.repo.save({ ...user, active: false });
    this.cache.delete(id);
    return true;
  }
}
