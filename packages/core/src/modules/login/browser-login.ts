import type { Credential } from '../../domain/authentication/credential.js';
import { AuthenticationFailedError, ServiceNotAuthorizedError, TicketNotFoundError, type TesseraError } from '../../domain/errors.js';
import type { RequestOrigin, TicketRefusalReason } from '../../domain/events.js';
import type { Authentication } from '../../domain/authentication/authentication.js';
import type { RegisteredService } from '../../domain/registry/registered-service.js';
import type { TicketGrantingTicket } from '../../domain/tickets/ticket.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { TicketStore } from '../../ports/ticket-store.js';
import type { CasCore } from '../../use-cases/cas-core.js';
import type { HoldServiceTicket } from '../../use-cases/grant-service-ticket.js';
import type { RelyingParty } from '../../use-cases/relying-party-access.js';
import type { FrontChannelLogout, SingleLogout } from './single-logout.js';

/** A visit to /login, as CAS protocol 3.0 defines its parameters. */
export interface LoginRequest {
  /** Where the user is going; it must be a registered, enabled service. */
  readonly service?: string;
  /** The TGT the browser's ticket-granting cookie names, if it sent one that opened. */
  readonly sessionTgtId?: string;
  /** Ask for credentials whatever the session (and mark the ticket as from a new login). */
  readonly renew: boolean;
  /** Never ask for credentials: without a session, back to the service with no ticket. */
  readonly gateway: boolean;
  /** The user asked to be warned before being logged in to a service by single sign-on, and has not confirmed yet. */
  readonly warn: boolean;
  /** The login is the browser's own session adding a factor a service asks (step-up), not a new one. */
  readonly stepUp?: boolean;
  /**
   * Asked before a service ticket is issued to the browser, on a new login and on single sign-on alike:
   * true holds it back for the pages other modules show first (outcome `beforeTicket`).
   */
  readonly holdTicket?: HoldServiceTicket;
  readonly origin?: RequestOrigin;
}

/** What the browser is shown next. */
export type LoginOutcome =
  /**
   * The login form; `principal` names who is logged in already (renew, or a service without SSO),
   * `relyingParty` where the login goes on to, for the page to name it.
   */
  | { readonly kind: 'credentials'; readonly principal?: string; readonly relyingParty?: RelyingParty }
  /** Back to the service: with a ticket, or without one (gateway). */
  | { readonly kind: 'redirect'; readonly service: string; readonly ticket?: string }
  /** `warn`: ask before single sign-on to the service. */
  | { readonly kind: 'confirm'; readonly service: string; readonly principal: string }
  /** Logged in, and no service to go to. */
  | { readonly kind: 'signedIn'; readonly principal: string }
  /**
   * Logged in, but the service's access rules refuse the principal; `unauthorizedRedirectUrl` when
   * the refusing definition names one, where the browser goes instead of the refusal page.
   */
  | { readonly kind: 'denied'; readonly service: string; readonly principal: string; readonly unauthorizedRedirectUrl?: string }
  /**
   * Single sign-on to a service whose `multifactorPolicy` asks a factor the session has not proven: the
   * login's steps are asked of the session's authentication (step-up), then the ticket is granted.
   */
  | { readonly kind: 'stepUp'; readonly service: RegisteredService; readonly url: string; readonly session: string; readonly authentication: Authentication }
  /**
   * The session may have a ticket for the service, but `holdTicket` held it back for pages shown first;
   * `grantAfterSteps` grants it then. `fromNewLogin`: the ticket counts as from the login just made.
   */
  | {
      readonly kind: 'beforeTicket';
      readonly service: RegisteredService;
      readonly url: string;
      readonly session: string;
      readonly authentication: Authentication;
      readonly fromNewLogin: boolean;
    };

export interface LoginWithCredentials extends LoginRequest {
  readonly credentials: readonly Credential[];
}

export interface LoggedIn {
  /** The login session: the browser's own one when the same user logged in again, else a new one. */
  readonly tgt: TicketGrantingTicket;
  readonly outcome: LoginOutcome;
}

/**
 * The browser side of CAS (/login, /logout), on the same use cases as REST: one Authenticator, the
 * same ticket rules, the same events. Single sign-on is the browser's TGT granting STs without a form.
 */
export class BrowserLogin {
  constructor(
    private readonly core: CasCore,
    private readonly tickets: TicketStore,
    private readonly events: EventSink,
    /** Single logout, asked for the front-channel services when a browser logs out. */
    private readonly singleLogout?: Pick<SingleLogout, 'endForBrowser'>,
  ) {}

