import { createHash, timingSafeEqual } from 'node:crypto';
import { InvalidRequestError, RateLimitedError, TicketValidationError, type Authentication, type CasCore, type Clock, type RandomSource } from '@tessera/core';
import {
  assertionConsumerService,
  assertionContent,
  answeredAuthnContext,
  authnContextClassFor,
  BINDING,
  classesMetBy,
  chooseNameIdFormat,
  currentKey,
  nameIdValue,
  NAME_ID_FORMAT,
  samlId,
  SamlRequestRefusedError,
  statusResponseContent,
  STATUS,
  type AuthnRequestMessage,
  type PendingSamlLogin,
  type PendingSamlLogins,
  type SamlKeySet,
  type SamlRequestIdStore,
  type SamlServiceProvider,
  type SamlSessionStore,
  type SamlStatusCode,
  type SpEndpoint,
} from '@tessera/core/modules/saml2';
import type { Context } from 'koa';
import { z } from 'zod';
import { statusOf, UNEXPECTED_ERROR_STATUS } from '../../errors/error-status.js';
import { setFailureHeaders } from '../../errors/failure-headers.js';
import { reportServerError } from '../../errors/report.js';
import type { HttpContext } from '../../http-module.js';
import { sendPage } from '../../pages/send-page.js';
import { optionalText } from '../../request/parameter-schemas.js';
import { requestOrigin } from '../../request/request-origin.js';
import { defineRoute, type FailureRendering, type Route, type Step } from '../../routes/route.js';
import { InboundRefusal, receiveAuthnRequest, type InboundMessage, type InboundSettings } from './inbound.js';
import { IDP_PATHS, MetadataError } from './metadata.js';
import { ProtectionUnavailableError, responseProtection, responseXml, statusResponseXml } from './saml-response.js';
import type { SamlPages } from './saml-pages.js';
import { SAML_LOGIN_PATHS, samlCallbackUrl, type SamlServiceProviders } from './service-providers.js';

export interface SamlSsoSettings extends InboundSettings {
  /** How long an assertion may be presented (NotOnOrAfter). */
  readonly assertionSeconds: number;
  /** How long a browser has to log in before the request it came with is forgotten. */
  readonly loginSeconds: number;
}

export interface SamlSsoDependencies {
  /** The IdP's entity id. */
  readonly entityId: string;
  /** server.publicUrl + server.basePath: the endpoints' absolute addresses start with it. */
  readonly baseUrl: string;
  /** tessera's /login, absolute. */
  readonly loginUrl: string;
  readonly settings: SamlSsoSettings;
  readonly providers: SamlServiceProviders;
  readonly requestIds: SamlRequestIdStore;
  readonly pending: PendingSamlLogins;
  readonly sessions: SamlSessionStore;
  readonly keys: () => Promise<SamlKeySet>;
  readonly pages: SamlPages;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/** The cookie of a pending login, by its id: the key of the browser it was started in. */
const BROWSER_COOKIE_PREFIX = 'TSAML2_';
const BROWSER_KEY = /^[A-Za-z0-9_-]{43}$/;
/** The path of the module's cookies under the base path: the SSO endpoints, the callback and the refusal. */
const SAML_PROFILE_PATH = '/idp/profile/SAML2';
const digestOf = (browserKey: string) => createHash('sha256').update(browserKey, 'utf8').digest('base64url');

const HTML = { 'text/html': z.string().meta({ description: 'An HTML page: the form that posts the Response to the SP, or an error.' }) };
const LOCATION = z.object({ Location: z.string().meta({ description: 'Where the browser goes on: /login for this request.' }) });
const ID = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{32,64}$/).meta({ description: 'The pending login.' }) });
const MESSAGE_PARAMETERS = {
  SAMLRequest: optionalText('The AuthnRequest: base64 of its XML (HTTP-POST), or of its DEFLATE (HTTP-Redirect).'),
  RelayState: optionalText('Handed back to the SP with the Response, as it came.'),
};
const REDIRECT_PARAMETERS = {
  ...MESSAGE_PARAMETERS,
  SigAlg: optionalText('HTTP-Redirect: the algorithm of the signature over the query.'),
  Signature: optionalText('HTTP-Redirect: the signature over the query (base64).'),
};

