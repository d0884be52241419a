import type { KeyWarning } from '../../domain/registry/host-pinning.js';
import { isSharedSecretJwks, type OidcClientDefinition } from './client-definition.js';

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
export function oidcClientWarnings(
  client: Pick<OidcClientDefinition, 'clientSecret'> & Partial<Pick<OidcClientDefinition, 'supportedGrantTypes' | 'supportedResponseTypes' | 'jwks' | 'idTokenIssuer'>>,
): KeyWarning[] {
  const sharedSecret = client.jwks !== undefined && isSharedSecretJwks(client.jwks) ? client.jwks : undefined;
  return [...shortSecret('clientSecret', client.clientSecret), ...shortSecret('jwks', sharedSecret), ...unserved(client), ...ownIssuer(client.idTokenIssuer)];
}

function shortSecret(field: 'clientSecret' | 'jwks', secret: string | undefined): KeyWarning[] {
  if (secret === undefined || secret.length >= CLIENT_SECRET_MIN_LENGTH) return [];
  const what = field === 'clientSecret' ? 'its clientSecret' : 'the shared secret of its jwks';
  return [
    {
      field,
      text: `${what} has ${secret.length} character(s), fewer than ${CLIENT_SECRET_MIN_LENGTH}: one this short can be guessed by whoever tries the token endpoint; give the client a random ${field} of at least ${CLIENT_SECRET_MIN_LENGTH} characters (openssl rand -base64 24)`,
    },
  ];
}

/**
 * Apereo's idTokenIssuer names another issuer than the provider's: tessera's ID tokens name the one
 * discovery publishes, which the client's library compares with (OIDC Core 3.1.3.7), never a client's own.
 */
function ownIssuer(issuer: string | undefined): KeyWarning[] {
  if (issuer === undefined) return [];
  return [
    {
      field: 'idTokenIssuer',
      text: `its idTokenIssuer (${issuer}) is not used: its ID tokens name the provider's issuer, server.publicUrl + server.basePath + /oidc, as discovery publishes it; a client set to expect ${issuer} refuses them until it is set to that issuer`,
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
