import type { TokenAnswer } from './oidc-session.js';
import type { TesseraTarget } from './rows.js';

/** What the mirror check reads of one provider: its issuer, a token answer of its client and an access token's userinfo. */
export interface ProviderSample {
  readonly target: TesseraTarget;
  readonly token: TokenAnswer;
}

/** Claims of an ID token whose values differ between any two tokens (times, ids, hashes of the token's own values); their presence still counts. */
const PER_TOKEN_CLAIMS = new Set(['iss', 'iat', 'exp', 'auth_time', 'jti', 'sid', 'at_hash', 'c_hash']);

/**
 * Where node-oidc-provider alone answers otherwise than tessera, for the same client and user: its
 * discovery document (scopes, claims, response types, endpoints, algorithms; issuers aside), the token
 * answer's fields, the ID token's header and claims (values that differ per token aside) and the
 * userinfo answer. Empty when the reference mirrors tessera's settings, as the OIDC rows' ratios need.
 */
export async function mirrorDifferences(tessera: ProviderSample, library: ProviderSample): Promise<string[]> {
  const [ownDiscovery, libraryDiscovery] = await Promise.all([discovery(tessera.target), discovery(library.target)]);
  const [ownUserinfo, libraryUserinfo] = await Promise.all([userinfo(tessera), userinfo(library)]);
  const { id_token: ownIdToken, access_token: _own, ...ownAnswer } = tessera.token;
  const { id_token: libraryIdToken, access_token: _library, ...libraryAnswer } = library.token;
  return [
    ...differences('discovery', withIssuer(ownDiscovery, issuerOf(tessera.target)), withIssuer(libraryDiscovery, issuerOf(library.target))),
    ...differences('token answer', ownAnswer, libraryAnswer),
    ...differences('ID token header', part(ownIdToken, 0), part(libraryIdToken, 0)),
    ...differences('ID token claims', comparableClaims(part(ownIdToken, 1)), comparableClaims(part(libraryIdToken, 1))),
    ...differences('userinfo', ownUserinfo, libraryUserinfo),
  ];
}

/**
 * Stops the run unless node-oidc-provider alone answered as tessera (`configuration`) does: a ratio
 * against a reference configured otherwise would measure the difference, not tessera's part.
 */
export function refuseUnlessMirrored(configuration: string, differences: readonly string[]): void {
  if (differences.length > 0) throw new Error(`node-oidc-provider alone does not answer as tessera (${configuration}) does; its settings in bench/src/fixtures.ts must mirror tessera's:\n  ${differences.join('\n  ')}`);
}

function issuerOf(target: TesseraTarget): string {
  return `${target.origin}${target.base}/oidc`;
}

async function discovery(target: TesseraTarget): Promise<unknown> {
  return answerOf(await fetch(`${issuerOf(target)}/.well-known/openid-configuration`), 'discovery');
}

async function userinfo({ target, token }: ProviderSample): Promise<unknown> {
  return answerOf(await fetch(`${issuerOf(target)}/me`, { headers: { authorization: `Bearer ${token.access_token}` } }), 'userinfo');
}

async function answerOf(response: Response, what: string): Promise<unknown> {
  if (response.status !== 200) throw new Error(`the mirror check's ${what} request answered ${response.status}`);
  return response.json();
}

/** Every string holding `issuer` with the issuer named instead, so that two issuers' documents compare. */
function withIssuer(value: unknown, issuer: string): unknown {
  if (typeof value === 'string') return value.split(issuer).join('<issuer>');
  if (Array.isArray(value)) return value.map((item) => withIssuer(item, issuer));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withIssuer(item, issuer)]));
  return value;
}

/** The header (0) or payload (1) of a JWT, or an empty object when there is none. */
function part(jwt: string | undefined, index: 0 | 1): Record<string, unknown> {
  const encoded = jwt?.split('.')[index];
  return encoded === undefined ? {} : (JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Record<string, unknown>);
}

function comparableClaims(claims: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(claims).map(([name, value]) => [name, PER_TOKEN_CLAIMS.has(name) ? '(per token)' : value]));
}

/** `what: key: tessera …, library …` for every top-level key whose JSON differs (a missing key shows as undefined). */
function differences(what: string, own: unknown, library: unknown): string[] {
  const [a, b] = [own as Record<string, unknown>, library as Record<string, unknown>];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key])).map((key) => `${what}: ${key}: tessera ${JSON.stringify(a[key])}, library ${JSON.stringify(b[key])}`);
}