  /**
   * GET /login: single sign-on, gateway, or the form. An unregistered service is refused (ServiceNotAuthorizedError).
   * `gateway` never shows a page: without a session, or with one the service would first ask something
   * of the user for, the browser goes back without a ticket.
   */
  async begin(request: LoginRequest): Promise<LoginOutcome> {
    const party = request.service === undefined ? undefined : await this.requireRelyingParty(request.service, request.origin);
    const service = party?.service;
    const tgt = await this.session(request.sessionTgtId);
    const singleSignOn = tgt !== undefined && !request.renew && (service === undefined || this.core.relyingParties.reachesBySingleSignOn(service, tgt));
    // renew wins over gateway (CAS protocol 3.0 §2.1.1).
    const gateway = request.gateway && !request.renew && request.service !== undefined;
    if (singleSignOn) {
      const principal = tgt.authentication.principal.id;
      if (request.service === undefined) return { kind: 'signedIn', principal };
      // gateway shows no page at all: a session that needs the user first (a confirmation, a factor
      // to add, a page before the ticket) goes back without a ticket, as one that is not there.
      if (request.warn) return gateway ? { kind: 'redirect', service: request.service } : { kind: 'confirm', service: request.service, principal };
      if (service && (await this.lacksSecondFactor(service, tgt.authentication))) {
        return gateway ? { kind: 'redirect', service: request.service } : { kind: 'stepUp', service, url: request.service, session: tgt.id, authentication: tgt.authentication };
      }
      const outcome = await this.grant(tgt, request.service, request);
      return gateway && outcome.kind === 'beforeTicket' ? { kind: 'redirect', service: request.service } : outcome;
    }
    if (gateway) return { kind: 'redirect', service: request.service };
    return { kind: 'credentials', ...(tgt && { principal: tgt.authentication.principal.id }), ...(party && { relyingParty: party }) };
  }

  /** The relying party of a URL, for the pages that name it; undefined when none is usable now. */
  async relyingParty(url: string | undefined, origin?: RequestOrigin): Promise<RelyingParty | undefined> {
    return url === undefined ? undefined : this.core.relyingParties.locate(url, origin);
  }

  /** Whether the session must prove the service's second factor before it gets there (step-up): the service admits it only with it. */
  private async lacksSecondFactor(service: RegisteredService, authentication: Authentication): Promise<boolean> {
    const admission = await this.core.relyingParties.admit({ service, authentication, renewed: false });
    return !admission.admitted && (admission.reason === 'SECOND_FACTOR_REQUIRED' || admission.reason === 'SECOND_FACTOR_UNAVAILABLE');
  }

  /**
   * POST /login: authenticate (AuthenticationFailedError, NoCredentialsError as REST), then start the
   * session (`startSession`). A login whose pages ask more (a step) calls the two apart.
   */
  async logIn(request: LoginWithCredentials): Promise<LoggedIn> {
    const { authentication, service } = await this.authenticate(request);
    return this.startSession(request, authentication, service);
  }

  /**
   * The credentials of a login form proven (AuthenticationFailedError, NoCredentialsError as REST), for
   * a registered service when it names one (ServiceNotAuthorizedError): nothing is made yet.
   */
  async authenticate(request: LoginWithCredentials): Promise<{ authentication: Authentication; service?: RegisteredService }> {
    const service = request.service === undefined ? undefined : await this.requireService(request.service, request.origin);
    const authentication = await this.core.authenticator.authenticate(request.credentials, request.origin);
    return { authentication, ...(service && { service }) };
  }

  /**
   * A proven login's session: the browser's own one when it is the same user's, its time of login now
   * this one's (as Apereo CAS updates the TGT's authentication date), else a new one (the browser's
   * earlier session ends, its services are logged out). A ticket granted now is always from a new login.
   * A new session for `service` (the login's, when it names one) lives as long as the service's own
   * session lifetime says, if it has one.
   */
  async startSession(request: LoginRequest, authentication: Authentication, service?: RegisteredService): Promise<LoggedIn> {
    const session = await this.session(request.sessionTgtId);
    const sameUser = session?.authentication.principal.id === authentication.principal.id;
    if (request.stepUp && sameUser) return this.stepUp(request, session, authentication);
    // What the session proved stays (its factors among them); only its time of login is the new one's.
    let tgt = sameUser ? await this.tickets.updateAuthentication(session, { ...session.authentication, authenticatedAt: authentication.authenticatedAt }) : undefined;
    if (tgt === undefined) {
      if (request.sessionTgtId !== undefined) await this.core.destroyTicketGrantingTicket.execute(request.sessionTgtId, request.origin);
      tgt = await this.core.createTicketGrantingTicket.store(authentication, request.origin, service);
    }
    const principal = authentication.principal.id;
    if (request.service === undefined) return { tgt, outcome: { kind: 'signedIn', principal } };
    return { tgt, outcome: await this.grant(tgt, request.service, request, authentication) };
  }

  /**
   * The ticket a `beforeTicket` outcome held back, once its pages are done: granted on the session as
   * it is now (every check again), or the login form when the session is gone.
   */
  async grantAfterSteps(request: { readonly sessionTgtId: string; readonly service: string; readonly fromNewLogin: boolean; readonly origin?: RequestOrigin }): Promise<LoginOutcome> {
    const tgt = await this.session(request.sessionTgtId);
    if (tgt === undefined) return { kind: 'credentials' };
    return this.grant(tgt, request.service, request.origin === undefined ? {} : { origin: request.origin }, request.fromNewLogin ? tgt.authentication : undefined);
  }

