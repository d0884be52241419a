/**
 * Why an SP was not confirmed logged out over the back channel: no answer in time (`timeout`), no
 * connection (`unreachable`), an HTTP error (`http`), an answer carrying no LogoutResponse
 * (`unanswered`), one that is not a well-formed LogoutResponse of that SP to this endpoint, in time
 * (`invalid`), whose signature does not verify with the SP's metadata or is missing where the
 * metadata has signing keys (`signature`), that answers another request (`in-response-to`), or whose
 * status is not Success (`status`).
 */
export type SamlLogoutFailure = 'timeout' | 'unreachable' | 'http' | 'unanswered' | 'invalid' | 'signature' | 'in-response-to' | 'status';

/** What both outcomes of a back-channel LogoutRequest name: the SP, the user, never the NameID in full. */
type SamlLogoutAbout = {
  /** The SP's entity id. */
  readonly serviceProvider: string;
  /** The user, when the SP's session recorded them. */
  readonly principal?: string;
  /** A fingerprint of the NameID the request named (a digest's first characters), never the NameID. */
  readonly nameId: string;
};

/** An SP answered tessera's back-channel LogoutRequest with a LogoutResponse of Success, verified. */
export type SamlLogoutConfirmedEvent = SamlLogoutAbout & { readonly type: 'saml2.logout.confirmed' };

/** An SP's back-channel LogoutRequest was not confirmed: its session may live on. */
export type SamlLogoutFailedEvent = SamlLogoutAbout & {
  readonly type: 'saml2.logout.failed';
  readonly reason: SamlLogoutFailure;
  /** What was wrong, bounded and free of the NameID: the status codes, the HTTP status, the refusal. */
  readonly detail: string;
};
