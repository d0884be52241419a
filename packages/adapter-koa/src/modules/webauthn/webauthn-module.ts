import type { Clock, EventSink } from '@tessera/core';
import { PasskeyButtonPrompt, WebAuthnPrompt, WebAuthnRegistrationPrompt, type PasskeyChallenges, type WebAuthnCeremonies } from '@tessera/core/modules/webauthn';
import { z } from 'zod';
import type { HttpModule } from '../../http-module.js';
import { defineRoute } from '../../routes/route.js';
import { BROWSER_LIBRARY_PATH, libraryScript, type BrowserLibrary } from './browser-library.js';
import { passkeyButtonPart, webAuthnRegistrationStep, webAuthnStep } from './views.js';

export interface WebAuthnModuleOptions {
  readonly ceremonies: WebAuthnCeremonies;
  readonly challenges: PasskeyChallenges;
  readonly library: BrowserLibrary;
  /** The handler name a login's factor is recorded under. */
  readonly handlerName: string;
  /** The login page's passkey button (`webauthn.passwordless`). */
  readonly passwordless: boolean;
  readonly selfRegistration: boolean;
  readonly maxDevicesPerUser: number;
  readonly clock: Clock;
  readonly events: EventSink;
}

/**
 * The `webauthn` module's part of the HTTP face: `@simplewebauthn/browser` served as a static file
 * (GET /webauthn/simplewebauthn-browser.js), which its pages load by URL and integrity; its prompts with
 * their views: the passkey button on the login page, the security key a service asks after the
 * password (`mfa-webauthn`), and the registration of one (self-registration).
 */
export function webAuthnModule(options: WebAuthnModuleOptions): HttpModule {
  const { ceremonies, library } = options;
  return {
    name: 'webauthn',
    routes: (http) => [
      defineRoute({
        method: 'get',
        path: BROWSER_LIBRARY_PATH,
        operationId: 'webauthnBrowserLibrary',
        summary: 'The WebAuthn browser library the login pages load',
        description:
          "`@simplewebauthn/browser`'s bundle, as the installed package ships it. The login pages load it by its absolute URL under `server.publicUrl`, with its Subresource Integrity digest, their Content-Security-Policy allowing that URL alone. Revalidated on every use (`ETag`).",
        request: {},
        responses: {
          200: { description: 'The script.', content: { 'text/javascript': z.string() } },
          304: { description: 'The script the browser holds (`If-None-Match`) is still the one served.' },
        },
        failures: http.restFailures,
        steps: [],
        handle(ctx) {
          ctx.set('ETag', library.etag);
          ctx.set('Cache-Control', 'no-cache');
          ctx.set('X-Content-Type-Options', 'nosniff');
          if (ctx.get('If-None-Match') === library.etag) {
            ctx.status = 304;
            return Promise.resolve();
          }
          ctx.status = 200;
          ctx.type = 'text/javascript; charset=utf-8';
          ctx.body = library.source;
          return Promise.resolve();
        },
      }),
    ],
    extensions: (http) => {
      const script = libraryScript(library, `${http.options.publicUrl ?? ''}${http.options.basePath}`);
      const registration = new WebAuthnRegistrationPrompt(
        ceremonies,
        http.core.secondFactor,
        { selfRegistration: options.selfRegistration, maxDevicesPerUser: options.maxDevicesPerUser },
        options.handlerName,
        options.clock,
        options.events,
      );
      return {
        loginPrompts: [
          ...(options.passwordless ? [passkeyButtonPart(new PasskeyButtonPrompt(ceremonies, options.challenges), script)] : []),
          webAuthnStep(new WebAuthnPrompt(ceremonies, options.handlerName), script),
          ...(options.selfRegistration ? [webAuthnRegistrationStep(registration, script)] : []),
        ],
      };
    },
  };
}
