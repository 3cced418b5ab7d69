import { UserService, UnknownUserError } from "../services/userService";
import { InMemoryUserRepository } from "../repositories/userRepository";
import type { IUserRepository } from "../repositories/userRepository";
import type { User } from "../types";

const jane: User = { id: "1", email: "jane@example.com", displayName: "Jane", active: true };

describe("UserService", () => {
  let repo: IUserRepository;
  let service: UserService;

  beforeEach(() => {
    repo = new InMemoryUserRepository([jane]);
    service = new UserService(repo);
  });

  it("getUser returns the stored user", async () => {
    await expect(service.getUser("1")).resolves.toEqual(jane);
  });

  it("getUser throws UnknownUserError for a missing id", async () => {
    await expect(service.getUser("42")).rejects.toBeInstanceOf(UnknownUserError);
  });

  it("getUser serves the second call from the cache", async () => {
    const findById = jest.spyOn(repo, "findById");
    await service.getUser("1");
    await service.getUser("1");
    expect(findById).toHaveBeenCalledTimes(1);
  });

  it("rename trims and saves the display name", async () => {
    const user = await service.rename("1", "  Jane Doe ");
    expect(user.displayName).toBe("Jane Doe");
    await expect(repo.findById("1")).resolves.toMatchObject({ displayName: "Jane Doe" });
  });

  it("rename rejects a blank name", async () => {
    await expect(service.rename("1", "   ")).rejects.toBeInstanceOf(RangeError);
  });

  it("deactivate is a no-op for an inactive user", async () => {
    await expect(service.deactivate("1")).resolves.toBe(true);
    const fresh = new UserService(repo);
    await expect(fresh.deactivate("1")).resolves.toBe(false);
  });
});
