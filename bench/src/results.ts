import type { LoadOutcome } from './load-spec.js';
import type { FloorRow, LibraryRow, Row } from './rows.js';

/** One measured load: what autocannon saw, and the server's CPU time over it per response. */
export type Measured = Omit<LoadOutcome, 'collected'> & { readonly cpuMicrosPerResponse: number };

/** One round's run of the baseline, a floor or a row: a ratio pairs it with its reference's run of the same round. */
export interface RoundRun {
  /** 1 for the first measured round (the warm-up is not kept). */
  readonly round: number;
  readonly measured: Measured;
}

export interface RowRuns {
  /** The server configuration it ran on (see configurations.ts). */
  readonly configuration: string;
  readonly row: Row;
  readonly runs: readonly RoundRun[];
}

export interface MemoryFigure {
  readonly configuration: string;
  /** TGTs created over HTTP. */
  readonly tickets: number;
  /** What the server's own gauge said was live after the creation. */
  readonly liveTgts: number;
  readonly seconds: number;
  readonly rssBeforeBytes: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
}

export interface RawArgon2Run {
  readonly configuration: string;
  readonly round: number;
  readonly perSecond: number;
  readonly cpuMicrosPerVerify: number;
}

/** Everything a run measured, before any median or verdict. */
export interface BenchResults {
  readonly baseline: readonly RoundRun[];
  /** The floors of the rows measured. */
  readonly floors: readonly { readonly row: FloorRow; readonly runs: readonly RoundRun[] }[];
  /** node-oidc-provider alone, the reference of the OIDC rows measured: its run of each, beside the row's in every round (before it in odd rounds, after it in even ones). */
  readonly library: readonly { readonly row: LibraryRow; readonly runs: readonly RoundRun[] }[];
  readonly rows: readonly RowRuns[];
  /** The raw argon2id verify runs, one right before each argon2 row run: `perSecond` is that run's reference. */
  readonly rawArgon2: readonly RawArgon2Run[];
  /** The WebAuthn assertion verification runs (the webauthn module's ceremonies), one right after each raw argon2id run, reported against it. */
  readonly rawWebAuthn: readonly RawArgon2Run[];
  readonly memory: readonly MemoryFigure[];
}
