/**
 * Token buckets per key (a client's address group, or a scope and one: RequestRateLimit) for the request-rate limits of the
 * validation endpoints and the login form, shared by every node. A bucket starts full (`capacity` tokens) and refills continuously at `refillPerSecond`.
 * Mongo keeps `{ _id: key, tokens, at }` and takes a token in one atomic pipeline update with upsert:
 * `tokens = min(capacity, tokens + (now - at) * refillPerSecond / 1000)`, minus one when at least one
 * is left, `at = now`; the answer is computed from the document returned. Times come from the caller.
 */
export interface RequestRateStore {
  /** Takes one token: 0 when taken, else the milliseconds until one will be available. */
  take(key: string, now: number, capacity: number, refillPerSecond: number): Promise<number>;
}