/**
 * The SSO endpoints (SAML Profiles §4.1, Apereo's paths): a verified AuthnRequest goes on to /login for
 * the module's own callback, which stands for the SP's registered service, so whether this session may
 * reach the SP and what it must prove (access strategy, single sign-on, second factor, consent) is
 * decided by the one relying-party path, as for a CAS service; who the user is and what the SP
 * receives is its release. The answer goes to an AssertionConsumerService of the SP's metadata only,
 * over HTTP-POST: a signed (and, if asked, encrypted) Response.
 */
export function ssoRoutes(http: HttpContext, deps: SamlSsoDependencies): Route[] {
  const { pages, settings, clock, random } = deps;
  // Every refusal is a 400 page, but for the throttle's request-rate limit (429 with Retry-After).
  const failures: FailureRendering = { statusOf: (code) => (code === 'RATE_LIMITED' ? statusOf(code, http.options) : 400), response: () => ({ content: HTML }) };

  /** A Response that refuses, posted to the SP's AssertionConsumerService. */
  const answerRefusal = async (ctx: Context, sp: SamlServiceProvider, endpoint: SpEndpoint, requestId: string | undefined, relayState: string | undefined, status: SamlStatusCode, subStatus: SamlStatusCode | undefined, message: string) => {
    const set = await deps.keys();
    const content = statusResponseContent({
      idpEntityId: deps.entityId,
      sp,
      destination: endpoint.location,
      status,
      message,
      now: clock.now(),
      random,
      ...(requestId !== undefined && { request: { id: requestId } }),
      ...(subStatus !== undefined && { subStatus }),
    });
    const signing = sp.policy.signResponses ? { credential: currentKey(set.signing), algorithm: sp.policy.signingSignatureAlgorithms[0] ?? 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256' } : undefined;
    const xml = statusResponseXml(content, signing);
    sendPage(ctx, 200, pages.post(endpoint.location, { SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'), RelayState: relayState }));
  };

  /**
   * Every failure: a refusal the SP may be told of (known, authenticated, its address from its metadata)
   * as a SAML Response to it; any other as an error page naming why; the unexpected as a 500 page.
   */
  const renderFailures: Step = async function renderSamlFailures(ctx, next) {
    try {
      await next();
    } catch (thrown) {
      if (thrown instanceof InboundRefusal && thrown.answer !== undefined) {
        const { sp, endpoint, requestId, relayState } = thrown.answer;
        return answerRefusal(ctx, sp, endpoint, requestId, relayState, thrown.status, thrown.subStatus, thrown.reason);
      }
      if (thrown instanceof SamlRequestRefusedError) return sendPage(ctx, 400, pages.error(thrown.reason));
      if (thrown instanceof MetadataError || thrown instanceof ProtectionUnavailableError) return sendPage(ctx, 400, pages.error(thrown.reason));
      if (thrown instanceof TicketValidationError) return sendPage(ctx, 400, pages.error('The login did not come back with a valid ticket.'));
      if (thrown instanceof InvalidRequestError) return sendPage(ctx, 400, pages.error(thrown.message));
      if (thrown instanceof RateLimitedError) {
        setFailureHeaders(ctx, thrown);
        return sendPage(ctx, statusOf(thrown.code, http.options), pages.error('Too many sign-on requests from this address: please wait a moment and try again.'));
      }
      reportServerError(http.events, thrown, ctx);
      return sendPage(ctx, UNEXPECTED_ERROR_STATUS, pages.error('Something went wrong; please try again later.'));
    }
  };

  // The browser a login was started in: a random key in a cookie of its own (one per pending login, so
  // logins in several tabs, and an HTTP-POST request that a SameSite=Lax cookie does not come with, never
  // overwrite one another), the login holding its digest. The callback answers that browser only.
  const alwaysSecure = http.options.publicUrl?.startsWith('https:') ?? false;
  const cookieOptions = (ctx: Context, maxAgeMs?: number) => {
    // The cookies library refuses a Secure cookie on a request it takes for plain HTTP: the proxy's hop is.
    if (alwaysSecure) ctx.cookies.secure = true;
    return { httpOnly: true, sameSite: 'lax' as const, secure: alwaysSecure || ctx.secure, path: `${http.options.basePath}${SAML_PROFILE_PATH}`, signed: false, overwrite: true, ...(maxAgeMs !== undefined && { maxAge: maxAgeMs }) };
  };
  const cookieName = (id: string) => `${BROWSER_COOKIE_PREFIX}${id}`;
  const startedHere = (ctx: Context, id: string, login: PendingSamlLogin): boolean => {
    const sent = ctx.cookies.get(cookieName(id), { signed: false });
    if (sent === undefined || !BROWSER_KEY.test(sent)) return false;
    const expected = Buffer.from(login.browserKeyDigest, 'utf8');
    const actual = Buffer.from(digestOf(sent), 'utf8');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  };
  /** The pending login of this browser under `id`; one started in another browser is refused (and left for its own). */
  const pendingOfThisBrowser = async (ctx: Context, id: string, take: boolean): Promise<PendingSamlLogin> => {
    const login = await deps.pending.get(id);
    if (login === undefined) throw new InvalidRequestError('This login was answered already, or has expired');
    if (!startedHere(ctx, id, login)) throw new InvalidRequestError('This login was started in another browser, or its cookie is gone');
    if (take && (await deps.pending.take(id)) === undefined) throw new InvalidRequestError('This login was answered already');
    if (take) ctx.cookies.set(cookieName(id), null, cookieOptions(ctx));
    return login;
  };

  /** On to /login for a held login: `renew` for ForceAuthn, `gateway` for IsPassive (no form: back without a ticket). */
  const toLogin = async (ctx: Context, request: Omit<PendingSamlLogin, 'browserKeyDigest'>) => {
    const now = clock.now();
    const browserKey = Buffer.from(random.bytes(32)).toString('base64url');
    const login: PendingSamlLogin = { ...request, browserKeyDigest: digestOf(browserKey) };
    const id = await deps.pending.hold(login, now + settings.loginSeconds * 1000, requestOrigin(ctx).clientAddress);
    ctx.cookies.set(cookieName(id), browserKey, cookieOptions(ctx, settings.loginSeconds * 1000));
    const target = new URL(deps.loginUrl);
    target.searchParams.set('service', samlCallbackUrl(deps.baseUrl, id));
    if (login.request?.forceAuthn === true) target.searchParams.set('renew', 'true');
    else if (login.request?.isPassive === true) target.searchParams.set('gateway', 'true');
    ctx.status = 303;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(target.href);
  };

  /** An AuthnRequest over either binding, checked; a passive one asking for a fresh login is answered NoPassive at once. */
  const accept = async (ctx: Context, inbound: InboundMessage, endpoint: string) => {
    const received = await receiveAuthnRequest(inbound, `${deps.baseUrl}${endpoint}`, [BINDING.post], settings, { serviceProvider: deps.providers.serviceProvider, requestIds: deps.requestIds, now: () => clock.now() });
    const { message, assertionConsumerService: acs, relayState, sp } = received;
    if (message.isPassive && message.forceAuthn) {
      return answerRefusal(ctx, sp, acs, message.id, relayState, STATUS.responder, STATUS.noPassive, 'The request asks for a fresh login without asking the user anything');
    }
    await toLogin(ctx, { spEntityId: sp.metadata.entityId, request: message, assertionConsumerService: acs, ...(relayState !== undefined && { relayState }) });
  };

  const describedLogin =
    "A login goes on to `/login` with the module's callback as its service, which stands for the SP's registered service: its access strategy, single sign-on rules, second factor and consent apply as to a CAS service's. `ForceAuthn` asks for the password again (`renew`); `IsPassive` never shows a page (`gateway`): without a session, or with one the SP would first ask something of the user for (a second factor, consent, a login of its own), the SP gets `NoPassive`. A request that fails a check is answered to the SP with a SAML status when the SP is known, authenticated and its AssertionConsumerService is in its metadata; otherwise only the browser is told, on an error page.";

  const redirectSso = defineRoute({
    method: 'get',
    path: IDP_PATHS.redirectSso,
    operationId: 'saml2RedirectSso',
    summary: 'SAML 2.0: single sign-on, AuthnRequest over HTTP-Redirect',
    description: describedLogin,
    request: { query: z.object(REDIRECT_PARAMETERS) },
    responses: { 200: { description: 'A refusal, posted to the SP.', content: HTML }, 303: { description: 'On to /login.', headers: LOCATION } },
    failures,
    steps: [renderFailures, ...http.authorizationGuards],
    async handle(ctx) {
      await accept(ctx, { binding: BINDING.redirect, rawQuery: ctx.querystring }, IDP_PATHS.redirectSso);
    },
  });

  const postSso = defineRoute({
    method: 'post',
    path: IDP_PATHS.postSso,
    operationId: 'saml2PostSso',
    summary: 'SAML 2.0: single sign-on, AuthnRequest over HTTP-POST',
    description: describedLogin,
    request: { parameters: z.object(MESSAGE_PARAMETERS) },
    responses: { 200: { description: 'A refusal, posted to the SP.', content: HTML }, 303: { description: 'On to /login.', headers: LOCATION } },
    failures,
    steps: [renderFailures, ...http.authorizationGuards, http.readBody],
    async handle(ctx, { sentParameters }) {
      await accept(ctx, { binding: BINDING.post, form: sentParameters }, IDP_PATHS.postSso);
    },
  });

  const unsolicitedSso = defineRoute({
    method: 'get',
    path: IDP_PATHS.unsolicitedSso,
    operationId: 'saml2UnsolicitedSso',
    summary: 'SAML 2.0: IdP-initiated single sign-on',
    description:
      "Logs the browser in to the SP `providerId` names without a request of its own (Shibboleth's unsolicited SSO, as Apereo CAS serves it): through `/login` for the SP's registered service, then a Response with no `InResponseTo` to the AssertionConsumerService `shire` names, which must be in the SP's metadata (else its default one).",
    request: {
      query: z.object({
        providerId: optionalText("The SP's entity id."),
        shire: optionalText("The AssertionConsumerService to answer at; one of the SP's metadata."),
        target: optionalText('Handed to the SP as RelayState.'),
        time: optionalText('When the link was made (seconds since 1970); accepted within the skew and the request age.'),
      }),
    },
    responses: { 303: { description: 'On to /login.', headers: LOCATION } },
    failures,
    steps: [renderFailures, ...http.authorizationGuards],
    async handle(ctx, { query }) {
      if (query.providerId === undefined) throw new SamlRequestRefusedError('providerId, the entity id of the SP, is required');
      const found = await deps.providers.find(query.providerId);
      if (found === undefined) throw new SamlRequestRefusedError(`No service provider is registered as ${query.providerId}`);
      if (query.time !== undefined) {
        const time = Number(query.time) * 1000;
        const now = clock.now();
        const skew = (found.sp.policy.skewAllowanceSeconds ?? settings.skewSeconds) * 1000;
        if (!Number.isFinite(time) || time > now + skew || time < now - skew - settings.maxAgeSeconds * 1000) throw new SamlRequestRefusedError('time is not within the allowed window of this server clock');
      }
      const acs = assertionConsumerService(found.sp.metadata, query.shire === undefined ? {} : { url: query.shire }, [BINDING.post]);
      if (acs === undefined) throw new SamlRequestRefusedError(`The metadata of ${query.providerId} lists no ${query.shire === undefined ? 'AssertionConsumerService' : `AssertionConsumerService ${query.shire}`} tessera answers over (HTTP-POST)`);
      await toLogin(ctx, { spEntityId: found.sp.metadata.entityId, assertionConsumerService: acs, ...(query.target !== undefined && { relayState: query.target }) });
    },
  });

  const callback = defineRoute({
    method: 'get',
    path: `${SAML_LOGIN_PATHS.callback}/{id}`,
    operationId: 'saml2LoginCallback',
    summary: 'SAML 2.0: back from /login, the Response posted to the SP',
    description:
      "Takes the ST /login issued for this pending login (which stood for the SP's registered service, every rule of it applied) and answers the SP: the user as its username provider names them, the attributes its release policy lets through (in the NameID format the request or the definition asks for), in an assertion signed and encrypted as its definition and metadata say, posted to its AssertionConsumerService. Without a ticket (a passive request that no session reaches without a page) the SP gets `NoPassive`.",
    request: { params: ID, query: z.object({ ticket: optionalText('The ST /login issued for this login.') }) },
    responses: { 200: { description: 'The form posting the Response to the SP.', content: HTML } },
    failures,
    steps: [renderFailures],
    async handle(ctx, { params, query }) {
      const login = await pendingOfThisBrowser(ctx, params.id, false);
      const found = await deps.providers.find(login.spEntityId);
      if (found === undefined) throw new InvalidRequestError(`No service provider is registered as ${login.spEntityId}`);
      const { sp } = found;
      const acs = login.assertionConsumerService;
      const request = login.request;
      if (query.ticket === undefined) {
        await pendingOfThisBrowser(ctx, params.id, true);
        if (request?.isPassive !== true) throw new InvalidRequestError('The login came back without a ticket');
        return answerRefusal(ctx, sp, acs, request.id, login.relayState, STATUS.responder, STATUS.noPassive, 'No login session reaches this service provider without asking the user something');
      }
      const callbackUrl = samlCallbackUrl(deps.baseUrl, params.id);
      const handed = await http.core.validateServiceTicket.handOver({ ticket: query.ticket, service: callbackUrl, renew: request?.forceAuthn === true, origin: requestOrigin(ctx) });
      // Answered once, on whichever node: a second callback of the same login finds nothing to take.
      await pendingOfThisBrowser(ctx, params.id, true);
      try {
        await answer(ctx, http.core, { login, sp, request, handed });
      } catch (error) {
        if (error instanceof SamlRequestRefusedError) return answerRefusal(ctx, sp, acs, request?.id, login.relayState, error.status, error.subStatus, error.reason);
        throw error;
      }
    },
  });

  /** The SAML authentication context classes the login meets: a password through the login form, REFEDS MFA with a second factor. */
  const classesMet = (core: CasCore, authentication: Authentication): string[] => classesMetBy(core.secondFactor.contextClass(authentication)['authnContextClass'] !== undefined);

  const answer = async (
    ctx: Context,
    core: CasCore,
    input: { readonly login: PendingSamlLogin; readonly sp: SamlServiceProvider; readonly request: AuthnRequestMessage | undefined; readonly handed: Awaited<ReturnType<CasCore['validateServiceTicket']['handOver']>> },
  ) => {
    const { login, sp, request, handed } = input;
    const { tgt, service } = handed;
    const proved = answeredAuthnContext(request?.requestedAuthnContext, classesMet(core, tgt.authentication));
    const released = await core.relyingParties.release({
      service,
      url: sp.metadata.entityId,
      principal: tgt.authentication.principal,
      // Always said, if empty: a policy releasing by category releases to this SP only what its metadata declares.
      declared: sp.metadata.entityAttributes ?? {},
    });
    const format = chooseNameIdFormat(sp, request?.nameIdPolicy);
    const set = await deps.keys();
    const nameId = {
      value: nameIdValue(format, released, sp.metadata.entityId, { persistentIdSalt: set.persistentIdSalt, random }),
      format,
      ...(format === NAME_ID_FORMAT.persistent && { nameQualifier: deps.entityId, spNameQualifier: sp.metadata.entityId }),
    };
    const sessionIndex = samlId(random);
    const content = assertionContent({
      idpEntityId: deps.entityId,
      sp,
      ...(request !== undefined && { request }),
      assertionConsumerService: login.assertionConsumerService,
      user: released,
      nameId,
      authenticatedAt: handed.authenticatedAt,
      sessionIndex,
      contextClassRef: authnContextClassFor(sp.policy.requiredAuthenticationContextClass, proved),
      now: clock.now(),
      lifetimeSeconds: settings.assertionSeconds,
      skewSeconds: sp.policy.skewAllowanceSeconds ?? settings.skewSeconds,
      random,
    });
    const xml = await responseXml(content, responseProtection(sp, currentKey(set.signing)));
    // The SP now holds a session of this login: single logout names it by this NameID and SessionIndex.
    await deps.sessions.add(
      tgt.id,
      { spEntityId: sp.metadata.entityId, nameId: nameId.value, nameIdFormat: format, sessionIndex, principal: tgt.authentication.principal.id, ...(nameId.spNameQualifier !== undefined && { spNameQualifier: nameId.spNameQualifier }) },
      tgt.hardExpiresAt,
    );
    sendPage(ctx, 200, pages.post(login.assertionConsumerService.location, { SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'), RelayState: login.relayState }));
  };

  const refused = defineRoute({
    method: 'get',
    path: `${SAML_LOGIN_PATHS.refused}/{id}`,
    operationId: 'saml2Refused',
    summary: "SAML 2.0: the SP's definition refuses the user",
    description: "Where /login sends a browser that the SP's registered service refuses (its access strategy, or a second factor the user cannot give), when the definition names no `unauthorizedRedirectUrl`: the SP gets a Response with `RequestDenied`.",
    request: { params: ID },
    responses: { 200: { description: 'The form posting the refusal to the SP.', content: HTML } },
    failures,
    steps: [renderFailures],
    async handle(ctx, { params }) {
      const login = await pendingOfThisBrowser(ctx, params.id, true);
      const found = await deps.providers.find(login.spEntityId);
      if (found === undefined) throw new InvalidRequestError(`No service provider is registered as ${login.spEntityId}`);
      await answerRefusal(ctx, found.sp, login.assertionConsumerService, login.request?.id, login.relayState, STATUS.responder, STATUS.requestDenied, 'The user may not use this service');
    },
  });

  return [redirectSso, postSso, unsolicitedSso, callback, refused];
}
