import { createHash } from 'node:crypto';
import { AuthenticationFailedError } from '../../domain/errors.js';
import type { Principal } from '../../domain/authentication/principal.js';
import type { Credential } from '../../domain/authentication/credential.js';
import type { RequestOrigin } from '../../domain/events.js';
import type { Clock } from '../../ports/clock.js';
import type { CredentialHandler } from '../../ports/credential-handler.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { UserDirectory } from '../../ports/user-directory.js';
import { delegatedLoginKey, isDelegatedCredential } from './credential.js';
import type { DelegationFailedEvent, DelegationProvedEvent } from './events.js';
import type { DelegationRecords, LeftForm } from './login-states.js';
import { UpstreamFailure, type PostedForm, type UpstreamIdentity, type UpstreamProvider, type UpstreamSecrets } from './upstream.js';

/** Who a provider's users are in tessera: the attribute naming them, the attributes they get, the link to a local user. */
export type UserMapping = {
  readonly principalAttribute?: string;
  readonly attributes?: Readonly<Record<string, string>>;
  readonly linkAttribute?: string;
  readonly requireLink: boolean;
};

/** A configured provider: its upstream, how its users map to tessera's, and whether a tessera logout ends the session upstream too. */
export interface DelegationProvider {
  readonly upstream: UpstreamProvider;
  readonly mapping: UserMapping;
  readonly logout?: boolean;
}

/** The principal attribute naming the provider a login came through. */
export const DELEGATED_PROVIDER_ATTRIBUTE = 'delegatedProvider';

/** How long a proof waits for the login form's post, in seconds: the page posts it at once. */
const PROOF_SECONDS = 120;

/**
 * The login through an upstream provider (docs/modules/delegation.md): `start` keeps the login form
 * the user left, under a state bound to the browser, with a nonce and PKCE verifier, and says where
 * the browser goes; `finish` takes that state once (whatever the answer), has the upstream prove the
 * user, maps the user, and keeps the proof for the login form's post, which the module's handler
 * (`authenticate`) takes once. So the session is made by the login module as for any login, with its
 * prompts, throttle and audit; nothing is made for a failure.
 */
export class DelegatedLogin implements CredentialHandler {
  readonly name = 'delegation';

  constructor(
    private readonly providers: ReadonlyMap<string, DelegationProvider>,
    private readonly records: DelegationRecords,
    private readonly directory: UserDirectory,
    private readonly clock: Clock,
    private readonly events: EventSink,
    private readonly stateSeconds: number,
  ) {}

  /** A new value for a browser's delegation cookie. */
  browserKey(): string {
    return this.records.randomValue();
  }

  has(providerId: string): boolean {
    return this.providers.has(providerId);
  }

  /** The document a provider's upstream is configured with to know tessera (a SAML 2 SP's metadata); undefined for a provider without one. */
  serviceProviderMetadata(providerId: string, callbackUrl: string, logoutReturnUrl: string): string | undefined {
    return this.providers.get(providerId)?.upstream.serviceProviderMetadata?.(callbackUrl, logoutReturnUrl);
  }

  /** Where the browser goes to log in upstream; `browserKey` the value of its delegation cookie. */
  async start(providerId: string, form: LeftForm, browserKey: string, callbackUrl: string, origin: RequestOrigin): Promise<string> {
    const provider = this.provider(providerId);
    const secrets = { state: this.records.randomValue(), nonce: this.records.randomValue(), codeVerifier: this.records.randomValue() };
    try {
      const url = await provider.upstream.authorizationUrl(secrets, callbackUrl);
      await this.records.wait(secrets.state, { provider: providerId, browser: digest(browserKey), nonce: secrets.nonce, codeVerifier: secrets.codeVerifier, form }, this.clock.now() + this.stateSeconds * 1000, origin.clientAddress);
      return url;
    } catch (error) {
      throw this.failed(providerId, error, origin);
    }
  }

