import type { ServerConfiguration } from './configurations.js';
import type { Environment } from './environment.js';
import type { BenchOptions } from './options.js';
import type { BenchResults } from './results.js';
import { renderMemoryTable, renderTable } from './table.js';
import { ROWS } from './rows.js';
import { median, targetText, type Summary } from './verdicts.js';

export interface Report {
  readonly environment: Environment;
  readonly loadAverageAtEnd: string;
  readonly options: BenchOptions;
  readonly configurations: readonly ServerConfiguration[];
  readonly results: BenchResults;
  readonly summary: Summary;
  /** The plot's file name, next to the document. */
  readonly plot: string;
}

/** docs/benchmarks.md as generated from one run: machine, versions, commit, method, table and plot. */
export function renderDocument(report: Report): string {
  const { environment, options, summary } = report;
  return `# Benchmarks

<!-- Written by \`pnpm bench --markdown\` (bench/src/markdown.ts) from one run: edit the generator, not this file. -->

Targets: **${summary.allMet ? 'all met' : 'not all met'}** in this run (\`pnpm bench --check\` exits non-zero unless all are).

## Machine and versions

- ${environment.cpu}, ${environment.cores} cores, ${environment.memoryGiB.toFixed(1)} GiB memory; load average ${environment.loadAverage} at the start, ${report.loadAverageAtEnd} at the end.
- Node ${environment.node}; ${environment.versions.join(', ')}.
- tessera at \`${environment.commit}\`; run on ${environment.date} with \`${environment.command}\`.

## Result

![Each judged row's ratio to its reference, against its target](${report.plot})

${renderTable(summary)}

${renderMemoryTable(summary.memory)}

${rawArgon2Line(report.results)}

${rawWebAuthnLine(report.results)}

## How it is measured

${method(options, report.configurations)}

## How to profile

Start the server as the bench does, with a CPU profile: \`node --cpu-prof --cpu-prof-dir=/tmp/prof
packages/cli-server/dist/main.js start --config FILE > /tmp/tessera.log\`, drive one endpoint with
autocannon for 6–8 s, stop it with SIGTERM (the profile is written on exit), then
\`node scripts/cpuprofile-top.mjs PROFILE\` for the top self times. Compare builds by server CPU µs per
request, not by profile shares: a wall-clock profile counts a blocked write in full.
`;
}

/** Every row's target, as the table states it: \`TGT create ≥ 0.8 of its floor, p99 ≤ 15 ms; …\`. */
export function judgedTargets(): string {
  return ROWS.flatMap((row) => (row.target ? [`${row.short} ${targetText(row.target)}`] : [])).join('; ');
}

export function rawArgon2Line(results: BenchResults): string {
  if (results.rawArgon2.length === 0) return 'No argon2 row was measured.';
  const rates = results.rawArgon2.map((run) => run.perSecond);
  return (
    `Raw argon2id verify rate, one run right before each argon2 row run: ${rates.map((rate) => rate.toFixed(1)).join(', ')} /s ` +
    `(median ${median(rates).toFixed(1)}), ${median(results.rawArgon2.map((run) => run.cpuMicrosPerVerify)).toFixed(0)} µs CPU per verify.`
  );
}

/**
 * The WebAuthn assertion verification rate, reported (no target) against the raw argon2id verify rate of
 * the same rounds, the reference of the argon2 row: what a passkey login costs next to a password's hash.
 */
