/**
 * Every text the login pages show. `{name}` placeholders are filled in (escaped, in bold) by the
 * pages. A language is one more object of this type in MESSAGES, chosen by `login.language`.
 */
export interface Messages {
  readonly language: string;
  readonly loginHeading: string;
  readonly loginForService: string;
  /** The link to the relying party's `informationUrl`. */
  readonly serviceInformation: string;
  /** The link to the relying party's `privacyUrl`. */
  readonly servicePrivacy: string;
  readonly renewNotice: string;
  readonly username: string;
  readonly password: string;
  readonly warn: string;
  readonly submit: string;
  readonly loginFailed: string;
  readonly formExpired: string;
  readonly throttled: string;
  readonly rateLimited: string;
  readonly signedInHeading: string;
  readonly signedIn: string;
  readonly logOut: string;
  readonly confirmHeading: string;
  readonly confirm: string;
  readonly continue: string;
  readonly redirectHeading: string;
  readonly redirect: string;
  readonly deniedHeading: string;
  readonly denied: string;
  readonly unknownServiceHeading: string;
  readonly unknownService: string;
  readonly badRequestHeading: string;
  readonly badRequest: string;
  readonly unavailableHeading: string;
  readonly unavailable: string;
  readonly errorHeading: string;
  readonly error: string;
  readonly loggedOutHeading: string;
  readonly loggedOut: string;
  /** The choice among several second factors a service accepts: its heading, what it says, its legend and button. */
  readonly factorChoiceHeading: string;
  readonly factorChoice: string;
  readonly factorChoiceLegend: string;
  readonly factorChoiceSubmit: string;
}

const en: Messages = {
  language: 'en',
  loginHeading: 'Log in',
  loginForService: 'Log in to continue to {service}.',
  serviceInformation: 'About this application',
  servicePrivacy: 'Privacy policy',
  renewNotice: 'You are logged in as {principal}; this application asks you to log in again.',
  username: 'Username',
  password: 'Password',
  warn: 'Warn me before logging me in to other sites',
  submit: 'Log in',
  loginFailed: 'The username, password or one-time code is not right. Please try again.',
  formExpired: 'The login form expired or was sent twice. Please log in again.',
  throttled: 'Too many failed attempts. Please wait a while before you try again.',
  rateLimited: 'Too many attempts from your network. Please wait a while before you try again.',
  signedInHeading: 'You are logged in',
  signedIn: 'You are logged in as {principal}. Applications that use this login service will not ask for your password again until you log out.',
  logOut: 'Log out',
  confirmHeading: 'Continue to the application?',
  confirm: 'You are about to be logged in to {service} as {principal}.',
  continue: 'Continue',
  redirectHeading: 'Taking you back',
  redirect: 'If nothing happens, press Continue.',
  deniedHeading: 'Access denied',
  denied: 'You are logged in as {principal}, but you are not allowed to use {service}.',
  unknownServiceHeading: 'Application not recognised',
  unknownService: 'The application that sent you here is not registered with this login service, so you cannot log in to it here.',
  badRequestHeading: 'Request not understood',
  badRequest: 'The login service could not read this request.',
  unavailableHeading: 'Please try again later',
  unavailable: 'The login service cannot reach a service it depends on right now.',
  errorHeading: 'Something went wrong',
  error: 'The login service could not complete the request. Please try again later.',
  loggedOutHeading: 'You are logged out',
  loggedOut: 'You have been logged out of the login service. For your security, close your browser when you are done.',
  factorChoiceHeading: 'Confirm it is you',
  factorChoice: 'This service asks for a second factor. You have more than one set up: choose the one to use now.',
  factorChoiceLegend: 'Use',
  factorChoiceSubmit: 'Continue',
};

/** The languages of the login pages, by `login.language`. */
export const MESSAGES = { en } as const satisfies Readonly<Record<string, Messages>>;

export type LoginLanguage = keyof typeof MESSAGES;
export const LOGIN_LANGUAGES = Object.keys(MESSAGES) as LoginLanguage[];
