import { WEBAUTHN_PARAMETERS } from '@tessera/adapter-koa/modules/webauthn';
import { WEBAUTHN_CREDENTIAL_TYPE, WEBAUTHN_SECOND_FACTOR } from '@tessera/core/modules/webauthn';
import type { TesseraModule } from '../module.js';
import { webauthnCommands } from './commands.js';
import { webauthnSections } from './config.js';
import { webauthnEvents } from './events.js';
import { registerWebauthnModule } from './register.js';
import { publicUrlProblems } from './relying-party.js';

/** `webauthn`: security keys and passkeys, as the `mfa-webauthn` second factor and as a login without a password. */
export const webauthnModule: TesseraModule<typeof webauthnSections> = {
  name: 'webauthn',
  comparisonRows: ['WebAuthn'],
  // Its ceremonies run in the browser login's pages.
  dependencies: ['login'],
  sections: webauthnSections,
  events: webauthnEvents,
  // The passkey login: its shown id is the key's credential id, not a username (the throttle then forgets
  // the address's own failures); `hwk`, a key held by an authenticator; SAML 1.1's hardware token.
  credentialKinds: [{ type: WEBAUTHN_CREDENTIAL_TYPE, provesUsername: false, amr: 'hwk', samlAuthenticationMethod: 'urn:oasis:names:tc:SAML:1.0:am:HardwareToken' }],
  secondFactors: [WEBAUTHN_SECOND_FACTOR],
  // The answer on every page of its own; the challenge's id with the passkey button only; the key's name on the registration page only.
  parameters: ({ webauthn }) => [
    { name: WEBAUTHN_PARAMETERS.response, secret: true, credential: true },
    ...(webauthn.passwordless ? [{ name: WEBAUTHN_PARAMETERS.challenge, credential: true }] : []),
    ...(webauthn.selfRegistration ? [{ name: WEBAUTHN_PARAMETERS.deviceName }] : []),
  ],
  problems: (_settings, { server }) => publicUrlProblems(server.publicUrl),
  commands: webauthnCommands,
  register: registerWebauthnModule,
};
