import { InvalidRequestError, TicketValidationError, type CasCore, type TicketGrantingTicket } from '@tessera/core';
import type { Context } from 'koa';
import { z } from 'zod';
import { UNEXPECTED_ERROR_STATUS } from '../../errors/error-status.js';
import { reportServerError } from '../../errors/report.js';
import type { HttpContext } from '../../http-module.js';
import { optionalText } from '../../request/parameter-schemas.js';
import { requestOrigin } from '../../request/request-origin.js';
import { defineRoute, type FailureRendering, type Route, type Step } from '../../routes/route.js';
import type { OidcPages } from './oidc-pages.js';
import { sendPage } from '../../pages/send-page.js';
import { OAUTH_DEFAULT_SCOPE, type TesseraOidcProvider } from './oidc-provider.js';

export interface OidcRouteDependencies {
  /** The provider, once its library has loaded (at start). */
  readonly oidc: () => Promise<TesseraOidcProvider>;
  readonly pages: OidcPages;
  /** The provider's issuer, under which the interaction routes are. */
  readonly issuer: string;
  /** tessera's /login, absolute. */
  readonly loginUrl: string;
  /** The `amr` value (RFC 8176) of each credential kind that declares one, by its type. */
  readonly authenticationMethods: Readonly<Record<string, string>>;
}

const HTML = { 'text/html': z.string().meta({ description: 'An HTML page.' }) };
const UID = z.object({ uid: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).meta({ description: "The provider's interaction id." }) });
const LOCATION = z.object({ Location: z.string().meta({ description: 'Where the browser goes on.' }) });

/** The OIDC callback a login through /login comes back to: registered as a service of its own, so /login grants it an ST. */
export function loginCallbackUrl(issuer: string, uid: string): string {
  return `${issuer}/interaction/${uid}/login`;
}

/** Where /login sends a browser the client refuses (when its definition names no unauthorizedRedirectUrl): the client gets `access_denied`. */
export function refusalUrl(issuer: string, uid: string): string {
  return `${issuer}/interaction/${uid}/refused`;
}

/** The interaction id of a login callback URL of this issuer; undefined for any other URL. */
export function interactionOfCallback(issuer: string, url: string): string | undefined {
  const prefix = `${issuer}/interaction/`;
  if (!url.startsWith(prefix) || !url.endsWith('/login')) return undefined;
  const uid = url.slice(prefix.length, -'/login'.length);
  return /^[A-Za-z0-9_-]{1,64}$/.test(uid) ? uid : undefined;
}

/** The reasons that name a user: a session of another does not meet them. */
const NAMED_USER_REASONS = ['id_token_hint', 'claims_id_token_sub_value'];

/**
 * The subject an authorization request names (an `id_token_hint` of ours, or the `claims` parameter's
 * `id_token.sub` value): the provider checked the hint when the request came, but not the login that
 * answers it, so the callback does. `null` when the request names one this route cannot read (an
 * encrypted hint): no login can be shown to meet it.
 */
