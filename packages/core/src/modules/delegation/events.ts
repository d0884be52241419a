import type { UpstreamFailureReason } from './upstream.js';

/** A login through an upstream provider that failed: the provider and why (never a token, code or state). */
export type DelegationFailedEvent = { readonly type: 'delegation.failed'; readonly provider: string; readonly reason: UpstreamFailureReason; readonly detail: string };

/** A user an upstream proved, back at tessera (the session is made when the login form is posted). */
export type DelegationProvedEvent = { readonly type: 'delegation.proved'; readonly provider: string; readonly username: string };

/** A browser logging out of a session made through a provider with `logout`, sent to the upstream's logout. */
export type DelegationLogoutEvent = { readonly type: 'delegation.logout'; readonly provider: string };

/**
 * The upstream's logout could not be started (the store, the upstream's discovery): tessera's logout is
 * done, the browser stays; or the upstream's answer to it did not confirm it (a SAML 2 LogoutResponse
 * that does not verify): the browser is told so.
 */
export type DelegationLogoutFailedEvent = { readonly type: 'delegation.logout.failed'; readonly provider?: string; readonly detail: string };
