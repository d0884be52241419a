import type { OtpReplayStore, UserDirectory, UserRecord } from '@tessera/core';

export class ListDirectory implements UserDirectory {
  constructor(private readonly users: readonly UserRecord[]) {}
  findByUsername(username: string): Promise<UserRecord | undefined> {
    return Promise.resolve(this.users.find((user) => user.username === username));
  }
}

export class MapReplayStore implements OtpReplayStore {
  readonly steps = new Map<string, number>();
  claim(username: string, step: number): Promise<boolean> {
    const last = this.steps.get(username);
    if (last !== undefined && last >= step) return Promise.resolve(false);
    this.steps.set(username, step);
    return Promise.resolve(true);
  }
}
