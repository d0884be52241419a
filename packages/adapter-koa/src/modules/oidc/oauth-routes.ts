import type { RouterContext } from '@koa/router';
import { z } from 'zod';
import type { HttpContext } from '../../http-module.js';
import { optionalText, parameterObject } from '../../request/parameter-schemas.js';
import { defineRoute, type FailureRendering, type Route } from '../../routes/route.js';
import type { AccessTokenProfile, TesseraOidcProvider } from './oidc-provider.js';

export interface OAuthRouteDependencies {
  /** The provider, once its library has loaded (at start). */
  readonly oidc: () => Promise<TesseraOidcProvider>;
}

const JSON_ERROR = z.object({ error: z.string() }).meta({ description: "Apereo's OAuth error: `missing_accessToken` or `expired_accessToken`." });
const PROFILE = z
  .object({
    id: z.string().meta({ description: "The user name the client's service sees (the principal id, unless its usernameAttributeProvider says otherwise)." }),
    client_id: z.string(),
    service: z.string().optional().meta({ description: 'The redirect URI of the authorization the token comes from.' }),
    attributes: z.record(z.string(), z.array(z.string())).optional().meta({ description: "The attributes the client's attributeReleasePolicy releases (NESTED); with `userProfileViewType: FLAT` they stand beside `id` instead." }),
  })
  .catchall(z.unknown());
const failures: FailureRendering = { statusOf: () => 400, response: () => ({ content: { 'application/json': JSON_ERROR } }) };

/** The profile as Apereo lays it out: `id`, `client_id`, `service` and the attributes under `attributes` (NESTED) or beside them (FLAT). */
function profileJson(profile: AccessTokenProfile): Record<string, unknown> {
  const own = { id: profile.id, client_id: profile.clientId, ...(profile.redirectUri !== undefined && { service: profile.redirectUri }) };
  return profile.viewType === 'FLAT' ? { ...profile.attributes, ...own } : { ...own, attributes: profile.attributes };
}

/**
 * Apereo's OAuth 2.0 profile endpoint, `<basePath>/oauth2.0/profile`: who an access token stands for and
 * the attributes its client gets, read through the provider. The token comes as `access_token` or as a
 * Bearer Authorization header.
 */
export function oauthRoutes(http: HttpContext, deps: OAuthRouteDependencies): Route[] {
  const request = {
    parameters: parameterObject({ access_token: optionalText('The access token (a Bearer Authorization header may carry it instead).') }, 'Any other parameter is ignored.'),
    headers: z.object({ authorization: z.string().optional().meta({ description: '`Bearer <access token>`, when the token is not a parameter.' }) }),
  };
  const responses = {
    200: { description: 'The profile.', content: { 'application/json': PROFILE } },
    401: { description: 'No access token (`missing_accessToken`), or one that is unknown, expired, revoked or whose login session has ended (`expired_accessToken`).', content: { 'application/json': JSON_ERROR } },
  };
  const answer = async (ctx: RouterContext, sent: string | undefined, authorization: string | undefined) => {
    ctx.set('Cache-Control', 'no-store');
    const bearer = /^Bearer +(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    const accessToken = sent ?? bearer;
    if (accessToken === undefined) {
      ctx.status = 401;
      ctx.body = { error: 'missing_accessToken' };
      return;
    }
    const profile = await (await deps.oidc()).profileOf(accessToken);
    if (profile === 'missing') {
      ctx.status = 401;
      ctx.body = { error: 'expired_accessToken' };
      return;
    }
    ctx.status = 200;
    ctx.body = profileJson(profile);
  };
  const summary = 'OAuth 2.0: the profile an access token stands for';
  const description = "Apereo CAS's `/oauth2.0/profile`: the user's id and the attributes the client's release policy lets through.";
  return [
    defineRoute({
      method: 'get',
      path: '/oauth2.0/profile',
      operationId: 'oauthProfile',
      summary,
      description,
      request,
      responses,
      failures,
      steps: [],
      handle: (ctx, { parameters, headers }) => answer(ctx, parameters.access_token, headers.authorization),
    }),
    defineRoute({
      method: 'post',
      path: '/oauth2.0/profile',
      operationId: 'oauthProfilePost',
      summary,
      description,
      request,
      responses,
      failures,
      steps: [http.readBody],
      handle: (ctx, { parameters, headers }) => answer(ctx, parameters.access_token, headers.authorization),
    }),
  ];
}
