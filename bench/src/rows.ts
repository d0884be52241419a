import { ARGON2_LOGIN, CHEAP_LOGIN, OIDC_CLIENT, SERVICE } from './fixtures.js';
import { FORM, TEXT_FORM, type LoadSpec, type SamlLoginSpec } from './load-spec.js';
import { ST_SIZED_ID, TGT_SIZED_ID } from './sized-ids.js';

export type RowName = 'tgt' | 'grant' | 'validate' | 'jwt' | 'x509' | 'argon2' | 'code' | 'userinfo' | 'saml';

/**
 * What a row's ratio is taken against, in the same round: the floor of the row (the Koa route that
 * only writes its log line and audit records), another row of the same server configuration, the
 * raw argon2id verify rate measured right before it, or the same request to node-oidc-provider alone
 * with tessera's settings, measured right before it (`library`).
 */
export type Reference = 'floor' | 'raw argon2' | 'library' | { readonly row: RowName };

/** The least ratio wanted, and against what; the ratio rows also want p99 at or under `p99Ms`. */
export interface Target {
  readonly against: Reference;
  readonly ratio: number;
  readonly p99Ms?: number;
}

export interface Row {
  readonly name: RowName;
  readonly label: string;
  /** For the plot. */
  readonly short: string;
  /** Absent for the rows of a configuration not held to the targets. */
  readonly target?: Target;
}

export const P99_TARGET_MS = 15;
/** The memory figure's target, in bytes (1.2 GB, decimal). */
export const MEMORY_TARGET_BYTES = 1.2e9;
/** The TGT count the memory target is stated for. */
export const MEMORY_TARGET_TICKETS = 1_000_000;

export const BASELINE_LABEL = 'baseline: Koa + @koa/router + koa-body POST → 201';

const TGT_ROW = { row: 'tgt' } as const;

/**
 * The measured rows of tessera and their targets, in the order each round runs them (after the
 * baseline and the floors): a row taken against another comes after it.
 */
export const ROWS: readonly Row[] = [
  { name: 'tgt', short: 'TGT create', label: 'POST /v1/tickets (TGT create, cheap plain-password handler)', target: { against: 'floor', ratio: 0.8, p99Ms: P99_TARGET_MS } },
  { name: 'grant', short: 'ST grant', label: 'POST /v1/tickets/{TGT} (ST grant)', target: { against: 'floor', ratio: 0.85, p99Ms: P99_TARGET_MS } },
  { name: 'validate', short: 'serviceValidate', label: 'GET /p3/serviceValidate (fresh ST each)', target: { against: 'floor', ratio: 0.8, p99Ms: P99_TARGET_MS } },
  { name: 'jwt', short: 'JWT TGT create', label: 'POST /v1/tickets token=true (JWT TGT create)', target: { against: TGT_ROW, ratio: 0.5, p99Ms: P99_TARGET_MS } },
  { name: 'x509', short: 'X.509 login', label: 'POST /v1/tickets (X.509 login, chain + CRL validation)', target: { against: TGT_ROW, ratio: 0.9, p99Ms: P99_TARGET_MS } },
  { name: 'argon2', short: 'argon2id TGT create', label: 'POST /v1/tickets (TGT create, argon2id user)', target: { against: 'raw argon2', ratio: 0.9 } },
  // The OpenID Provider's: against node-oidc-provider alone with the same settings (LIBRARY_ROWS), which
  // bounds them as a floor bounds a CAS row: what is left is tessera's part.
  { name: 'code', short: 'OIDC code exchange', label: 'POST /oidc/token grant_type=authorization_code (fresh code each, RS256 ID token)', target: { against: 'library', ratio: 0.85 } },
  { name: 'userinfo', short: 'OIDC userinfo', label: 'GET /oidc/me (bearer access token)', target: { against: 'library', ratio: 0.85 } },
  // The SAML IdP's: one SP-initiated login of a browser with a session is its unit (3 requests), reported
  // with its CPU; no target (none is stated, and no library alone does what it does).
  {
    name: 'saml',
    short: 'SAML2 POST SSO',
    label: 'POST /idp/profile/SAML2/POST/SSO → /login (TGC) → callback: the signed assertion posted to the SP (per login of 3 requests; fresh AuthnRequest each)',
  },
];

