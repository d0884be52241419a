import { UpstreamFailure, type UpstreamIdentity, type UpstreamProvider, type UpstreamSecrets, type UpstreamSession } from '@tessera/core/modules/delegation';
import { boundedJson } from './bounded-json.js';
import type { UpstreamProviderSettings } from './config.js';

type CasSettings = NonNullable<UpstreamProviderSettings['cas']>;

/**
 * An upstream CAS server (CAS protocol 3.0): the browser goes to its /login with a service URL that
 * carries the state; the ticket it comes back with is validated at its /p3/serviceValidate (JSON) for
 * that very service URL. The CAS user is the user's id, its attributes the user's attributes. Its
 * logout is its /logout, with the way back as `service` (followed when the CAS server allows it).
 */
export class CasUpstream implements UpstreamProvider {
  constructor(
    readonly id: string,
    private readonly settings: CasSettings,
    private readonly timeoutSeconds: number,
  ) {}

  authorizationUrl(secrets: UpstreamSecrets, callbackUrl: string): Promise<string> {
    const login = new URL(`${this.settings.serverUrl}/login`);
    login.searchParams.set('service', serviceUrl(callbackUrl, secrets.state));
    return Promise.resolve(login.href);
  }

  /** The CAS server's /logout, naming the way back with the state as `service` (a CAS server follows it when it knows the service). */
  logoutUrl(_session: UpstreamSession, returnUrl: string, state: string): Promise<string> {
    const logout = new URL(`${this.settings.serverUrl}/logout`);
    logout.searchParams.set('service', serviceUrl(returnUrl, state));
    return Promise.resolve(logout.href);
  }

  async identify(callback: URL, secrets: UpstreamSecrets, callbackUrl: string): Promise<UpstreamIdentity> {
    const ticket = callback.searchParams.get('ticket');
    if (ticket === null || ticket === '') throw new UpstreamFailure('refused', 'the CAS server sent no ticket');
    const validation = new URL(`${this.settings.serverUrl}/p3/serviceValidate`);
    validation.searchParams.set('service', serviceUrl(callbackUrl, secrets.state));
    validation.searchParams.set('ticket', ticket);
    validation.searchParams.set('format', 'JSON');
    let body: unknown;
    try {
      const response = await fetch(validation, { signal: AbortSignal.timeout(this.timeoutSeconds * 1000), headers: { accept: 'application/json' } });
      // A refusal may come with a 4xx status (as tessera's own does): its body says why. A 5xx is the server down.
      if (response.status >= 500) throw new UpstreamFailure('unavailable', `the CAS server answered ${response.status}`);
      body = await boundedJson(response, 'the CAS server’s answer');
    } catch (failure) {
      if (failure instanceof UpstreamFailure) throw failure;
      const error = failure as Error;
      throw new UpstreamFailure(error.name === 'SyntaxError' ? 'invalid' : 'unavailable', (error.message ?? String(failure)).slice(0, 200));
    }
    const answer = (body as { serviceResponse?: { authenticationSuccess?: { user?: unknown; attributes?: Record<string, unknown> }; authenticationFailure?: { code?: unknown } } }).serviceResponse;
    if (answer?.authenticationFailure !== undefined) throw new UpstreamFailure('refused', `the CAS server refused the ticket: ${String(answer.authenticationFailure.code)}`);
    const success = answer?.authenticationSuccess;
    if (typeof success?.user !== 'string' || success.user === '') throw new UpstreamFailure('invalid', 'the CAS server’s answer names no user');
    const attributes: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(success.attributes ?? {})) {
      const values = [value].flat().filter((each) => ['string', 'number', 'boolean'].includes(typeof each)).map(String);
      if (values.length > 0) attributes[name] = values;
    }
    return { id: success.user, attributes };
  }
}

/** The service URL tessera names to the CAS server: the callback with the login's state. */
function serviceUrl(callbackUrl: string, state: string): string {
  return `${callbackUrl}?state=${encodeURIComponent(state)}`;
}
