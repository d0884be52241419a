import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OidcKeySet } from '@tessera/core/modules/oidc';
import { announced, collected, spawnNode, type ServerProcess } from './server-process.js';

const MAIN = fileURLToPath(new URL('./oidc-reference-main.js', import.meta.url));

/** What the reference of the OIDC rows is configured with: tessera's provider settings of the OIDC configuration. */
export type OidcReferenceSettings = {
  /** Chosen before it starts: the issuer names it. */
  readonly port: number;
  /** tessera's `server.basePath`: the issuer is `http://127.0.0.1:<port><basePath>/oidc`, as tessera's. */
  readonly basePath: string;
  readonly keys: OidcKeySet;
  /** The client's metadata, as tessera makes it from the client's registered service. */
  readonly client: Readonly<Record<string, unknown>>;
  /** Scope → the claims it names, and the scopes served, as tessera configures them. */
  readonly claims: Readonly<Record<string, readonly string[]>>;
  readonly scopes: readonly string[];
  readonly responseTypes: readonly string[];
  readonly lifetimes: {
    readonly accessTokenSeconds: number;
    readonly idTokenSeconds: number;
    readonly refreshTokenSeconds: number;
    readonly codeSeconds: number;
    readonly interactionSeconds: number;
    /** tessera's `tickets.tgt.maxTimeToLiveSeconds`, which bounds a provider session. */
    readonly loginSessionSeconds: number;
    /** How long tessera keeps a grant. */
    readonly grantSeconds: number;
  };
  /** The one account, its claims as tessera releases them to the client, and what its login proved (amr, acr). */
  readonly account: { readonly id: string; readonly claims: Readonly<Record<string, unknown>>; readonly amr: readonly string[]; readonly acr?: string };
};

/** node-oidc-provider alone (oidc-reference-main.ts) in its own process, its settings in `dir`, with a CPU profile written into `cpuProfileDir` when it stops if given; waits for the origin it prints. */
export async function startOidcReference(settings: OidcReferenceSettings, dir: string, poolSize: number, cpuProfileDir?: string): Promise<ServerProcess> {
  const file = join(dir, 'oidc-reference.json');
  writeFileSync(file, JSON.stringify(settings));
  const nodeArgs = cpuProfileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', cpuProfileDir, '--cpu-prof-name', 'oidc-reference.cpuprofile'];
  const spawned = spawnNode(MAIN, [file], { poolSize, stdio: ['ignore', 'pipe', 'pipe'], nodeArgs });
  return announced(spawned, 'the OIDC reference (node-oidc-provider alone)', collected(spawned, 'stdout'), collected(spawned, 'stderr'));
}