function namedSubject(params: Readonly<Record<string, unknown>>): string | null | undefined {
  const { id_token_hint: hint, claims } = params;
  try {
    if (typeof hint === 'string') {
      const sub = (JSON.parse(Buffer.from(hint.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: unknown }).sub;
      return typeof sub === 'string' ? sub : null;
    }
    if (typeof claims !== 'string') return undefined;
    const value = (JSON.parse(claims) as { id_token?: { sub?: { value?: unknown } } }).id_token?.sub?.value;
    return value === undefined ? undefined : typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/**
 * The provider's interactions on tessera's session: every login goes through tessera's own /login for
 * the client's interaction, whose URL stands for the client's registered service (the relying-party
 * path: its access strategy, second factor, single sign-on rules, consent and login page are the
 * client's, as for a CAS service), and comes back to the callback with an ST; a refusal there comes
 * back as `access_denied`; a consent asks the user unless the client bypasses it.
 */
export function oidcRoutes(http: HttpContext, deps: OidcRouteDependencies): Route[] {
  const { oidc, pages, issuer, loginUrl, authenticationMethods } = deps;

  const failures: FailureRendering = { statusOf: () => 400, response: () => ({ content: HTML }) };
  /** Every failure as a page: an interaction that is gone or not this browser's, a ticket that does not validate. */
  const renderFailures: Step = async function renderInteractionFailures(ctx, next) {
    const { errors } = await oidc();
    try {
      await next();
    } catch (thrown) {
      if (thrown instanceof errors.OIDCProviderError) return sendPage(ctx, thrown.statusCode, pages.error(thrown.error, thrown.error_description));
      if (thrown instanceof TicketValidationError || thrown instanceof InvalidRequestError) return sendPage(ctx, 400, pages.error('login_failed', 'The login did not come back with a valid ticket; start again from the application.'));
      reportServerError(http.events, thrown, ctx);
      return sendPage(ctx, UNEXPECTED_ERROR_STATUS, pages.error('server_error', 'Something went wrong; please try again later.'));
    }
  };

  /** The interaction of this browser (its cookie), and that it is the one the path names. */
  const interactionOf = async (ctx: Context, uid: string) => {
    const { provider, errors } = await oidc();
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (details.uid !== uid) throw new errors.SessionNotFound('interaction and cookie do not match');
    return details;
  };

  const finish = async (ctx: Context, result: Record<string, unknown>, mergeWithLastSubmission = false) => {
    const { provider } = await oidc();
    const returnTo = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission });
    ctx.status = 303;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(returnTo);
  };

  /** On to /login for this interaction's client: `renew` when no existing session may meet the request. */
  const toLogin = (ctx: Context, uid: string, renew: boolean) => {
    const target = new URL(loginUrl);
    target.searchParams.set('service', loginCallbackUrl(issuer, uid));
    if (renew) target.searchParams.set('renew', 'true');
    ctx.status = 303;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(target.href);
  };

  /** What the login proved, as the ID token says it: `amr` from the credential kinds' declarations, `acr` the second factor's provider. */
  const provedBy = (core: CasCore, tgt: TicketGrantingTicket) => {
    const { authentication } = tgt;
    const amr = [...new Set(authentication.credentials.map(({ type }) => authenticationMethods[type] ?? type))];
    const acr = core.secondFactor.contextClass(authentication)['authnContextClass']?.[0];
    return { amr, ...(acr !== undefined && { acr }) };
  };

  const showInteraction = defineRoute({
    method: 'get',
    path: '/oidc/interaction/{uid}',
    operationId: 'oidcInteraction',
    summary: 'OpenID Connect: log in through /login, or consent',
    description:
      "Where the provider sends a browser it needs something of. A login goes on to `/login` with this interaction as its service, which stands for the client's registered service (`renew` when the client asked for a fresh login with `prompt=login`, or named another user than the session's with `id_token_hint`). A consent shows the consent page, unless the client bypasses it.",
    request: { params: UID },
    responses: { 200: { description: 'The consent page.', content: HTML }, 303: { description: 'On to /login, or back to the client with an error.', headers: LOCATION } },
    failures,
    steps: [renderFailures],
    async handle(ctx, { params }) {
      const details = await interactionOf(ctx, params.uid);
      if (details.prompt.name === 'login') {
        const reasons = details.prompt.reasons;
        const sessionOfAnother = details.session?.accountId !== undefined && reasons.some((reason) => NAMED_USER_REASONS.includes(reason));
        return toLogin(ctx, details.uid, reasons.includes('login_prompt') || sessionOfAnother);
      }
      const clientId = String(details.params['client_id']);
      const { provider } = await oidc();
      const client = await provider.Client.find(clientId);
      const requested = details.params['scope'];
      // Neither openid nor the scope of an OAuth request that named none stands for a claim.
      const scopes = (typeof requested === 'string' ? requested : 'openid').split(' ').filter((scope) => scope !== 'openid' && scope !== OAUTH_DEFAULT_SCOPE && scope !== '');
      sendPage(ctx, 200, pages.consent(client?.clientName ?? clientId, details.session?.accountId ?? '', scopes, `${issuer}/interaction/${details.uid}/consent`));
    },
  });

  const loginCallback = defineRoute({
    method: 'get',
    path: '/oidc/interaction/{uid}/login',
    operationId: 'oidcLoginCallback',
    summary: 'OpenID Connect: back from /login with a service ticket',
    description:
      "Takes the ST /login issued for this interaction (which stood for the client's registered service, every rule of it applied) and finishes the login with its session; the provider session is then the tessera login session. A login older than the request's `max_age` goes back to /login for a fresh one; a login of another user than the one the request named (`id_token_hint`) ends with `login_required`.",
    request: { params: UID, query: z.object({ ticket: optionalText('The ST /login issued for this interaction.') }) },
    responses: { 303: { description: 'Back to the provider, which answers the client; or on to /login for a fresh login.', headers: LOCATION } },
    failures,
    steps: [renderFailures],
    async handle(ctx, { params, query }) {
      const details = await interactionOf(ctx, params.uid);
      if (details.prompt.name !== 'login') throw new InvalidRequestError('This interaction asks for no login');
      const renew = details.prompt.reasons.includes('login_prompt');
      const handed = await http.core.validateServiceTicket.handOver({ ticket: query.ticket, service: loginCallbackUrl(issuer, details.uid), renew, origin: requestOrigin(ctx) });
      // max_age (OIDC Core §3.1.2.1): a login older than that never meets the request, however live its session.
      const maxAge = Number(details.params['max_age']);
      if (Number.isFinite(maxAge) && !handed.fromNewLogin && http.core.clock.now() - handed.authenticatedAt > maxAge * 1000) return toLogin(ctx, details.uid, true);
      // A request that names its user (id_token_hint) is met by that user's login only (OIDC Core §3.1.2.1).
      const named = namedSubject(details.params);
      if (named === null || (named !== undefined && (await (await oidc()).subjectFor(String(details.params['client_id']), handed.tgt)) !== named)) {
        return finish(ctx, { error: 'login_required', error_description: 'The user who logged in is not the one the client named' });
      }
      // `remember: false`: the provider session's cookie ends with the browser, as the TGC it stands for.
      const login = { accountId: handed.tgt.authentication.principal.id, ts: Math.floor(handed.authenticatedAt / 1000), ...provedBy(http.core, handed.tgt), remember: false };
      await finish(ctx, { login, tessera: { tgt: handed.tgt.id } });
    },
  });

  const refused = defineRoute({
    method: 'get',
    path: '/oidc/interaction/{uid}/refused',
    operationId: 'oidcRefused',
    summary: "OpenID Connect: the client's definition refuses the user",
    description: "Where /login sends a browser that the client's registered service refuses (its access strategy, or a second factor it cannot give), when the definition names no `unauthorizedRedirectUrl`: the client gets `access_denied`.",
    request: { params: UID },
    responses: { 303: { description: 'Back to the client with `error=access_denied`.', headers: LOCATION } },
    failures,
    steps: [renderFailures],
    async handle(ctx, { params }) {
      const details = await interactionOf(ctx, params.uid);
      if (details.prompt.name !== 'login') throw new InvalidRequestError('This interaction asks for no login');
      await finish(ctx, { error: 'access_denied', error_description: 'The user may not use this client' });
    },
  });

  const consent = defineRoute({
    method: 'post',
    path: '/oidc/interaction/{uid}/consent',
    operationId: 'oidcConsent',
    summary: 'OpenID Connect: the user allows or denies the client',
    request: { params: UID, parameters: z.object({ decision: z.enum(['allow', 'deny']).meta({ description: '`allow` or `deny`.' }) }) },
    responses: { 303: { description: 'Back to the provider, which answers the client.', headers: LOCATION } },
    failures,
    steps: [renderFailures, http.readBody],
    async handle(ctx, { params, parameters }) {
      const details = await interactionOf(ctx, params.uid);
      if (details.prompt.name !== 'consent' || details.session?.accountId === undefined) throw new InvalidRequestError('This interaction asks for no consent');
      if (parameters.decision === 'deny') return finish(ctx, { error: 'access_denied', error_description: 'The user denied access' });
      const clientId = String(details.params['client_id']);
      const { provider } = await oidc();
      const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session.accountId, clientId });
      if (!grant) throw new InvalidRequestError('The grant of this interaction is gone');
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      // The scopes of a JWT client's own resource (its access tokens as JWTs).
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
      const grantId = await grant.save();
      // The login of this authorization stays its result: it went through /login a moment ago.
      await finish(ctx, { consent: { grantId } }, true);
    },
  });

  return [showInteraction, loginCallback, refused, consent];
}
