import type { Server } from 'node:http';
import Provider from 'oidc-provider';
import type { Browser, Visit } from '../../support/browser.js';
import { freePort } from './support.js';

export const UPSTREAM_CLIENT = { id: 'tessera', secret: 'a client secret long enough for HS256 and the tests' };

export interface OidcUpstreamServer {
  readonly issuer: string;
  readonly provider: Provider;
  close(): Promise<void>;
}

/** What else the upstream does: more callbacks of tessera's (its other providers on this upstream), its logout (RP-initiated, on by default) and where that may send the browser back. */
export interface OidcUpstreamOptions {
  readonly moreRedirectUris?: readonly string[];
  readonly postLogoutRedirectUris?: readonly string[];
  readonly logout?: boolean;
}

/**
 * A standalone OpenID provider (node-oidc-provider with its development login pages: any login name,
 * any password), whose one client is tessera, sending the browser back to `redirectUri`.
 */
export async function startOidcUpstream(redirectUri: string, options: OidcUpstreamOptions = {}): Promise<OidcUpstreamServer> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: UPSTREAM_CLIENT.id,
        client_secret: UPSTREAM_CLIENT.secret,
        redirect_uris: [redirectUri, ...(options.moreRedirectUris ?? [])],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        ...(options.postLogoutRedirectUris !== undefined && { post_logout_redirect_uris: [...options.postLogoutRedirectUris] }),
      },
    ],
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, email: `${sub}@partner.example`, name: `${sub} of Partner`, groups: ['researchers'] }) }),
    claims: { openid: ['sub'], email: ['email'], profile: ['name', 'groups'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: options.logout ?? true } },
  });
  const server: Server = provider.listen(port);
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return { issuer, provider, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * Through the upstream's development pages (its login form: `login`, any password; then its consent),
 * until the browser leaves the upstream, not following the way back: where it leaves, and whether the
 * upstream asked for the password (it does not while its own session lives).
 */
export async function throughUpstream(browser: Browser, page: Visit, issuer: string, login: string): Promise<{ readonly leaving: Visit; readonly askedPassword: boolean }> {
  const within = async (visit: Visit) => {
    let next = visit;
    while (next.status >= 300 && next.status < 400 && next.location !== null && new URL(next.location, next.url).toString().startsWith(issuer)) {
      next = await browser.get(new URL(next.location, next.url).toString());
    }
    return next;
  };
  let current = await within(page);
  let askedPassword = false;
  for (let pages = 0; pages < 4 && current.url.startsWith(issuer) && current.status === 200; pages++) {
    if (current.body.includes('name="password"')) askedPassword = true;
    const action = /<form[^>]*action="([^"]+)"/.exec(current.body)?.[1];
    if (action === undefined) break;
    const hidden = Object.fromEntries([...current.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [name!, value!]));
    current = await within(await browser.post(new URL(action, current.url).toString(), { ...hidden, login, password: 'any' }));
  }
  return { leaving: current, askedPassword };
}