  /**
   * The browser back from upstream at `callback` (with `form`, what it posted there, for a provider
   * that answers by post): the login form to post, with the proof's id. Throws UpstreamFailure
   * (audited) when the answer proves no one; the state is used up either way. An answer that comes
   * the other way than the provider's (a post to a provider that answers by GET, or the reverse) is
   * refused before its state is read.
   */
  async finish(providerId: string, callback: URL, browserKey: string | undefined, callbackUrl: string, origin: RequestOrigin, form?: PostedForm): Promise<{ readonly form: LeftForm; readonly proofId: string }> {
    try {
      const provider = this.provider(providerId);
      const byPost = provider.upstream.answersBy === 'post';
      if (byPost !== (form !== undefined)) throw new UpstreamFailure('state', `provider ${providerId} answers by ${byPost ? 'POST' : 'GET'}`);
      const state = (byPost ? form?.['RelayState'] : callback.searchParams.get('state')) ?? '';
      const waiting = await this.records.takeWaiting(state);
      if (waiting === undefined) throw new UpstreamFailure('state', 'no login waits under this state (unknown, used or expired)');
      if (browserKey === undefined || waiting.browser !== digest(browserKey)) throw new UpstreamFailure('state', 'the login left from another browser');
      if (waiting.provider !== providerId) throw new UpstreamFailure('state', `the login left for provider ${waiting.provider}`);
      const { principal, session } = await this.identified(provider, providerId, callback, { state, nonce: waiting.nonce, codeVerifier: waiting.codeVerifier }, callbackUrl, form).catch((error: unknown) => {
        const failure = asFailure(error);
        throw new UpstreamFailure(failure.reason, failure.detail, waiting.form.service);
      });
      const proofId = await this.records.prove({ provider: providerId, browser: waiting.browser, principal }, this.clock.now() + PROOF_SECONDS * 1000);
      // For the upstream's logout: kept under the login's key until the session it makes is (UpstreamLogout), as long as a login may take.
      if (provider.logout === true && provider.upstream.logoutUrl !== undefined) {
        await this.records.keepLogin(delegatedLoginKey(proofId), { provider: providerId, session: session ?? {} }, this.clock.now() + this.stateSeconds * 1000);
      }
      this.events.emit({ type: 'delegation.proved', provider: providerId, username: principal.id } satisfies DelegationProvedEvent, origin);
      return { form: waiting.form, proofId };
    } catch (error) {
      throw this.failed(providerId, error, origin);
    }
  }

  supports(credential: Credential): boolean {
    return isDelegatedCredential(credential);
  }

  /**
   * The user a proof names, the proof gone from now on (a post from another browser uses it up too).
   * Only the browser that left for the upstream (its delegation cookie) may post it: a proof id seen
   * elsewhere logs no one in.
   */
  async authenticate(credential: Credential): Promise<Principal> {
    if (!isDelegatedCredential(credential)) throw new AuthenticationFailedError(['The login through another identity provider was not accepted.']);
    const proof = await this.records.takeProof(credential.proofId);
    if (proof === undefined) throw new AuthenticationFailedError(['The login through another identity provider has expired or was used already; log in again.']);
    if (credential.browserKey === undefined || proof.browser !== digest(credential.browserKey)) throw new AuthenticationFailedError(['The login through another identity provider left from another browser; log in again.']);
    return proof.principal;
  }

  private async identified(provider: DelegationProvider, providerId: string, callback: URL, secrets: UpstreamSecrets, callbackUrl: string, form: PostedForm | undefined): Promise<{ principal: Principal; session: UpstreamIdentity['session'] }> {
    const identity = await provider.upstream.identify(callback, secrets, callbackUrl, ...(form === undefined ? [] : [form]));
    return { principal: await this.principalOf(providerId, provider.mapping, identity), session: identity.session };
  }

  private provider(providerId: string): DelegationProvider {
    const provider = this.providers.get(providerId);
    if (provider === undefined) throw new UpstreamFailure('provider', `no provider ${providerId}`);
    return provider;
  }

  /** The tessera user an upstream identity is: the named attribute's value (else the upstream's id), the mapped attributes, a linked local user. */
  private async principalOf(providerId: string, mapping: UserMapping, identity: UpstreamIdentity): Promise<Principal> {
    const named = mapping.principalAttribute === undefined ? identity.id : identity.attributes[mapping.principalAttribute]?.[0];
    if (named === undefined || named.trim() === '') throw new UpstreamFailure('user', `the upstream answer has no ${mapping.principalAttribute ?? 'user id'}`);
    const attributes: Record<string, readonly string[]> = {};
    if (mapping.attributes === undefined) Object.assign(attributes, identity.attributes);
    else for (const [upstream, local] of Object.entries(mapping.attributes)) if (identity.attributes[upstream] !== undefined) attributes[local] = identity.attributes[upstream];
    attributes[DELEGATED_PROVIDER_ATTRIBUTE] = [providerId];
    if (mapping.linkAttribute !== undefined) {
      const username = identity.attributes[mapping.linkAttribute]?.[0];
      const local = username === undefined ? undefined : await this.directory.findByUsername(username);
      if (local !== undefined) return { id: local.username, attributes: { ...attributes, ...local.attributes, [DELEGATED_PROVIDER_ATTRIBUTE]: [providerId] } };
      if (mapping.requireLink) throw new UpstreamFailure('user', `no local user is named by ${mapping.linkAttribute}`);
    }
    return { id: named.trim(), attributes: attributes };
  }

  private failed(providerId: string, error: unknown, origin: RequestOrigin): UpstreamFailure {
    const failure = asFailure(error);
    this.events.emit({ type: 'delegation.failed', provider: providerId, reason: failure.reason, detail: failure.detail } satisfies DelegationFailedEvent, origin);
    return failure;
  }
}

/** An upstream's failure as it is, anything else thrown on the way (a network error) as the upstream being unavailable. */
function asFailure(error: unknown): UpstreamFailure {
  return error instanceof UpstreamFailure ? error : new UpstreamFailure('unavailable', error instanceof Error ? error.message : String(error));
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
