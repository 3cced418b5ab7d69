import type { User } from "../types";
import { ApiClient } from "../api/client";
import { getUserData, deactivateUser } from "../api/users";

/** Storage of users, so that services can be tested without a server. */
export interface IUserRepository {
  findById(id: string): Promise<User | null>;
  save(user: User): Promise<void>;
}

/** An IUserRepository backed by the storefront HTTP API (read-mostly). */
export class HttpUserRepository implements IUserRepository {
  constructor(private readonly client: ApiClient) {}

  async findById(id: string): Promise<User | null> {
    const data = await getUserData(this.client, id);
    return data && { ...data };
  }

  async save(user: User): Promise<void> {
    if (!user.active) {
      await deactivateUser(this.client, user.id);
      return;
    }
    throw new Error("HttpUserRepository can only deactivate users");
  }
}

/** An IUserRepository that keeps users in memory; used by tests and the demo page. */
export class InMemoryUserRepository implements IUserRepository {
  private readonly users = new Map<string, User>();

  constructor(users: User[] = []) {
    users.forEach((u) => this.users.set(u.id, { ...u }));
  }

  async findById(id: string): Promise<User | null> {
    const user = this.users.get(id);
    return user ? { ...user } : null;
  }

  async save(user: User): Promise<void> {
    this.users.set(user.id, { ...user });
  }
}
