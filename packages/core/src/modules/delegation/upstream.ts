import type { AttributeMap } from '../../domain/authentication/principal.js';

/**
 * What a login through an upstream keeps for the upstream's logout, by name: an OpenID provider's ID
 * token (`idToken`, the hint of its RP-initiated logout); a SAML identity provider's NameID
 * (`nameId`, with `nameIdFormat`, `nameQualifier`, `spNameQualifier`) and `sessionIndex`. Kept with
 * the login session only, never released to services, never logged.
 */
export type UpstreamSession = Readonly<Record<string, string>>;

/** A form the browser posted back to the callback (SAML's HTTP-POST binding), field by field. */
export type PostedForm = Readonly<Record<string, string>>;

/** Who an upstream says the user is: its own id for the user (`sub`, the CAS user, the SAML NameID), its attributes, and what its logout will need. */
export type UpstreamIdentity = { readonly id: string; readonly attributes: AttributeMap; readonly session?: UpstreamSession };

/** What one login keeps while the browser is upstream, made on tessera's random source, checked when it comes back. */
export type UpstreamSecrets = { readonly state: string; readonly nonce: string; readonly codeVerifier: string };

/**
 * One upstream identity provider as the module talks to it (an OpenID provider, a CAS server): where
 * the browser goes to log in, and who the user is once the browser comes back to `callbackUrl`. Its
 * implementations live where outbound clients do (cli-server's module folder).
 */
export interface UpstreamProvider {
  readonly id: string;
  /**
   * `post` when the upstream sends the browser back with a form it posts (SAML's HTTP-POST binding,
   * the state as its `RelayState`); otherwise it comes back by GET with the state in the query.
   */
  readonly answersBy?: 'post';
  /** Where the browser logs in upstream; `callbackUrl` is where the upstream sends it back. */
  authorizationUrl(secrets: UpstreamSecrets, callbackUrl: string): Promise<string>;
  /**
   * The user the upstream's answer (`callback`, the whole URL the browser came back to, and `form`, what
   * it posted there for a provider that `answersBy` post) proves, checked against what the login kept.
   * Throws UpstreamFailure when it proves no one.
   */
  identify(callback: URL, secrets: UpstreamSecrets, callbackUrl: string, form?: PostedForm): Promise<UpstreamIdentity>;
  /**
   * What the upstream is configured with to know tessera, when it reads it from a document: a SAML 2
   * SP's metadata (XML); `logoutReturnUrl` is where its logout's answer comes back.
   */
  serviceProviderMetadata?(callbackUrl: string, logoutReturnUrl: string): string;
  /**
   * Where the browser goes to end the user's session upstream, given what its login kept (`session`),
   * to come back to `returnUrl` with `state`; undefined when this upstream offers no logout (an OpenID
   * provider without an `end_session_endpoint`). Absent: the kind has no logout (plain OAuth 2.0).
   */
  logoutUrl?(session: UpstreamSession, returnUrl: string, state: string): Promise<string | undefined>;
  /**
   * An upstream whose logout answers with a message of its own (a SAML 2 LogoutResponse): checks the
   * answer the browser came back to `returnUrl` with (`answer`, the whole URL, and `form`, what it
   * posted) is the upstream's, to the logout that left with `state`, and a success. Throws
   * UpstreamFailure when it is not. Absent: the way back with the state is all the upstream says.
   */
  confirmLogout?(answer: URL, state: string, returnUrl: string, form?: PostedForm): Promise<void>;
}

/** Why a login through an upstream failed, as its page and audit record name it. */
export type UpstreamFailureReason =
  /** The upstream did not answer, or not in time. */
  | 'unavailable'
  /** The upstream answered with an error (the user cancelled, the client is refused). */
  | 'refused'
  /** The answer does not check out: a wrong issuer, a bad signature or nonce, an expired token. */
  | 'invalid'
  /** The browser came back with no state this browser is waiting for: unknown, used, expired or another browser's. */
  | 'state'
  /** The service the login is for does not allow this provider, or there is no such provider. */
  | 'provider'
  /** The answer proves a user tessera does not take: no id in the named attribute, no local user to link. */
  | 'user';

/** A login through an upstream that failed: the page says so, the audit record names the reason. */
export class UpstreamFailure extends Error {
  constructor(
    readonly reason: UpstreamFailureReason,
    /** What went wrong, for the log: never a token, code or secret. */
    readonly detail: string,
    /** The service the login was for, when known: the page's way back goes there. */
    readonly service?: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'UpstreamFailure';
  }
}
