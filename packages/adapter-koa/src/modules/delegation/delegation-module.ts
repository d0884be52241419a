import { RouteNotFoundError } from '@tessera/core';
import { allowedProviderIds, DELEGATION_POLICY, DelegationButtonsPrompt, UpstreamFailure, type DelegatedLogin, type UpstreamButton, type UpstreamFailureReason, type UpstreamLogout } from '@tessera/core/modules/delegation';
import type { Context } from 'koa';
import { z } from 'zod';
import type { HttpModule } from '../../http-module.js';
import type { Branding } from '../../pages/branding.js';
import { flag, optionalText, text } from '../../request/parameter-schemas.js';
import { SERVICE } from '../../request/credential-request.js';
import { requestOrigin } from '../../request/request-origin.js';
import { defineRoute } from '../../routes/route.js';
import { DelegationPages, type DelegationPage } from './pages.js';
import { DELEGATION_CALLBACK_PATH, delegationCookie, DELEGATION_LOGOUT_PATH, DELEGATION_PARAMETERS, DELEGATION_SAML2_PATH, DELEGATION_START_PATH, POSTED_AGAIN, PROVIDER_ID, RELAY_STATE, SAML_RESPONSE, SIG_ALG, SIGNATURE } from './parameters.js';
import { delegationButtonsPart } from './views.js';

export interface DelegationModuleOptions {
  /** The configured upstream providers, in order, as their buttons show them. */
  readonly providers: readonly UpstreamButton[];
  readonly login: DelegatedLogin;
  /** The upstreams' logout after tessera's, for the providers with `logout`. */
  readonly logout: UpstreamLogout;
  readonly branding: Branding;
  /** The login pages' language (`login.language`). */
  readonly language: string;
}

const HTML = { 'text/html': z.string() };
const METADATA_TYPE = 'application/samlmetadata+xml';

/** The HTTP status of each failure's page. */
const FAILURE_STATUS: Readonly<Record<UpstreamFailureReason, number>> = { unavailable: 502, refused: 401, invalid: 401, state: 400, user: 403, provider: 403 };

/**
 * The `delegation` module’s part of the HTTP face (docs/modules/delegation.md): the login page's button per
 * upstream provider the service allows (its `delegatedAuthenticationPolicy`), posting the login form
 * to POST /delegation/login, which sends the browser upstream; GET /delegation/callback/{provider},
 * where the upstream sends it back, which posts the login form again with the proof of the user. A
 * failure is a page with the way back, never a half-made session. After a logout at /logout of a
 * session made through a provider with `logout`, the browser goes to the upstream's logout, which
 * sends it back to /delegation/logout (a SAML 2 identity provider with its LogoutResponse, checked), and
 * on to /logout's page (or the service it was to follow).
 */
