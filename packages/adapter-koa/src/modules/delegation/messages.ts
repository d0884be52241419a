import type { UpstreamFailureReason } from '@tessera/core/modules/delegation';

/** The delegation module's texts on the login pages, by the pages' language (`login.language`). */
export interface DelegationMessages {
  /** Above the buttons. */
  readonly intro: string;
  /** A button's label before the provider's title. */
  readonly logInWith: string;
  /** Shown while an exclusive provider's page opens. */
  readonly redirecting: string;
  readonly continueHeading: string;
  readonly continueIntro: string;
  readonly continueButton: string;
  readonly failedHeading: string;
  readonly backToLogin: string;
  /** Why a login through an upstream failed, as the user reads it. */
  readonly failed: Readonly<Record<UpstreamFailureReason, string>>;
  readonly loggedOutHeading: string;
  /** Back from an upstream's logout it did not confirm: tessera's session ended all the same. */
  readonly logoutUnconfirmed: string;
  /** The link on to the service the logout was to follow. */
  readonly continueToService: string;
}

const en: DelegationMessages = {
  intro: 'Or log in with another account:',
  logInWith: 'Log in with',
  redirecting: 'Taking you to the login page of your identity provider…',
  continueHeading: 'Logging you in',
  continueIntro: 'Your identity provider has confirmed who you are.',
  continueButton: 'Continue',
  failedHeading: 'The login did not succeed',
  backToLogin: 'Back to the login page',
  failed: {
    unavailable: 'Your identity provider could not be reached, or did not answer in time. Try again later, or log in another way.',
    refused: 'Your identity provider did not confirm who you are (the login was cancelled or refused). Try again, or log in another way.',
    invalid: 'The answer of your identity provider could not be trusted, so you are not logged in. Try again, or log in another way.',
    state: 'This login has expired, was already used, or was started in another browser. Start again from the login page.',
    user: 'Your identity provider confirmed who you are, but that account cannot log in here. Log in another way.',
    provider: 'This way of logging in is not offered for this application. Log in another way.',
  },
  loggedOutHeading: 'You are logged out',
  logoutUnconfirmed: 'You are logged out of this server. Your identity provider did not confirm that it ended your session there too: close your browser to be sure.',
  continueToService: 'Continue to the application',
};

const fr: DelegationMessages = {
  intro: 'Ou connectez-vous avec un autre compte :',
  logInWith: 'Se connecter avec',
  redirecting: 'Redirection vers la page de connexion de votre fournisseur d’identité…',
  continueHeading: 'Connexion en cours',
  continueIntro: 'Votre fournisseur d’identité a confirmé qui vous êtes.',
  continueButton: 'Continuer',
  failedHeading: 'La connexion n’a pas abouti',
  backToLogin: 'Retour à la page de connexion',
  failed: {
    unavailable: 'Votre fournisseur d’identité est injoignable ou n’a pas répondu à temps. Réessayez plus tard, ou connectez-vous autrement.',
    refused: 'Votre fournisseur d’identité n’a pas confirmé qui vous êtes (connexion annulée ou refusée). Réessayez, ou connectez-vous autrement.',
    invalid: 'La réponse de votre fournisseur d’identité n’est pas fiable : vous n’êtes pas connecté. Réessayez, ou connectez-vous autrement.',
    state: 'Cette connexion a expiré, a déjà servi, ou a commencé dans un autre navigateur. Recommencez depuis la page de connexion.',
    user: 'Votre fournisseur d’identité a confirmé qui vous êtes, mais ce compte ne peut pas se connecter ici. Connectez-vous autrement.',
    provider: 'Ce moyen de connexion n’est pas proposé pour cette application. Connectez-vous autrement.',
  },
  loggedOutHeading: 'Vous êtes déconnecté',
  logoutUnconfirmed: 'Vous êtes déconnecté de ce serveur. Votre fournisseur d’identité n’a pas confirmé avoir aussi fermé votre session chez lui : fermez votre navigateur pour en être sûr.',
  continueToService: 'Continuer vers l’application',
};

export const DELEGATION_MESSAGES: Readonly<Record<string, DelegationMessages>> = { en, fr };

/** The texts in `language`, else in English. */
export function delegationMessages(language: string): DelegationMessages {
  return DELEGATION_MESSAGES[language] ?? en;
}