/** How a table or plot names a reference: `its floor`, `TGT create`, `raw argon2id verify`. */
export function referenceName(against: Reference): string {
  if (against === 'floor') return 'its floor';
  if (against === 'raw argon2') return 'raw argon2id verify';
  if (against === 'library') return 'node-oidc-provider alone';
  return ROWS.find((row) => row.name === against.row)?.short ?? against.row;
}

/** The rows the targets of `names` are taken against (TGT create for JWT and X.509), so a run never measures a row without them. */
export function referenceRows(names: readonly RowName[]): RowName[] {
  return ROWS.filter((row) => names.includes(row.name)).flatMap((row) => (typeof row.target?.against === 'object' ? [row.target.against.row] : []));
}

/** A floor measured beside the tessera row it bounds (see processes/floor-main.ts): a row is never faster than its floor. */
export interface FloorRow {
  /** The tessera row it bounds. */
  readonly name: Extract<RowName, 'tgt' | 'grant' | 'validate'>;
  readonly label: string;
  readonly short: string;
}

export const FLOOR_ROWS: readonly FloorRow[] = [
  { name: 'tgt', short: 'floor: TGT create', label: "floor of TGT create: Koa POST /v1/tickets that only writes the row's log line and 2 audit records" },
  { name: 'grant', short: 'floor: ST grant', label: "floor of ST grant: Koa POST /v1/tickets/{TGT} that only writes the row's log line and audit record" },
  { name: 'validate', short: 'floor: serviceValidate', label: "floor of serviceValidate: Koa GET /p3/serviceValidate that only writes the row's log line and audit record" },
];

/**
 * The reference of an OIDC row: the same request to node-oidc-provider alone on node:http with
 * tessera's provider settings (processes/oidc-reference-main.ts), measured beside the row in every
 * round (before it in odd rounds, after it in even ones).
 */
export interface LibraryRow {
  /** The tessera row it is the reference of. */
  readonly name: Extract<RowName, 'code' | 'userinfo'>;
  readonly label: string;
  readonly short: string;
}

export const LIBRARY_ROWS: readonly LibraryRow[] = [
  { name: 'code', short: 'library: OIDC code exchange', label: "node-oidc-provider alone on node:http, tessera's settings: POST /oidc/token (fresh code each, RS256 ID token)" },
  { name: 'userinfo', short: 'library: OIDC userinfo', label: "node-oidc-provider alone on node:http, tessera's settings: GET /oidc/me (bearer access token)" },
];

/**
 * Pools a row draws from: live TGT ids, unvalidated ST ids and unredeemed authorization codes (each
 * used once), an access token; for the SAML row, the cookies of browsers logged in, and the batch of
 * AuthnRequests its load generator makes at a time.
 */
export interface Pools {
  readonly tgts: readonly string[];
  readonly sts: readonly string[];
  readonly codes: readonly string[];
  readonly accessToken?: string | undefined;
  readonly saml?: { readonly sessions: readonly string[]; readonly batch: number } | undefined;
}

/** How many of a SAML run's successful Responses have their signatures checked by an SP library. */
export const SAML_SAMPLES = 3;

/** Where a row's load goes: tessera's origin and base path, and its X.509 login form. */
export interface TesseraTarget {
  readonly origin: string;
  readonly base: string;
  readonly x509Login: string;
}

const grantBody = `service=${encodeURIComponent(SERVICE)}`;

export function baselineLoad(origin: string, connections: number, duration: number): LoadSpec {
  return { kind: 'request', origin, connections, duration, method: 'POST', paths: ['/v1/tickets'], body: CHEAP_LOGIN, headers: TEXT_FORM };
}

/** The load of a floor: its row's request, with ids of the right size that nothing looks up. */
export function floorLoad(name: FloorRow['name'], origin: string, connections: number, duration: number): LoadSpec {
  const common = { kind: 'request', origin, connections, duration } as const;
  switch (name) {
    case 'tgt':
      return { ...common, method: 'POST', paths: ['/v1/tickets'], body: CHEAP_LOGIN, headers: TEXT_FORM };
    case 'grant':
      return { ...common, method: 'POST', paths: [`/v1/tickets/${TGT_SIZED_ID}`], body: grantBody, headers: FORM };
    case 'validate':
      return { ...common, method: 'GET', paths: [`/p3/serviceValidate?service=${encodeURIComponent(SERVICE)}&ticket=${ST_SIZED_ID}`] };
  }
}

