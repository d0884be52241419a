import type { Collection } from 'mongodb';
import type { OtpReplayStore } from '@tessera/core/modules/otp';
import type { Guarded } from './unavailable.js';

/** The last TOTP time step accepted for a user; `_id` is the username. */
export interface OtpStepDocument {
  _id: string;
  step: number;
}

const DUPLICATE_KEY = 11000;
const ATTEMPTS = 3;

/**
 * Used one-time passwords in MongoDB, shared by every node, so a code accepted on one node is refused
 * on all (ASVS 2.8.4). A claim is one atomic `$max` on the user's document, returning it as it was: the
 * step is accepted when it raised the stored one. Claims racing on several nodes thus apply one after
 * the other, and a later step always wins, whichever arrives first.
 */
export class MongoOtpReplayStore implements OtpReplayStore {
  constructor(
    private readonly steps: Collection<OtpStepDocument>,
    private readonly guarded: Guarded,
  ) {}

  async claim(username: string, step: number): Promise<boolean> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const before = await this.guarded(() => this.steps.findOneAndUpdate({ _id: username }, { $max: { step } }, { upsert: true, returnDocument: 'before' }));
        return before === null || before.step < step;
      } catch (error) {
        // Another node inserted the user's first step between our lookup and insert (a server may answer
        // so rather than retry the upsert itself); nothing was written, and the same update now applies to it.
        if ((error as { code?: unknown }).code !== DUPLICATE_KEY || attempt === ATTEMPTS) throw error;
      }
    }
  }
}
