import type { EventSink } from '@tessera/core';
import { z } from 'zod';
import type { HttpModule } from '../../http-module.js';
import { reportServerError } from '../../errors/report.js';
import { UNEXPECTED_ERROR_STATUS } from '../../errors/error-status.js';
import { defineRoute, type FailureRendering, type Route, type Step } from '../../routes/route.js';
import { IDP_PATHS } from './metadata.js';
import { sloRoutes, type SamlSloDependencies } from './slo-routes.js';
import { ssoRoutes, type SamlSsoDependencies } from './sso-routes.js';

export interface Saml2ModuleOptions {
  /** The IdP's metadata document, as it is now (its keys may load at start). */
  readonly metadata: () => Promise<string>;
  /** What the single sign-on endpoints answer with. */
  readonly sso: SamlSsoDependencies;
  /** What the single logout endpoints answer with. */
  readonly slo: SamlSloDependencies;
}

const METADATA_TYPE = 'application/samlmetadata+xml';
const TEXT = { 'text/plain': z.string().meta({ description: 'What went wrong.' }) };

/**
 * The `saml2` module's routes (docs/modules/saml2.md): the IdP metadata, which SPs are configured with,
 * single sign-on over HTTP-Redirect, HTTP-POST and IdP-initiated, through /login, and single logout an SP starts.
 */
export function saml2Module(options: Saml2ModuleOptions): HttpModule {
  return { name: 'saml2', routes: (http) => [metadataRoute(options, http.events), ...ssoRoutes(http, options.sso), ...sloRoutes(http, options.slo)] };
}

function metadataRoute(options: Saml2ModuleOptions, events: EventSink): Route {
  const failures: FailureRendering = { statusOf: () => UNEXPECTED_ERROR_STATUS, response: () => ({ content: TEXT }) };
  const plainFailures: Step = async function renderMetadataFailures(ctx, next) {
    try {
      await next();
    } catch (thrown) {
      reportServerError(events, thrown, ctx);
      ctx.status = UNEXPECTED_ERROR_STATUS;
      ctx.type = 'text/plain';
      ctx.body = 'The metadata cannot be made now; try again later.\n';
    }
  };
  return defineRoute({
    method: 'get',
    path: IDP_PATHS.metadata,
    operationId: 'saml2IdpMetadata',
    summary: "SAML 2.0: the identity provider's metadata",
    description:
      'The EntityDescriptor SPs are configured with: the entity id, every published signing and encryption certificate (during a rotation the next or previous one too), the single sign-on and logout endpoints over HTTP-Redirect and HTTP-POST, the NameID formats. Signed when `saml2.signMetadata` is on.',
    request: {},
    responses: { 200: { description: 'The metadata.', content: { [METADATA_TYPE]: z.string().meta({ description: 'A SAML 2.0 EntityDescriptor.' }) } } },
    failures,
    steps: [plainFailures],
    async handle(ctx) {
      const xml = await options.metadata();
      ctx.status = 200;
      ctx.type = METADATA_TYPE;
      ctx.body = xml;
    },
  });
}
