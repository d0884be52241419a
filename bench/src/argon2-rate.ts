import { Argon2PasswordHasher } from '@tessera/core';

/**
 * The raw argon2id verify rate of core's hasher with `inFlight` verifications at a time for
 * `seconds`: the ceiling of any login that checks an argon2 hash, on this machine, right now.
 */
export async function argon2VerifyRate(phc: string, password: string, seconds: number, inFlight = 8): Promise<number> {
  const hasher = new Argon2PasswordHasher();
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      if (!(await hasher.verify(phc, password))) throw new Error('argon2 verify refused the right password');
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return done / ((performance.now() - started) / 1000);
}
