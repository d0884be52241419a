import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { wholeNumber } from './options.js';

/** The OIDC rows `pnpm bench:compare` measures: each has node-oidc-provider alone as its reference. */
export type CompareRow = 'code' | 'userinfo';

export interface CompareOptions {
  readonly row: CompareRow;
  /** Measured slices per server; each server has one slice per round, their order reversed every other round. */
  readonly slices: number;
  /** Requests per slice (and in each server's unmeasured warm-up slice). */
  readonly amount: number;
  readonly connections: number;
  /** libuv thread pool size (UV_THREADPOOL_SIZE) of every server. */
  readonly poolSize: number;
  /** Another checkout, built, whose tessera is measured beside this one's (the CLI it starts: `packages/cli-server/dist/main.js` there). */
  readonly other?: string;
}

export const COMPARE_USAGE = `Usage: pnpm bench:compare [--row code|userinfo] [--slices N] [--amount N] [--connections N]
                          [--pool-size N] [--other DIR]
  Server CPU per request of this checkout's tessera beside node-oidc-provider alone (tessera's
  settings), and beside another build's tessera with --other, in interleaved slices of a fixed
  number of requests: their medians, and each server's ratio to this one slice by slice.
  --row         code (POST /oidc/token, a fresh code each; default) or userinfo (GET /oidc/me)
  --slices      measured slices per server (default 12)
  --amount      requests per slice (default 5000 for code, 15000 for userinfo)
  --other       another checkout of tessera, built (npx tsc -b there), measured as a third server
`;

const DEFAULT_AMOUNT: Record<CompareRow, number> = { code: 5000, userinfo: 15_000 };

/** The options of `pnpm bench:compare`; throws naming the flag on a bad value. */
export function compareOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CompareOptions {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    options: {
      row: { type: 'string', default: 'code' },
      slices: { type: 'string' },
      amount: { type: 'string' },
      connections: { type: 'string' },
      'pool-size': { type: 'string' },
      other: { type: 'string' },
    },
  });
  if (values.row !== 'code' && values.row !== 'userinfo') throw new Error(`--row: expected code or userinfo, got "${values.row}"`);
  const row: CompareRow = values.row;
  const connections = wholeNumber('--connections', values.connections, 50, 1);
  const amount = wholeNumber('--amount', values.amount, DEFAULT_AMOUNT[row], 1);
  // autocannon wants at least one request per connection.
  if (amount < connections) throw new Error(`--amount: expected at least as many requests as connections (${connections}), got ${amount}`);
  return {
    row,
    slices: wholeNumber('--slices', values.slices, 12, 1),
    amount,
    connections,
    poolSize: wholeNumber('--pool-size', values['pool-size'] ?? env['UV_THREADPOOL_SIZE'], 4, 1),
    ...(values.other !== undefined && { other: builtCheckout(values.other) }),
  };
}

/** The CLI a built checkout starts tessera with, or an error saying what to do. */
export function checkoutMain(checkout: string): string {
  return join(checkout, 'packages', 'cli-server', 'dist', 'main.js');
}

function builtCheckout(path: string): string {
  const checkout = resolve(path);
  if (!existsSync(checkoutMain(checkout))) throw new Error(`--other: ${checkoutMain(checkout)} does not exist; build that checkout first (npx tsc -b there)`);
  return checkout;
}

/** The servers' order in round `round` (from 0): as listed in even rounds, reversed in odd ones, so a machine drifting within a round favours none. */
export function sliceOrder(servers: number, round: number): number[] {
  const order = Array.from({ length: servers }, (_, index) => index);
  return round % 2 === 0 ? order : order.reverse();
}

export interface Quartiles {
  readonly q1: number;
  readonly median: number;
  readonly q3: number;
}

/** The quartiles of `values` (at least one), each the nearest-rank value of the sorted list. */
export function quartiles(values: readonly number[]): Quartiles {
  if (values.length === 0) throw new Error('quartiles of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.round(share * (sorted.length - 1))]!;
  return { q1: at(0.25), median: at(0.5), q3: at(0.75) };
}
