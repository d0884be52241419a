import { InvalidRequestError, TicketValidationError, type CredentialType } from '@tessera/core';
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
}

const HTML = { 'text/html': z.string().meta({ description: 'An HTML page.' }) };
const UID = z.object({ uid: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).meta({ description: "The provider's interaction id." }) });
const LOCATION = z.object({ Location: z.string().meta({ description: 'Where the browser goes on.' }) });

/** The credential types of a login as `amr` values (RFC 8176). */
const AMR: Readonly<Partial<Record<CredentialType, string>>> = { usernamePassword: 'pwd', otp: 'otp', x509: 'mca' };

/** The OIDC callback a login through /login comes back to: registered as a service of its own, so /login grants it an ST. */
export function loginCallbackUrl(issuer: string, uid: string): string {
  return `${issuer}/interaction/${uid}/login`;
}

/** The serviceId of that callback, for every interaction id. */
export function loginCallbackPattern(issuer: string): string {
  return `^${issuer.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/interaction/[A-Za-z0-9_-]{1,64}/login$`;
}

/**
 * The provider's interactions on tessera's session: a login goes through tessera's own /login (its
 * form, throttle, second factors and single sign-on), which comes back to the callback with an ST;
 * a consent asks the user unless the client bypasses it.
 */
export function oidcRoutes(http: HttpContext, deps: OidcRouteDependencies): Route[] {
  const { oidc, pages, issuer, loginUrl } = deps;

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

  const finish = async (ctx: Context, result: Record<string, unknown>) => {
    const { provider } = await oidc();
    const returnTo = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false });
    ctx.status = 303;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(returnTo);
  };

  const showInteraction = defineRoute({
    method: 'get',
    path: '/oidc/interaction/{uid}',
    operationId: 'oidcInteraction',
    summary: 'OpenID Connect: log in through /login, or consent',
    description:
      'Where the provider sends a browser it needs something of. A login goes on to `/login` with this interaction as its service (`renew` when the client asked for a fresh login with `prompt=login` or `max_age`); a consent shows the consent page, unless the client bypasses it.',
    request: { params: UID },
    responses: { 200: { description: 'The consent page.', content: HTML }, 303: { description: 'On to /login.', headers: LOCATION } },
    failures,
    steps: [renderFailures],
    async handle(ctx, { params }) {
      const details = await interactionOf(ctx, params.uid);
      if (details.prompt.name === 'login') {
        const target = new URL(loginUrl);
        target.searchParams.set('service', loginCallbackUrl(issuer, details.uid));
        const reasons = details.prompt.reasons;
        if (details.session?.accountId !== undefined && (reasons.includes('login_prompt') || reasons.includes('max_age'))) target.searchParams.set('renew', 'true');
        ctx.status = 303;
        ctx.set('Cache-Control', 'no-store');
        return ctx.redirect(target.href);
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
    description: 'Validates the ST /login issued for this interaction and finishes the login with its principal; the provider session is then the tessera login session.',
    request: { params: UID, query: z.object({ ticket: optionalText('The ST /login issued for this interaction.') }) },
    responses: { 303: { description: 'Back to the provider, which answers the client.', headers: LOCATION } },
    failures,
    steps: [renderFailures],
    async handle(ctx, { params, query }) {
      const details = await interactionOf(ctx, params.uid);
      if (details.prompt.name !== 'login') throw new InvalidRequestError('This interaction asks for no login');
      const renew = details.session?.accountId !== undefined && (details.prompt.reasons.includes('login_prompt') || details.prompt.reasons.includes('max_age'));
      const validated = await http.core.validateServiceTicket.execute({ ticket: query.ticket, service: loginCallbackUrl(issuer, details.uid), renew, origin: requestOrigin(ctx) });
      const amr = [...new Set(validated.credentialTypes.map((type) => AMR[type] ?? type))];
      // `remember: false`: the provider session's cookie ends with the browser, as the TGC it stands for.
      await finish(ctx, { login: { accountId: validated.user, ts: Math.floor(validated.authenticatedAt / 1000), amr, remember: false }, tessera: { tgt: validated.tgt.id } });
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
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      const grantId = await grant.save();
      await finish(ctx, { consent: { grantId } });
    },
  });

  return [showInteraction, loginCallback, consent];
}
