import type { Collection } from 'mongodb';
import type { OtpReplayStore } from '@tessera/core/modules/otp';
import { guarded } from './unavailable.js';

/** The last TOTP time step accepted for a user; `_id` is the username. */
export interface OtpStepDocument {
  _id: string;
  step: number;
}

const DUPLICATE_KEY = 11000;

/**
 * Used one-time passwords in MongoDB, shared by every node, so a code accepted on one node is refused
 * on all (ASVS 2.8.4): one conditional upsert per claim, as core's OtpReplayStore port describes.
 */
export class MongoOtpReplayStore implements OtpReplayStore {
  constructor(private readonly steps: Collection<OtpStepDocument>) {}

  async claim(username: string, step: number): Promise<boolean> {
    try {
      await guarded(() => this.steps.findOneAndUpdate({ _id: username, step: { $lt: step } }, { $set: { step } }, { upsert: true }));
      return true;
    } catch (error) {
      // The user's document exists with a step at least as late: the insert half of the upsert collided.
      if ((error as { code?: unknown }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }
}
