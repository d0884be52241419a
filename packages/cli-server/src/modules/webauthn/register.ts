import { browserLibrary, webAuthnExtractor, webAuthnModule } from '@tessera/adapter-koa/modules/webauthn';
import { PasskeyChallenges, PasskeyHandler, WebAuthnCeremonies, WebAuthnDevices, WebAuthnSecondFactor } from '@tessera/core/modules/webauthn';
import { key, KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';
import type { webauthnSections } from './config.js';
import { relyingPartyOf } from './relying-party.js';

const CEREMONIES = key<WebAuthnCeremonies>('webauthn: ceremonies');
const CHALLENGES = key<PasskeyChallenges>('webauthn: passkey challenges');

/** The name a WebAuthn proof is recorded under (the authentication's successful handlers). */
const HANDLER_NAME = 'webauthn';

/**
 * `webauthn`: the users' devices and the passkey challenges (its own namespaces of the storage's
 * records), the ceremonies for the relying party of `server.publicUrl`, the `mfa-webauthn` second
 * factor, the passkey's extractor and handler (the login page's button posts it, read wherever
 * credentials are), and its prompts with their views (the button, the second factor's page, the
 * registration page) and the browser library they load.
 */
export const registerWebauthnModule: ModuleRegistration<typeof webauthnSections> = (binder, { webauthn }, { server }) => {
  const relyingParty = relyingPartyOf(server.publicUrl ?? '', webauthn.relyingPartyName);
  // Read when the binding is built: a package installed without its bundle stops the start.
  const library = browserLibrary();
  binder.resolved(CEREMONIES, [KEYS.RecordStores, KEYS.RandomSource, KEYS.Clock, KEYS.EventSink], (records, random, clock, events) => {
    const settings = { relyingParty, challengeSeconds: webauthn.challengeSeconds, userVerification: webauthn.userVerification };
    return new WebAuthnCeremonies(settings, new WebAuthnDevices(records, random, clock), random, clock, events);
  });
  binder.resolved(CHALLENGES, [KEYS.RecordStores, KEYS.RandomSource, KEYS.Clock], (records, random, clock) => new PasskeyChallenges(records, random, clock, webauthn.challengeSeconds));
  binder.resolved(KEYS.SecondFactorProvider, [CEREMONIES], (ceremonies) => new WebAuthnSecondFactor(ceremonies.devices));
  if (webauthn.passwordless) {
    binder.constant(KEYS.CredentialExtractor, webAuthnExtractor());
    binder.resolved(KEYS.CredentialHandler, [CEREMONIES, CHALLENGES, KEYS.UserDirectory], (ceremonies, challenges, directory) => new PasskeyHandler(HANDLER_NAME, ceremonies, challenges, directory));
  }
  binder.resolved(KEYS.HttpModule, [CEREMONIES, CHALLENGES, KEYS.Clock, KEYS.EventSink], (ceremonies, challenges, clock, events) =>
    webAuthnModule({
      ceremonies,
      challenges,
      library,
      handlerName: HANDLER_NAME,
      passwordless: webauthn.passwordless,
      selfRegistration: webauthn.selfRegistration,
      maxDevicesPerUser: webauthn.maxDevicesPerUser,
      clock,
      events,
    }),
  );
};
