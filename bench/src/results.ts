import type { LoadOutcome } from './load-spec.js';
import type { FloorRow, Row } from './rows.js';

/** One measured load: what autocannon saw, and the server's CPU time over it per response. */
export type Measured = Omit<LoadOutcome, 'collected'> & { readonly cpuMicrosPerResponse: number };

/** One round of a row: the load, and the rate its ratio is taken against (that round's baseline, or the raw argon2 rate measured just before). */
export interface RowRun {
  readonly measured: Measured;
  readonly reference: number;
}

export interface RowRuns {
  /** The server configuration it ran on (see configurations.ts). */
  readonly configuration: string;
  readonly row: Row;
  readonly runs: readonly RowRun[];
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

/** Everything a run measured, before any median or verdict. */
export interface BenchResults {
  readonly baseline: readonly Measured[];
  /** The floors of the rows measured, each round's run against that round's baseline. */
  readonly floors: readonly { readonly row: FloorRow; readonly runs: readonly RowRun[] }[];
  readonly rows: readonly RowRuns[];
  /** The raw argon2id verify runs, one per argon2 row run, in order: `perSecond` is that run's reference. */
  readonly rawArgon2: readonly { readonly configuration: string; readonly perSecond: number; readonly cpuMicrosPerVerify: number }[];
  readonly memory: readonly MemoryFigure[];
}
