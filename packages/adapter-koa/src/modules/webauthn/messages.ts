/** The webauthn module's texts on the login pages, by the pages' language (`login.language`). */
export interface WebAuthnMessages {
  readonly passkeyButton: string;
  readonly passkeyFailed: string;
  readonly stepHeading: string;
  readonly stepIntro: string;
  readonly stepSubmit: string;
  readonly refused: string;
  readonly ceremonyFailed: string;
  readonly registerHeading: string;
  readonly registerIntro: string;
  readonly deviceName: string;
  readonly deviceNameHint: string;
  readonly registerSubmit: string;
}

const en: WebAuthnMessages = {
  passkeyButton: 'Log in with a passkey',
  passkeyFailed: 'No passkey was used. Try again, or log in with your password.',
  stepHeading: 'Security key',
  stepIntro: 'This service asks for a second factor: use your security key or passkey.',
  stepSubmit: 'Use my security key',
  refused: 'That security key or passkey was not accepted. Try again, or use another one.',
  ceremonyFailed: 'No security key or passkey was used. Try again.',
  registerHeading: 'Register a security key',
  registerIntro: 'This service asks for a second factor, and your account has none yet: register a security key or passkey now. You will use it to log in from now on.',
  deviceName: 'Name of the key',
  deviceNameHint: 'Optional: a name that tells it apart from your other keys, such as “Blue USB key”.',
  registerSubmit: 'Register my security key',
};

export const WEBAUTHN_MESSAGES: Readonly<Record<string, WebAuthnMessages>> = { en };

/** The texts in `language`, else in English. */
export function webAuthnMessages(language: string): WebAuthnMessages {
  return WEBAUTHN_MESSAGES[language] ?? en;
}
