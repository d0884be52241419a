import type { Clock } from '@tessera/core';
import { UpstreamFailure, type UpstreamIdentity, type UpstreamProvider, type UpstreamSecrets, type UpstreamSession } from '@tessera/core/modules/delegation';
import * as client from 'openid-client';
import { boundedFetch } from './bounded-json.js';
import type { UpstreamProviderSettings } from './config.js';

type OidcSettings = NonNullable<UpstreamProviderSettings['oidc']>;

/**
 * An upstream OpenID provider on openid-client: its discovery document read at the first login (and
 * again after a failure), the code flow with PKCE (S256), state and nonce; coming back, the answer's
 * `iss` checked against the provider's (mix-up, RFC 9207), the code exchanged, the ID token verified
 * (signature, issuer, audience, nonce, lifetime on tessera's clock). Its claims, then those of the
 * userinfo endpoint when it has one, are the user's attributes; `sub` the user's id. The ID token is
 * kept for the logout (RP-initiated logout at the discovery's `end_session_endpoint`, with it as the hint).
 */
export class OidcUpstream implements UpstreamProvider {
  private discovered: Promise<client.Configuration> | undefined;

  constructor(
    readonly id: string,
    private readonly settings: OidcSettings,
    private readonly timeoutSeconds: number,
    private readonly clock: Clock,
  ) {}

  async authorizationUrl(secrets: UpstreamSecrets, callbackUrl: string): Promise<string> {
    const config = await this.configuration();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: callbackUrl,
      scope: this.settings.scopes.join(' '),
      state: secrets.state,
      nonce: secrets.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(secrets.codeVerifier),
      code_challenge_method: 'S256',
    });
    return url.href;
  }

  async identify(callback: URL, secrets: UpstreamSecrets, callbackUrl: string): Promise<UpstreamIdentity> {
    const error = callback.searchParams.get('error');
    if (error !== null) throw new UpstreamFailure('refused', `the provider answered ${error.slice(0, 64)}`);
    const config = await this.configuration();
    // The grant checks the answer against the URL it was sent to: the callback without the query tessera reads.
    const answered = new URL(callbackUrl);
    answered.search = callback.search;
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(this.atClock(config), answered, { pkceCodeVerifier: secrets.codeVerifier, expectedState: secrets.state, expectedNonce: secrets.nonce, idTokenExpected: true });
    } catch (failure) {
      throw classified(failure);
    }
    const claims = tokens.claims();
    if (claims === undefined) throw new UpstreamFailure('invalid', 'no ID token');
    const attributes: Record<string, string[]> = {};
    const add = (source: Readonly<Record<string, unknown>>) => {
      for (const [name, value] of Object.entries(source)) {
        const values = [value].flat().filter((each): each is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof each)).map(String);
        if (values.length > 0) attributes[name] = values;
      }
    };
    add(claims);
    if (config.serverMetadata().userinfo_endpoint !== undefined) {
      try {
        add(await client.fetchUserInfo(this.atClock(config), tokens.access_token, claims.sub));
      } catch (failure) {
        throw classified(failure);
      }
    }
    return { id: claims.sub, attributes, ...(tokens.id_token !== undefined && { session: { idToken: tokens.id_token } }) };
  }

  /** RP-initiated logout: the `end_session_endpoint` with the login's ID token as `id_token_hint`, the way back and the state; none without that endpoint. */
  async logoutUrl(session: UpstreamSession, returnUrl: string, state: string): Promise<string | undefined> {
    const config = await this.configuration();
    if (config.serverMetadata().end_session_endpoint === undefined) return undefined;
    const idToken = session['idToken'];
    return client.buildEndSessionUrl(config, { post_logout_redirect_uri: returnUrl, state, ...(idToken !== undefined && { id_token_hint: idToken }) }).href;
  }

  /** The provider's configuration, discovered once; a failed discovery is tried again at the next login. */
  private configuration(): Promise<client.Configuration> {
    this.discovered ??= this.discover().catch((failure: unknown) => {
      this.discovered = undefined;
      throw classified(failure);
    });
    return this.discovered;
  }

  private discover(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    const authentication = clientSecret === undefined ? client.None() : client.ClientSecretBasic(clientSecret);
    return client.discovery(new URL(issuer), clientId, undefined, authentication, {
      timeout: this.timeoutSeconds,
      [client.customFetch]: boundedFetch,
      ...(new URL(issuer).protocol === 'http:' && { execute: [client.allowInsecureRequests] }),
    });
  }

  /** The configuration judging times by tessera's clock (Clock port), not the machine's. */
  private atClock(config: client.Configuration): client.Configuration {
    const { clientSecret } = this.settings;
    const metadata = { ...config.clientMetadata(), [client.clockSkew]: Math.round((this.clock.now() - Date.now()) / 1000) };
    const copy = new client.Configuration(config.serverMetadata(), this.settings.clientId, metadata, clientSecret === undefined ? client.None() : client.ClientSecretBasic(clientSecret));
    copy.timeout = this.timeoutSeconds;
    // Every answer (token, keys, userinfo) read to a bound, not whole whatever its size.
    copy[client.customFetch] = boundedFetch;
    // The ID token's signature checked against the provider's keys (jwks_uri), not only its claims.
    client.enableNonRepudiationChecks(copy);
    if (new URL(this.settings.issuer).protocol === 'http:') client.allowInsecureRequests(copy);
    return copy;
  }
}

/** openid-client's message for an error it did not expect, wrapped with the error as its cause. */
const WRAPPED = 'something went wrong';

/** The kind of an unexpected error, never its message (a parser's message quotes the answer it read, which may hold a token). */
function causeName(cause: Error): string {
  const { code } = cause as { code?: unknown };
  return `unexpected ${cause.name}${typeof code === 'string' ? ` (${code})` : ''}`;
}

/** What openid-client threw, as the login's failure: no answer, an error answer, or an answer that does not check out. */
function classified(failure: unknown): UpstreamFailure {
  if (failure instanceof UpstreamFailure) return failure;
  const error = failure as { name?: string; code?: string; message?: string; error?: string; cause?: unknown };
  // Ours, thrown in openid-client's fetch (an answer past the bound) and wrapped by it.
  if (error.cause instanceof UpstreamFailure) return error.cause;
  const message = (error.message === WRAPPED && error.cause instanceof Error ? causeName(error.cause) : (error.message ?? String(failure))).slice(0, 200);
  if (error.name === 'TimeoutError' || error.name === 'AbortError' || error.code === 'OAUTH_TIMEOUT' || failure instanceof TypeError) return new UpstreamFailure('unavailable', message);
  if (error.name === 'AuthorizationResponseError' || error.name === 'ResponseBodyError' || error.name === 'WWWAuthenticateChallengeError') {
    return new UpstreamFailure('refused', `${error.error ?? error.code ?? 'error'}: ${message}`);
  }
  return new UpstreamFailure('invalid', message);
}
