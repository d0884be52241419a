import type { Server } from 'node:http';
import Provider from 'oidc-provider';
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
