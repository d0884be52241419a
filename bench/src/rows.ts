import { FORM, type LoadSpec } from './load-spec.js';
import { CHEAP_LOGIN, ARGON2_LOGIN, SERVICE, type Tessera } from './servers/tessera.js';

export type RowName = 'baseline' | 'tgt' | 'grant' | 'validate' | 'status' | 'jwt' | 'argon2' | 'x509';

export interface Row {
  readonly name: RowName;
  readonly label: string;
  /** What the ratio is taken against, and the least ratio wanted. */
  readonly target?: { readonly against: 'baseline' | 'argon2'; readonly ratio: number };
}

export const ROWS: readonly Row[] = [
  { name: 'baseline', label: 'baseline: Koa + @koa/router + koa-body POST → 201' },
  { name: 'tgt', label: 'POST /v1/tickets (TGT create, plain-password user)', target: { against: 'baseline', ratio: 0.5 } },
  { name: 'grant', label: 'POST /v1/tickets/{TGT} (ST grant)', target: { against: 'baseline', ratio: 0.6 } },
  { name: 'validate', label: 'GET /p3/serviceValidate (XML, fresh ST each)', target: { against: 'baseline', ratio: 0.6 } },
  { name: 'status', label: 'GET /v1/tickets/{TGT} (status)' },
  { name: 'jwt', label: 'POST /v1/tickets token=true (JWT TGT create)' },
  { name: 'argon2', label: 'POST /v1/tickets (TGT create, argon2id user)', target: { against: 'argon2', ratio: 0.9 } },
  { name: 'x509', label: 'POST /v1/tickets (X.509 TGT create, cert form field from a trusted proxy)' },
];

const TEXT = { ...FORM, accept: 'text/plain' } as const;
const grantBody = `service=${encodeURIComponent(SERVICE)}`;

/** Ticket pools a row draws from: live TGT ids, and unvalidated ST ids (each used once). */
export interface Pools {
  readonly tgts: readonly string[];
  readonly sts: readonly string[];
}

/** The load for one row: 50 connections, `duration` seconds, against the right server. */
export function loadFor(name: RowName, servers: { baseline: string; tessera: Tessera }, pools: Pools, connections: number, duration: number): LoadSpec {
  const { origin, base } = servers.tessera;
  const common = { origin, connections, duration } as const;
  switch (name) {
    case 'baseline':
      return { ...common, origin: servers.baseline, method: 'POST', paths: ['/v1/tickets'], body: CHEAP_LOGIN, headers: TEXT };
    case 'tgt':
      return { ...common, method: 'POST', paths: [`${base}/v1/tickets`], body: CHEAP_LOGIN, headers: TEXT };
    case 'grant':
      return { ...common, method: 'POST', paths: pools.tgts.map((tgt) => `${base}/v1/tickets/${tgt}`), body: grantBody, headers: FORM, collect: true };
    case 'validate':
      return { ...common, method: 'GET', paths: pools.sts.map((st) => validatePath(base, st)) };
    case 'status':
      return { ...common, method: 'GET', paths: pools.tgts.map((tgt) => `${base}/v1/tickets/${tgt}`) };
    case 'jwt':
      return { ...common, method: 'POST', paths: [`${base}/v1/tickets`], body: `${CHEAP_LOGIN}&token=true`, headers: TEXT };
    case 'argon2':
      return { ...common, method: 'POST', paths: [`${base}/v1/tickets`], body: ARGON2_LOGIN, headers: TEXT };
    case 'x509':
      return { ...common, method: 'POST', paths: [`${base}/v1/tickets`], body: servers.tessera.x509Login, headers: TEXT };
  }
}

export function validatePath(base: string, st: string): string {
  return `${base}/p3/serviceValidate?service=${encodeURIComponent(SERVICE)}&ticket=${st}`;
}

/** Mints `count` of something by driving an endpoint until that many 2xx bodies are back. */
export function mintSpec(tessera: Tessera, what: 'tgts' | 'sts', count: number, tgts: readonly string[]): LoadSpec {
  const { origin, base } = tessera;
  return what === 'tgts'
    ? { origin, connections: 50, duration: 600, amount: count, method: 'POST', paths: [`${base}/v1/tickets`], body: CHEAP_LOGIN, headers: TEXT, collect: true }
    : { origin, connections: 50, duration: 600, amount: count, method: 'POST', paths: tgts.map((tgt) => `${base}/v1/tickets/${tgt}`), body: grantBody, headers: FORM, collect: true };
}