/** The load of one row for `duration` seconds. */
export function rowLoad(name: RowName, tessera: TesseraTarget, pools: Pools, connections: number, duration: number): LoadSpec | SamlLoginSpec {
  const { origin, base } = tessera;
  const common = { kind: 'request', origin, connections, duration } as const;
  const login = (body: string): LoadSpec => ({ ...common, method: 'POST', paths: [`${base}/v1/tickets`], body, headers: TEXT_FORM });
  switch (name) {
    case 'tgt':
      return login(CHEAP_LOGIN);
    case 'grant':
      return { ...common, method: 'POST', paths: pools.tgts.map((tgt) => `${base}/v1/tickets/${tgt}`), body: grantBody, headers: FORM };
    case 'validate':
      return { ...common, method: 'GET', paths: pools.sts.map((st) => `${base}/p3/serviceValidate?service=${encodeURIComponent(SERVICE)}&ticket=${st}`) };
    case 'jwt':
      return login(`${CHEAP_LOGIN}&token=true`);
    case 'x509':
      return login(tessera.x509Login);
    case 'argon2':
      return login(ARGON2_LOGIN);
    case 'code':
      return { ...common, method: 'POST', paths: [`${base}/oidc/token`], bodies: pools.codes.map(codeExchangeBody), headers: { ...FORM, authorization: OIDC_CLIENT.basic } };
    case 'userinfo':
      return { ...common, method: 'GET', paths: [`${base}/oidc/me`], headers: { authorization: `Bearer ${pools.accessToken ?? ''}` } };
    case 'saml':
      if (pools.saml === undefined) throw new Error('the SAML row needs browsers logged in');
      return { kind: 'saml-login', origin, base, connections, duration, sessions: pools.saml.sessions, poolBatch: pools.saml.batch, samples: SAML_SAMPLES };
  }
}

/** The token request that redeems `code` for the bench's client (a confidential one: no PKCE asked). */
export function codeExchangeBody(code: string): string {
  return new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: OIDC_CLIENT.redirectUri }).toString();
}

/** Mints `count` TGTs (cheap logins) or STs (grants on `tgts` in turn), keeping each 2xx body. */
export function mintLoad(tessera: TesseraTarget, what: 'tgts' | 'sts', count: number, tgts: readonly string[]): LoadSpec {
  const { origin, base } = tessera;
  // autocannon wants no more connections than requests (a pool's top-up may be small).
  const common = { kind: 'request', origin, connections: Math.min(50, count), duration: 3600, amount: count, method: 'POST', collect: 'body' } as const;
  return what === 'tgts'
    ? { ...common, paths: [`${base}/v1/tickets`], body: CHEAP_LOGIN, headers: TEXT_FORM }
    : { ...common, paths: tgts.map((tgt) => `${base}/v1/tickets/${tgt}`), body: grantBody, headers: FORM };
}

/**
 * Mints `count` authorization codes: the silent authorization request (`prompt=none`) of the bench's
 * client, with the provider session `cookie` of a browser that logged in once, is answered at once
 * with a redirect carrying a fresh code (any other goes through /login by single sign-on, a few
 * redirects more); each redirect's Location is kept.
 */
export function mintCodesLoad(tessera: TesseraTarget, cookie: string, count: number): LoadSpec {
  // autocannon wants no more connections than requests.
  return { kind: 'request', origin: tessera.origin, connections: Math.min(50, count), duration: 3600, amount: count, method: 'GET', paths: [authorizationPath(tessera.base, { silent: true })], headers: { cookie }, collect: 'location' };
}

/**
 * The bench's client's authorization request: the code flow, its claims asked, no consent page
 * (bypassApprovalPrompt); `silent` asks no page at all (`prompt=none`), for a browser logged in already.
 */
export function authorizationPath(base: string, { silent = false } = {}): string {
  const parameters = { client_id: OIDC_CLIENT.id, response_type: 'code', scope: 'openid profile email', redirect_uri: OIDC_CLIENT.redirectUri, ...(silent && { prompt: 'none' }) };
  return `${base}/oidc/auth?${new URLSearchParams(parameters).toString()}`;
}
