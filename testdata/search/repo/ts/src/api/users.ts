import { ApiClient, ApiError } from "./client";
import type { UserData } from "../types";

/**
 * Fetches the public data of one user from GET /users/{id}. Resolves to null when the
 * user does not exist.
 */
export async function getUserData(client: ApiClient, id: string): Promise<UserData | null> {
  try {
    const raw = await client.get<{ id: number; email: string; display_name: string; active: boolean }>(
      `/users/${encodeURIComponent(id)}`,
    );
    return { id: String(raw.id), email: raw.email, displayName: raw.display_name, active: raw.active };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      return null;
    }
    throw err;
  }
}

/** Deactivates a user; the server keeps their order history. */
export async function deactivateUser(client: ApiClient, id: string): Promise<void> {
  await client.post<void>(`/users/${encodeURIComponent(id)}/deactivate`);
}