export function delegationModule(options: DelegationModuleOptions): HttpModule {
  const { login, logout } = options;
  return {
    name: 'delegation',
    routes: (http) => {
      const base = `${http.options.publicUrl ?? ''}${http.options.basePath}`;
      const pages = new DelegationPages(options.branding, options.language, `${http.options.basePath}/login`);
      const callbackUrl = (provider: string) => `${base}${DELEGATION_CALLBACK_PATH}/${encodeURIComponent(provider)}`;
      const logoutReturnUrl = `${base}${DELEGATION_LOGOUT_PATH}`;
      /** Back from an upstream's logout: on to /logout (with the service it kept), or, unconfirmed, the page saying so. */
      const backFromLogout = async (ctx: Context, state: string | undefined, answer: { url: URL; form?: Record<string, string> }) => {
        const left = state === undefined || state === '' ? undefined : await logout.back(state, requestOrigin(ctx), { ...answer, returnUrl: logoutReturnUrl });
        const onward = `${base}/logout${left?.service === undefined ? '' : `?service=${encodeURIComponent(left.service)}`}`;
        if (left?.unconfirmed === true) {
          show(ctx, 200, pages.logoutUnconfirmed(left.service === undefined ? undefined : onward));
          return;
        }
        ctx.status = 302;
        ctx.set('Cache-Control', 'no-store');
        ctx.redirect(onward);
      };
      const cookie = delegationCookie(http.options.publicUrl, http.options.basePath);
      const show = (ctx: Context, status: number, page: DelegationPage) => {
        ctx.status = status;
        ctx.type = 'text/html; charset=utf-8';
        ctx.set('Content-Security-Policy', page.contentSecurityPolicy);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = page.markup;
      };
      const failed = (ctx: Context, error: unknown, service?: string) => {
        if (!(error instanceof UpstreamFailure)) throw error;
        show(ctx, FAILURE_STATUS[error.reason], pages.failed(error.reason, error.service ?? service));
      };
      return [
        defineRoute({
          method: 'post',
          path: DELEGATION_START_PATH,
          operationId: 'delegationStart',
          summary: 'Log in through an upstream identity provider: leave for it',
          description:
            'The login page’s upstream buttons post the login form here with `delegatedProvider`. The provider must be configured and allowed for `service` (its `delegatedAuthenticationPolicy`). The login form (its token, service and options) is kept under a fresh state bound to this browser (the `TDELEGATION` cookie; `__Host-TDELEGATION` over https, so a sibling subdomain cannot plant it), with a nonce and a PKCE verifier, for `delegation.stateSeconds`; the browser goes upstream. Other fields of the form (a password) are not read.',
          request: {
            parameters: z.object({
              [DELEGATION_PARAMETERS.provider]: PROVIDER_ID,
              service: SERVICE,
              renew: flag('Ask for credentials even with a login session; the ticket then counts as from a new login.'),
              method: optionalText('How to send the browser back to the service: `GET` (the default) or `POST`.'),
              formToken: text('The login form’s anti-forgery token, posted again when the user comes back.'),
            }),
          },
          responses: {
            302: { description: 'To the upstream’s login (an OpenID provider’s authorization endpoint, a CAS server’s /login, a SAML 2 identity provider’s single sign-on service with an AuthnRequest over HTTP-Redirect).', headers: z.object({ Location: z.string() }) },
            403: { description: 'The provider is not configured or not allowed for the service: a page with the way back.', content: HTML },
            502: { description: 'The upstream could not be reached (its discovery document): a page with the way back.', content: HTML },
          },
          failures: http.restFailures,
          // A form browsers post, each keeping a login upstream: under the login form's rate per address (throttle.loginForm).
          steps: [...http.formGuards, http.readBody],
          async handle(ctx, { parameters }) {
            const provider = parameters[DELEGATION_PARAMETERS.provider];
            const origin = requestOrigin(ctx);
            const serviceUrl = parameters.service;
            try {
              const service = serviceUrl === undefined ? undefined : await http.core.relyingParties.find(serviceUrl, origin);
              const allowed = allowedProviderIds(options.providers.map(({ id }) => id), service === undefined ? undefined : DELEGATION_POLICY.of(service));
              if (!login.has(provider) || !allowed.includes(provider)) throw new UpstreamFailure('provider', `provider ${provider} is not allowed here`, serviceUrl);
              if (parameters.formToken === undefined || parameters.formToken === '') throw new UpstreamFailure('state', 'the login form came without its token', serviceUrl);
              const browserKey = ctx.cookies.get(cookie.name) ?? login.browserKey();
              // The cookies library refuses a Secure cookie on a request it takes for plain HTTP: the proxy's hop is.
              if (cookie.secure) ctx.cookies.secure = true;
              ctx.cookies.set(cookie.name, browserKey, { httpOnly: true, sameSite: 'lax', secure: cookie.secure, path: cookie.path, overwrite: true });
              const form = {
                formToken: parameters.formToken,
                ...(serviceUrl !== undefined && { service: serviceUrl }),
                ...(parameters.renew && { renew: true as const }),
                ...(parameters.method?.toUpperCase() === 'POST' && { method: 'POST' as const }),
              };
              const url = await login.start(provider, form, browserKey, callbackUrl(provider), origin);
              ctx.status = 302;
              ctx.set('Cache-Control', 'no-store');
              ctx.redirect(url);
            } catch (error) {
              failed(ctx, error, serviceUrl);
            }
          },
        }),
        defineRoute({
          method: 'get',
          path: `${DELEGATION_CALLBACK_PATH}/{provider}`,
          operationId: 'delegationCallback',
          summary: 'Log in through an upstream identity provider: come back from it',
          description:
            'Where an upstream sends the browser back: an OpenID provider with `code`, `state` and `iss` (or `error`), a CAS server with `ticket` on the service URL that carries the `state`. The state is taken once, whatever the answer, and must be this browser’s (its `TDELEGATION` cookie) and this provider’s; the upstream must prove the user (the code exchanged with the PKCE verifier, the ID token verified with its issuer, audience, nonce and lifetime; the CAS ticket validated). Then a page posts the login form the user left back to POST /login with `delegatedLogin`, a one-time proof of the user that only this browser (its cookie) may post, and the login module makes the session as for any login.',
          request: {
            params: z.object({ provider: PROVIDER_ID }),
            query: z.object({
              state: text('The state of the login, as the upstream sends it back.'),
              code: text('OpenID Connect: the authorization code.'),
              iss: text('OpenID Connect: the issuer of the answer (RFC 9207), checked against the provider’s.'),
              error: text('OpenID Connect: the upstream’s error code.'),
              ticket: text('CAS: the upstream’s service ticket.'),
            }),
          },
          responses: {
            200: { description: 'The page posting the login form back with the proof (it submits itself).', content: HTML },
            400: { description: 'No login of this browser waits under the state (unknown, used, expired, another browser’s): a page with the way back.', content: HTML },
            401: { description: 'The upstream answered an error, or an answer that does not check out: a page with the way back.', content: HTML },
            403: { description: 'The upstream proved a user tessera does not take: a page with the way back.', content: HTML },
            502: { description: 'The upstream could not be reached, or not in time: a page with the way back.', content: HTML },
          },
          failures: http.restFailures,
          steps: [],
          async handle(ctx, { params }) {
            const origin = requestOrigin(ctx);
            const callback = new URL(`${callbackUrl(params.provider)}${ctx.search}`);
            try {
              const { form, proofId } = await login.finish(params.provider, callback, ctx.cookies.get(cookie.name), callbackUrl(params.provider), origin);
              show(ctx, 200, pages.continueLogin(form, proofId));
            } catch (error) {
              failed(ctx, error);
            }
          },
        }),
        defineRoute({
          method: 'post',
          path: `${DELEGATION_CALLBACK_PATH}/{provider}`,
          operationId: 'delegationCallbackPost',
          summary: 'Log in through an upstream identity provider: come back from it with a posted answer (SAML 2)',
          description: `Where a SAML 2 identity provider posts its Response (HTTP-POST binding), with the login's state as \`RelayState\`; the body is read up to \`server.maxBodyBytes\` (413 beyond). That post comes from the identity provider's site, so the browser sends no \`SameSite=Lax\` cookie with it: the first post is answered with a page of this server that posts the same fields again with \`${POSTED_AGAIN}\`, which the browser sends with its \`TDELEGATION\` cookie. Then, as for GET: the state is taken once and must be this browser’s and this provider’s; the Response must be signed (the Response or its assertion) by the identity provider, for tessera’s entity id (audience), within its validity (clock skew \`saml2.clockSkewSeconds\`), and in response to the very AuthnRequest this login sent; then a page posts the login form back with the proof. A provider that answers by GET is refused here.`,
          request: {
            params: z.object({ provider: PROVIDER_ID }),
            parameters: z.object({
              [SAML_RESPONSE]: text('SAML 2: the Response, base64 of its XML.'),
              [RELAY_STATE]: text('SAML 2: the state of the login, as the identity provider sends it back.'),
              [POSTED_AGAIN]: flag('Set by this server’s own page that posts the answer again, with the browser’s cookie.'),
            }),
          },
          responses: {
            200: { description: 'The page posting the answer again from this server, or the page posting the login form back with the proof (each submits itself).', content: HTML },
            400: { description: 'No login of this browser waits under the state (unknown, used, expired, another browser’s), or the provider answers by GET: a page with the way back.', content: HTML },
            401: { description: 'The identity provider answered an error, or a Response that does not check out (unsigned, another audience, expired, for another request): a page with the way back.', content: HTML },
            403: { description: 'The identity provider proved a user tessera does not take: a page with the way back.', content: HTML },
          },
          failures: http.restFailures,
          steps: [http.readBody],
          async handle(ctx, { params, parameters }) {
            const origin = requestOrigin(ctx);
            const fields = { [SAML_RESPONSE]: parameters[SAML_RESPONSE] ?? '', [RELAY_STATE]: parameters[RELAY_STATE] ?? '' };
            if (!parameters[POSTED_AGAIN]) {
              show(ctx, 200, pages.postAgain(`${http.options.basePath}${DELEGATION_CALLBACK_PATH}/${encodeURIComponent(params.provider)}`, { ...fields, [POSTED_AGAIN]: 'true' }));
              return;
            }
            try {
              const { form, proofId } = await login.finish(params.provider, new URL(callbackUrl(params.provider)), ctx.cookies.get(cookie.name), callbackUrl(params.provider), origin, fields);
              show(ctx, 200, pages.continueLogin(form, proofId));
            } catch (error) {
              failed(ctx, error);
            }
          },
        }),
        defineRoute({
          method: 'get',
          path: `${DELEGATION_SAML2_PATH}/{provider}/metadata`,
          operationId: 'delegationSaml2Metadata',
          summary: 'Log in through an upstream SAML 2 identity provider: tessera’s service-provider metadata',
          description:
            'The EntityDescriptor the identity provider is configured with to know tessera: its entity id (`saml2.spEntityId`), the AssertionConsumerService (this provider’s callback, HTTP-POST), with `logout` on the SingleLogoutService (`/delegation/logout`, HTTP-POST; HTTP-Redirect is taken there too), the NameID format asked, whether AuthnRequests are signed and the signing certificate. 404 for a provider that is not a SAML 2 one.',
          request: { params: z.object({ provider: PROVIDER_ID }) },
          responses: {
            200: { description: 'The metadata.', content: { [METADATA_TYPE]: z.string().meta({ description: 'A SAML 2.0 EntityDescriptor.' }) } },
          },
          failures: http.restFailures,
          steps: [],
          handle(ctx, { params }) {
            const metadata = login.serviceProviderMetadata(params.provider, callbackUrl(params.provider), logoutReturnUrl);
            if (metadata === undefined) throw new RouteNotFoundError();
            ctx.status = 200;
            ctx.type = METADATA_TYPE;
            ctx.body = metadata;
            return Promise.resolve();
          },
        }),
        defineRoute({
          method: 'get',
          path: DELEGATION_LOGOUT_PATH,
          operationId: 'delegationLogoutReturn',
          summary: 'Log out of an upstream identity provider: come back from it',
          description:
            'Where an upstream sends the browser back from its logout (an OpenID provider’s `post_logout_redirect_uri`, a CAS server’s logout `service`, a SAML 2 identity provider’s LogoutResponse over HTTP-Redirect), after a logout at /logout of a session made through a provider with `logout`. The `state` (SAML 2: the `RelayState`) is taken once; the browser goes on to /logout, with the `service` the logout was to follow when the state kept one, which shows the logged-out page or follows the service. A SAML 2 LogoutResponse must be signed by the identity provider (`Signature` over the query), answer the LogoutRequest sent with that state, be sent to this server (its `Destination`, when it has one), and say Success; one that does not is a page saying the identity provider did not confirm the logout (audited). An unknown, used or expired state goes to /logout alone. tessera’s session ended before the browser left.',
          request: {
            query: z.object({
              state: text('The state of the logout, as the upstream sends it back.'),
              [SAML_RESPONSE]: text('SAML 2: the LogoutResponse (DEFLATE, base64).'),
              [RELAY_STATE]: text('SAML 2: the state of the logout.'),
              [SIG_ALG]: text('SAML 2: the algorithm of the query’s signature.'),
              [SIGNATURE]: text('SAML 2: the identity provider’s signature over the query.'),
            }),
          },
          responses: {
            200: { description: 'A SAML 2 LogoutResponse that does not confirm the logout: the logged-out page, saying so.', content: HTML },
            302: { description: 'On to /logout (with the `service` the logout was to follow).', headers: z.object({ Location: z.string() }) },
          },
          failures: http.restFailures,
          steps: [],
          async handle(ctx, { query }) {
            await backFromLogout(ctx, query[SAML_RESPONSE] === undefined ? query.state : query[RELAY_STATE], { url: new URL(`${logoutReturnUrl}${ctx.search}`) });
          },
        }),
        defineRoute({
          method: 'post',
          path: DELEGATION_LOGOUT_PATH,
          operationId: 'delegationLogoutReturnPost',
          summary: 'Log out of an upstream identity provider: come back from it with a posted answer (SAML 2)',
          description:
            'Where a SAML 2 identity provider posts its LogoutResponse (HTTP-POST binding, tessera’s SingleLogoutService in its metadata), with the logout’s state as `RelayState`; the body is read up to `server.maxBodyBytes` (413 beyond). The state is taken once; the LogoutResponse must be signed by the identity provider, answer the LogoutRequest sent with that state, be sent to this server (its `Destination`, when it has one), and say Success: then on to /logout as for GET; otherwise a page saying the identity provider did not confirm the logout (audited). tessera’s session ended before the browser left.',
          request: {
            parameters: z.object({
              [SAML_RESPONSE]: text('SAML 2: the LogoutResponse, base64 of its XML.'),
              [RELAY_STATE]: text('SAML 2: the state of the logout.'),
            }),
          },
          responses: {
            200: { description: 'A LogoutResponse that does not confirm the logout: the logged-out page, saying so.', content: HTML },
            302: { description: 'On to /logout (with the `service` the logout was to follow).', headers: z.object({ Location: z.string() }) },
          },
          failures: http.restFailures,
          steps: [http.readBody],
          async handle(ctx, { parameters }) {
            await backFromLogout(ctx, parameters[RELAY_STATE], { url: new URL(logoutReturnUrl), form: { [SAML_RESPONSE]: parameters[SAML_RESPONSE] ?? '' } });
          },
        }),
      ];
    },
    extensions: (http) => {
      const returnUrl = `${http.options.publicUrl ?? ''}${http.options.basePath}${DELEGATION_LOGOUT_PATH}`;
      return {
        loginPrompts: [delegationButtonsPart(new DelegationButtonsPrompt(options.providers), `${http.options.basePath}${DELEGATION_START_PATH}`)],
        afterLogout: {
          async before(ctx, tgtId) {
            const origin = requestOrigin(ctx);
            const kept = await logout.keptFor(tgtId, origin);
            return kept === undefined ? undefined : (next) => logout.leave(kept, next, returnUrl, origin);
          },
        },
      };
    },
  };
}
