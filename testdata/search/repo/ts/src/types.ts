/** Shapes shared by the storefront API client and the services built on it. */

/** A postal address as returned by the API. */
export interface Address {
  street: string;
  city: string;
  postalCode: string;
  country: string;
}

/** A storefront customer. */
export interface User {
  id: string;
  email: string;
  displayName: string;
  active: boolean;
  address?: Address;
}

/** The public part of a user, as served by GET /users/{id}. */
export type UserData = Pick<User, "id" | "email" | "displayName" | "active">;

/** Result of an operation that can fail without throwing. */
export type Result<T, E = Error> = { ok: true; value: T } | { ok: false; error: E };
