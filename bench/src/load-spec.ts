/** One autocannon run, as sent to the driver child process (plain data, so it crosses IPC). */
export interface LoadSpec {
  /** Origin, e.g. `http://127.0.0.1:8080`. */
  readonly origin: string;
  readonly connections: number;
  /** Seconds to run; ignored when `amount` is set. */
  readonly duration: number;
  /** Stop after this many responses instead of after `duration`. */
  readonly amount?: number;
  readonly method: 'GET' | 'POST';
  /** Paths taken in turn, one per request across all connections (a single path is fixed). */
  readonly paths: readonly string[];
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Keep the body of every 2xx response (minting ticket pools). */
  readonly collect?: boolean;
}

export interface LoadOutcome {
  /** 2xx responses per second: only successes count as throughput. */
  readonly okPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly responses: number;
  readonly collected: readonly string[];
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' } as const;
