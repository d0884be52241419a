import { createHash } from 'node:crypto';
import { UpstreamFailure, type UpstreamIdentity, type UpstreamProvider, type UpstreamSecrets } from '@tessera/core/modules/delegation';
import { boundedJson } from './bounded-json.js';
import type { UpstreamProviderSettings } from './config.js';

type OAuth2Settings = NonNullable<UpstreamProviderSettings['oauth2']>;

/**
 * A plain OAuth 2.0 provider with a profile URL (GitHub-style, no ID token): the code flow with PKCE
 * (S256) and a state, the code exchanged at the token URL (client_secret_basic), the profile read with
 * the access token. The profile's `idAttribute` is the user's id, its other top-level values the
 * user's attributes.
 */
export class OAuth2Upstream implements UpstreamProvider {
  constructor(
    readonly id: string,
    private readonly settings: OAuth2Settings,
    private readonly timeoutSeconds: number,
  ) {}

  authorizationUrl(secrets: UpstreamSecrets, callbackUrl: string): Promise<string> {
    const url = new URL(this.settings.authorizationUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.settings.clientId);
    url.searchParams.set('redirect_uri', callbackUrl);
    if (this.settings.scopes.length > 0) url.searchParams.set('scope', this.settings.scopes.join(' '));
    url.searchParams.set('state', secrets.state);
    url.searchParams.set('code_challenge', createHash('sha256').update(secrets.codeVerifier).digest('base64url'));
    url.searchParams.set('code_challenge_method', 'S256');
    return Promise.resolve(url.href);
  }

  async identify(callback: URL, secrets: UpstreamSecrets, callbackUrl: string): Promise<UpstreamIdentity> {
    const error = callback.searchParams.get('error');
    if (error !== null) throw new UpstreamFailure('refused', `the provider answered ${error.slice(0, 100)}`);
    const code = callback.searchParams.get('code');
    if (code === null || code === '') throw new UpstreamFailure('refused', 'the provider sent no code');
    const token = await this.json(this.settings.tokenUrl, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(this.settings.clientId)}:${encodeURIComponent(this.settings.clientSecret)}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: callbackUrl, code_verifier: secrets.codeVerifier }),
    });
    const accessToken = (token as { access_token?: unknown }).access_token;
    if (typeof accessToken !== 'string' || accessToken === '') throw new UpstreamFailure('refused', `the token URL gave no access token${typeof (token as { error?: unknown }).error === 'string' ? `: ${String((token as { error: string }).error).slice(0, 100)}` : ''}`);
    const profile = await this.json(this.settings.profileUrl, { headers: { accept: 'application/json', authorization: `Bearer ${accessToken}` } });
    if (typeof profile !== 'object' || profile === null || Array.isArray(profile)) throw new UpstreamFailure('invalid', 'the profile is no JSON object');
    const attributes: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(profile)) {
      const values = [value].flat().filter((each) => ['string', 'number', 'boolean'].includes(typeof each)).map(String);
      if (values.length > 0) attributes[name] = values;
    }
    const id = attributes[this.settings.idAttribute]?.[0];
    if (id === undefined || id === '') throw new UpstreamFailure('invalid', `the profile has no ${this.settings.idAttribute}`);
    return { id, attributes };
  }

  /** A JSON answer of the provider; a refusal (4xx) is read too, its body saying why; a 5xx, a network error or a timeout is the provider down. */
  private async json(url: string, init: RequestInit): Promise<unknown> {
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(this.timeoutSeconds * 1000) });
      if (response.status >= 500) throw new UpstreamFailure('unavailable', `${new URL(url).pathname} answered ${response.status}`);
      if (response.status === 401 || response.status === 403) throw new UpstreamFailure('refused', `${new URL(url).pathname} answered ${response.status}`);
      return await boundedJson(response, `the answer of ${new URL(url).pathname}`);
    } catch (failure) {
      if (failure instanceof UpstreamFailure) throw failure;
      const error = failure as Error;
      throw new UpstreamFailure(error.name === 'SyntaxError' ? 'invalid' : 'unavailable', (error.message ?? String(failure)).slice(0, 200));
    }
  }
}