export function rawWebAuthnLine(results: BenchResults): string {
  if (results.rawWebAuthn.length === 0) return 'No WebAuthn assertion verification was measured.';
  const rates = results.rawWebAuthn.map((run) => run.perSecond);
  const ratios = results.rawWebAuthn.flatMap((run) => {
    const argon2 = results.rawArgon2.find((raw) => raw.configuration === run.configuration && raw.round === run.round);
    return argon2 === undefined || argon2.perSecond === 0 ? [] : [run.perSecond / argon2.perSecond];
  });
  return (
    `WebAuthn assertion verification (the webauthn module's ceremonies: ES256 signature, challenge, origin, RP id, counter), one run right after each raw argon2id run: ` +
    `${rates.map((rate) => rate.toFixed(1)).join(', ')} /s (median ${median(rates).toFixed(1)}), ${median(results.rawWebAuthn.map((run) => run.cpuMicrosPerVerify)).toFixed(0)} µs CPU per verify` +
    `${ratios.length === 0 ? '' : `; ${median(ratios).toFixed(1)}× the raw argon2id verify rate (median of the rounds)`}. Reported, not judged.`
  );
}

/** The method, in the words of the document and of \`pnpm bench\`'s own output. */
export function method(options: BenchOptions, configurations: readonly ServerConfiguration[]): string {
  return `- **The servers run as an operator runs them.** tessera is started by its CLI,
  \`node packages/cli-server/dist/main.js start --config FILE\`, as a process of its own: modules
  \`rest\`, \`tokens\` and \`x509\`, the JSON log at the default level (\`info\`) on stdout redirected
  to a file, the audit trail to a file, metrics on. Configurations measured: ${configurations.map((configuration) => `**${configuration.name}**, ${configuration.description}`).join('; ')}.
  The **baseline** is a bare Koa + @koa/router + koa-body POST route in a process of its own,
  answering 201 with a Location and a TGT-sized text body.
- **Floors.** A third process serves bare Koa + @koa/router routes at the paths of TGT create, ST
  grant and validation that do none of tessera's work (no credential check, no store, no ticket)
  but write what tessera writes for such a request, by tessera's own writers: its JSON log line on
  stdout (a file) and its audit records to a file. Each answers as tessera does, with a body of
  the same size. It is measured right after the baseline in every round, with its row's request.
  No row can be faster than its floor, whatever tessera's own code costs: the targets of these
  three rows are stated against their floors.
- **node-oidc-provider alone.** The OIDC rows are measured against the same requests to
  node-oidc-provider alone (the version tessera runs, pinned in the bench too), in a process of its own on node:http (no Koa app of
  tessera's, no log, audit or metrics), configured as tessera configures it wherever a setting changes
  what the library does or answers: the same issuer path, signing key and cookie secrets, lifetimes,
  scopes and claims, response types, client authentication methods and features, and the same client
  (a static client, the library's way), its storage in memory as the library's own adapter keeps it
  (the payload objects in a Map). Its account is logged in once by an interaction route that finishes
  at once. Before measuring, the bench checks that both answer alike (discovery, the token answer, the
  ID token's header and claims, userinfo) and stops if they do not. Each OIDC row's reference runs right
  before it in every round, on codes of its own: what separates the two is tessera's part (the
  client from the registry, the account and its claims through the relying-party path, the record
  stores, the events, the outer app).
- **Load** comes from autocannon in a separate process (a fresh one per run), ${options.connections}
  connections, ${options.warmup} s of warm-up per row, then ${options.rounds} rounds of ${options.duration} s of every
  row in turn, the baseline first in each round and the floors right after it, TGT create before
  the rows taken against it. Every figure is the median over the rounds;
  errors (connection errors and timeouts) and non-2xx answers are summed. Only 2xx answers count
  as throughput. **A row with any error or non-2xx answer fails**, whatever its rate.
- **Ratios and targets.** A row's ratio is each round's 2xx req/s over its reference's in the same
  round, and the median of those over the rounds. A row meets its target when that ratio is at
  least the target and, where the target has one, its p99 (median of rounds) is within it:
  ${judgedTargets()}.
  A row whose reference was not measured is **not judged**, and not met; \`--rows jwt\` or
  \`x509\` therefore measures TGT create too. The ratio to the baseline of the same round (median
  of rounds) is in the table as information, comparable with earlier runs. The targets were once
  stated against it; the floors showed that Koa plus tessera's log and audit lines alone leave less
  of the baseline than those targets asked.
- **Server CPU µs/req** is the server process's user + system CPU time (all its threads, from
  \`/proc/<pid>/stat\`) over the run, per response. Unlike req/s, it does not depend on how the
  cores were shared with the load generator: it is the column to compare between runs and machines.
- **Rows**: TGT create by a config user with a plain password (the cheap handler: one SHA-256
  compare); ST grant on a pool of 1,000 live TGTs; \`/p3/serviceValidate\` with a **fresh ST for every
  request** (a pool minted before each run, 1.5 × the faster of the round's baseline and the best
  validation rate so far; an ST validated twice would fail as non-2xx); TGT create with
  \`token=true\` (a signed and encrypted JWT); an X.509 login: the \`cert\` form field from
  127.0.0.1 (a trusted proxy) holds a client certificate and the issuing CA that signed it, the
  trust anchor is the root above that CA (\`x509.maxPathLength: 2\`), and both CAs have a current
  CRL configured, so each login builds and checks a two-link chain and consults both CRLs.
  Tickets pile up over the run, as on a busy server (STs live 10 minutes, TGTs 2 hours idle).
- **The argon2id row** is compared with the raw argon2id verify rate, measured the same way and
  interleaved with it: in the warm-up and in every round, a fresh process runs core's
  \`Argon2PasswordHasher.verify\` on the same hash with ${options.connections} verifications in flight (as many as
  the row's connections) for the same ${options.duration} s, with the same libuv thread pool as the
  server (\`UV_THREADPOOL_SIZE=${options.poolSize}\` for both), and right after it the row runs. Its
  ratio is the median over rounds of row / the raw rate measured just before it, so a drift of
  the machine between rounds moves both sides of each ratio. On a machine busy with other work
  this ratio means little: the scheduler shares the cores per thread, and the row (server, its
  pool, the load generator) has more threads than the raw measure.
- **The SAML row** (configuration **saml2**) is one SP-initiated login of a browser that has a login
  session, the unit of its rate, latency and CPU (3 requests): the bench's SP, registered by a
  \`SamlRegisteredService\` on metadata the bench writes (unsigned AuthnRequests, the assertion signed
  and the Response not), posts a fresh AuthnRequest to \`/idp/profile/SAML2/POST/SSO\`; the browser
  follows the 303 to \`/login\`, which sends it by single sign-on (its TGC) back to the module's
  callback with an ST, and the callback's page posts the signed Response to the SP. Each connection is
  one browser, logged in through \`/login\` once before the runs. Every answer is checked (200, the
  form to the SP's AssertionConsumerService, status Success, \`InResponseTo\` the request sent, a
  signed assertion); a login that fails a check counts as non-2xx, and 3 Responses of every run are
  verified by node-saml with the certificate of the IdP's metadata (a run whose sample does not verify
  stops). Each AuthnRequest is used once, as tessera refuses an ID it accepted before: the load
  generator makes them ahead, a batch of 1.5 × what the best SAML rate so far would use plus 1,000,
  and another each time half is taken. The IdP's keys (RSA-3072) are made for the run by
  \`tessera saml2 generate-keys\` into the run's folder. The row has no target.
- **Memory**: a fresh tessera of each configuration that wants the figure, started the same way
  (plus \`--expose-gc\` and a preloaded SIGUSR2 hook that runs a full GC), receives
  ${options.tickets.toLocaleString('en')} cheap TGT creations over HTTP; its \`tessera_tgts_live\` gauge must show
  them all live; then a full GC and its RSS. The target is < 1.2 GB (decimal) at 1,000,000 TGTs.
- **Soak** (not part of this run): \`pnpm soak --minutes 10\` loops login → ST → validate → logout
  against a CLI-started tessera, prints its RSS every 10 s and the verdict: the last minute's median
  RSS within 5% of the second minute's, and no error or non-2xx answer.`;
}
