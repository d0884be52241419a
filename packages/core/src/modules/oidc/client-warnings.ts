import type { KeyWarning } from '../../domain/registry/host-pinning.js';
import type { OidcClientDefinition } from './client-definition.js';

/** The shortest client secret said nothing about: 16 characters, as a generated secret has at least. */
export const CLIENT_SECRET_MIN_LENGTH = 16;

/** The grant and response types a client may list beside others but tessera never serves, and why. */
const UNSERVED: Readonly<Record<string, string>> = {
  password: "the password grant (tessera's users type their password only in its login form)",
  token: "the token response type (OAuth's implicit flow, an access token in the URL the browser goes to)",
};

/**
 * What is said, never refused, about a valid client: a client secret shorter than 16 characters
 * (Apereo's own examples use `secret`: loaded as Apereo loads it, but such a secret can be guessed),
 * and a grant or response type tessera never serves listed beside ones it serves (its requests are
 * refused, the others served).
 */
export function oidcClientWarnings(client: Pick<OidcClientDefinition, 'clientSecret'> & Partial<Pick<OidcClientDefinition, 'supportedGrantTypes' | 'supportedResponseTypes'>>): KeyWarning[] {
  return [...shortSecret(client.clientSecret), ...unserved(client)];
}

function shortSecret(secret: string | undefined): KeyWarning[] {
  if (secret === undefined || secret.length >= CLIENT_SECRET_MIN_LENGTH) return [];
  return [
    {
      field: 'clientSecret',
      text: `its clientSecret has ${secret.length} character(s), fewer than ${CLIENT_SECRET_MIN_LENGTH}: one this short can be guessed by whoever tries the token endpoint; give the client a random clientSecret of at least ${CLIENT_SECRET_MIN_LENGTH} characters (openssl rand -base64 24)`,
    },
  ];
}

function unserved(client: Partial<Pick<OidcClientDefinition, 'supportedGrantTypes' | 'supportedResponseTypes'>>): KeyWarning[] {
  const listed = (field: 'supportedGrantTypes' | 'supportedResponseTypes') => (client[field] ?? []).filter((type) => Object.hasOwn(UNSERVED, type)).map((type) => ({ field, type }));
  return [...listed('supportedGrantTypes'), ...listed('supportedResponseTypes')].map(({ field, type }) => ({
    field,
    text: `its ${field} hold ${type}, ${UNSERVED[type]}, which tessera does not serve: the client's requests for it are refused, its other types are served`,
  }));
}
