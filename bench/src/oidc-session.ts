import { OIDC_CLIENT } from './fixtures.js';
import { FORM } from './load-spec.js';
import { Cookies, nextLoginStep } from './browser.js';
import { authorizationPath, codeExchangeBody, type TesseraTarget } from './rows.js';

/** How many redirects and pages one login may take: authorize, interaction, /login, its form, the callback, the resume. */
const MOST_STEPS = 12;

/**
 * Logs a browser in for the bench's OpenID Connect client, as a user does once: its authorization
 * request goes through tessera's /login form (or the reference's interaction, which needs no form)
 * to the redirect URI with a code. Returns the cookies that then get a code at once for every silent
 * authorization request (the provider's session).
 */
export async function openOidcSession(tessera: TesseraTarget): Promise<string> {
  const cookies = new Cookies();
  let url = `${tessera.origin}${authorizationPath(tessera.base)}`;
  let init: RequestInit = {};
  for (let step = 0; step < MOST_STEPS; step += 1) {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: cookies.header } });
    cookies.take(response);
    const location = response.headers.get('location');
    const body = await response.text();
    if (location?.startsWith(OIDC_CLIENT.redirectUri)) {
      if (new URL(location).searchParams.get('code') === null) throw new Error(`the OIDC login ended without a code: ${location}`);
      return cookies.header;
    }
    const next = nextLoginStep(url, response, body);
    if (next === undefined) throw new Error(`the OIDC login stopped at ${url}: ${response.status}`);
    [url, init] = next;
  }
  throw new Error(`the OIDC login took more than ${MOST_STEPS} steps`);
}

/** One fresh code, by the silent authorization request on the browser's session `cookie` (what mintCodesLoad sends many of). */
export async function silentCode(provider: TesseraTarget, cookie: string): Promise<string> {
  const response = await fetch(`${provider.origin}${authorizationPath(provider.base, { silent: true })}`, { redirect: 'manual', headers: { cookie } });
  const [code] = codesOf([response.headers.get('location') ?? `${OIDC_CLIENT.redirectUri}?error=none`]);
  if (code === undefined) throw new Error(`a silent authorization got no code: ${response.status} ${response.headers.get('location') ?? ''}`);
  return code;
}

/** The codes of the redirects `mintCodesLoad` kept (an answer without one, an error's, is left out). */
export function codesOf(locations: readonly string[]): string[] {
  return locations.flatMap((location) => new URL(location).searchParams.get('code') ?? []);
}

/** A token endpoint's answer to the code exchange. */
export type TokenAnswer = { readonly access_token: string; readonly id_token?: string } & Readonly<Record<string, unknown>>;

/** Redeems `code` at the token endpoint, as the client does: its answer, with the access token for the userinfo row. */
export async function tokensFor(provider: TesseraTarget, code: string): Promise<TokenAnswer> {
  const response = await fetch(`${provider.origin}${provider.base}/oidc/token`, { method: 'POST', headers: { ...FORM, authorization: OIDC_CLIENT.basic }, body: codeExchangeBody(code) });
  const answer = (await response.json()) as { access_token?: unknown };
  if (response.status !== 200 || typeof answer.access_token !== 'string') throw new Error(`redeeming a code for the userinfo row: ${response.status}`);
  return answer as TokenAnswer;
}

/** A browser logged in once for the bench's OIDC client, and an access token of the client for the userinfo row. */
export interface OidcBrowser {
  readonly cookie: string;
  readonly accessToken: string;
  /** The answer that gave the access token, for the mirror check. */
  readonly token: TokenAnswer;
}

/** Logs a browser in (openOidcSession) and redeems one code of its session. */
export async function openOidc(target: TesseraTarget): Promise<OidcBrowser> {
  const cookie = await openOidcSession(target);
  const token = await tokensFor(target, await silentCode(target, cookie));
  return { cookie, accessToken: token.access_token, token };
}