  /**
   * The browser's session with the factors its steps added (step-up): the same session and time of
   * login, its authentication now showing them to every later ticket; the ticket granted now is one
   * of single sign-on, not of a new login.
   */
  private async stepUp(request: LoginRequest, tgt: TicketGrantingTicket, authentication: Authentication): Promise<LoggedIn> {
    const steppedAuthentication = { ...authentication, authenticatedAt: tgt.authentication.authenticatedAt };
    // Gone meanwhile (expired, logged out): the grant finds no session and shows the form, as for any dead session.
    const stepped = (await this.tickets.updateAuthentication(tgt, steppedAuthentication)) ?? { ...tgt, authentication: steppedAuthentication };
    const principal = authentication.principal.id;
    if (request.service === undefined) return { tgt: stepped, outcome: { kind: 'signedIn', principal } };
    return { tgt: stepped, outcome: await this.grant(stepped, request.service, request) };
  }

  /** The registered, enabled service of this URL, if any: what a step of the login may ask about it. */
  async service(url: string | undefined, origin?: RequestOrigin): Promise<RegisteredService | undefined> {
    return url === undefined ? undefined : this.core.relyingParties.find(url, origin);
  }

  /** Whether the TGT the browser's cookie names is live: a confirmation (`warn`) acts only on one. */
  async hasSession(sessionTgtId: string | undefined): Promise<boolean> {
    return (await this.session(sessionTgtId)) !== undefined;
  }

  /**
   * GET /logout: the browser's TGT, its STs, and (single logout) its services' sessions end; the
   * front-channel logout requests, for the browser to make, are returned.
   */
  async logOut(sessionTgtId: string | undefined, origin?: RequestOrigin): Promise<FrontChannelLogout[]> {
    if (sessionTgtId === undefined) return [];
    // Only a live session's services: a cookie naming a TGT that is gone tells nobody.
    const frontChannel = (await this.session(sessionTgtId)) && this.singleLogout ? await this.singleLogout.endForBrowser(sessionTgtId, origin) : [];
    await this.core.destroyTicketGrantingTicket.execute(sessionTgtId, origin);
    return frontChannel;
  }

  /** Where a logout may send the browser: a registered, enabled CAS service only, never any other URL nor a protocol module's own. */
  async logoutRedirect(url: string | undefined, origin?: RequestOrigin): Promise<string | undefined> {
    const party = url === undefined ? undefined : await this.core.relyingParties.locate(url, origin);
    return party !== undefined && !party.throughModule ? url : undefined;
  }

  private async session(tgtId: string | undefined): Promise<TicketGrantingTicket | undefined> {
    const found = tgtId === undefined ? undefined : await this.tickets.get(tgtId);
    return found?.kind === 'TGT' ? found : undefined;
  }

  private requireService(url: string, origin?: RequestOrigin) {
    return this.core.relyingParties.require(url, this.refuseService(url, origin), origin);
  }

  /** The relying party of the URL; refused (ServiceNotAuthorizedError) as requireService refuses it. */
  private async requireRelyingParty(url: string, origin?: RequestOrigin): Promise<RelyingParty> {
    const party = await this.core.relyingParties.locate(url, origin);
    if (party !== undefined) return party;
    await this.requireService(url, origin);
    // Usable again since it was looked up a moment ago: refused as gone.
    return this.refuseService(url, origin)('SERVICE_NOT_AUTHORIZED', new ServiceNotAuthorizedError());
  }

  private refuseService(url: string, origin?: RequestOrigin) {
    return (reason: TicketRefusalReason, error: TesseraError): never => {
      this.events.emit({ type: 'ticket.refused', kind: 'ST', reason, service: url }, origin);
      throw error;
    };
  }

  private async grant(tgt: TicketGrantingTicket, service: string, request: Pick<LoginRequest, 'holdTicket' | 'origin'>, renewal?: Authentication): Promise<LoginOutcome> {
    const { origin, holdTicket } = request;
    const principal = tgt.authentication.principal.id;
    try {
      const input = { tgtId: tgt.id, service, renew: false, credentials: [], ...(renewal && { renewal }), ...(origin && { origin }) };
      const granted = holdTicket ? await this.core.grantServiceTicket.executeUnlessHeld(input, holdTicket) : await this.core.grantServiceTicket.execute(input);
      if ('held' in granted) {
        return { kind: 'beforeTicket', service: granted.held, url: service, session: tgt.id, authentication: tgt.authentication, fromNewLogin: renewal !== undefined };
      }
      return { kind: 'redirect', service, ticket: granted.ticket.id };
    } catch (error) {
      // The use case reported each refusal already.
      if (error instanceof ServiceNotAuthorizedError) return denied(service, principal, error.unauthorizedRedirectUrl);
      if (error instanceof AuthenticationFailedError) return denied(service, principal, await this.core.relyingParties.refusalRedirect(service, origin));
      if (error instanceof TicketNotFoundError) return { kind: 'credentials' };
      throw error;
    }
  }
}

function denied(service: string, principal: string, unauthorizedRedirectUrl: string | undefined): LoginOutcome {
  return { kind: 'denied', service, principal, ...(unauthorizedRedirectUrl !== undefined && { unauthorizedRedirectUrl }) };
}
