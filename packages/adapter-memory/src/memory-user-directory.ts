import type { UserDirectory, UserRecord } from '@tessera/core';

/** Users given at start (from configuration), looked up by exact username. */
export class MemoryUserDirectory implements UserDirectory {
  private readonly byUsername = new Map<string, UserRecord>();

  constructor(users: readonly UserRecord[]) {
    for (const user of users) {
      if (this.byUsername.has(user.username)) throw new Error(`Duplicate username in the user directory: '${user.username}'`);
      this.byUsername.set(user.username, user);
    }
  }

  findByUsername(username: string): Promise<UserRecord | undefined> {
    return Promise.resolve(this.byUsername.get(username));
  }
}
