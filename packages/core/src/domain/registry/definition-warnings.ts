import type { ServiceDefinitionProblem } from '../errors.js';
import { releasePolicyWarnings } from '../../service-policies/release-settings.js';
import { serviceWarningLabel, unpinnedHosts, type KeyWarning } from './host-pinning.js';
import type { OidcClientDefinition, ServiceDefinition } from './registered-service.js';

/** The shortest client secret said nothing about: 16 characters, as a generated secret has at least. */
export const CLIENT_SECRET_MIN_LENGTH = 16;

type Warned = Pick<ServiceDefinition, 'id' | 'name' | 'serviceId' | 'proxyPolicy' | 'attributeRelease'> & {
  readonly oidc?: Pick<OidcClientDefinition, 'clientSecret'> & Partial<Pick<OidcClientDefinition, 'supportedGrantTypes' | 'supportedResponseTypes'>>;
};

/** The grant and response types a client may list beside others but tessera never serves, and why. */
const UNSERVED: Readonly<Record<string, string>> = {
  password: "the password grant (tessera's users type their password only in its login form)",
  token: "the token response type (OAuth's implicit flow, an access token in the URL the browser goes to)",
};

/**
 * What is said, never refused, about a valid definition, by key: a name left empty (CAS loads it, and
 * the name is only shown to people, but lists and logs then cannot tell the service by it), URL patterns
 * whose host is not pinned (unpinnedHosts), release policy settings that change nothing here
 * (releasePolicyWarnings), and a client secret shorter than 16 characters (Apereo's own examples use
 * `secret`: loaded as Apereo loads it, but such a secret can be guessed), and a grant or response type
 * tessera never serves listed beside ones it serves (its requests are refused, the others served).
 */
export function definitionWarnings(service: Warned): KeyWarning[] {
  const unnamed = service.name.trim() === '' ? [{ field: 'name', text: 'has no name; give it one to tell it apart in lists and logs' }] : [];
  const release = releasePolicyWarnings(service.attributeRelease).map((text) => ({ field: 'attributeReleasePolicy', text }));
  return [...unnamed, ...unpinnedHosts(service), ...release, ...shortSecret(service), ...unserved(service)];
}

/** definitionWarnings, each a line naming the service. */
export function serviceDefinitionWarnings(service: Warned): string[] {
  return definitionWarnings(service).map(({ field, text }) =>
    field === 'name' ? `the service ${service.id === undefined ? `of serviceId ${service.serviceId}` : `of id ${service.id}`} ${text}` : `${serviceWarningLabel(service)}: ${text}`,
  );
}

/**
 * The warnings of a definition as the problems that refuse it where warnings are refusals (the
 * `strictServices` setting, `tessera services validate --strict`).
 */
export function strictServiceProblems(service: Warned): ServiceDefinitionProblem[] {
  return definitionWarnings(service).map(({ field, text }) => ({ field, problem: `${text} (refused in strict mode)` }));
}

function shortSecret({ oidc }: Warned): KeyWarning[] {
  const secret = oidc?.clientSecret;
  if (secret === undefined || secret.length >= CLIENT_SECRET_MIN_LENGTH) return [];
  return [
    {
      field: 'clientSecret',
      text: `its clientSecret has ${secret.length} character(s), fewer than ${CLIENT_SECRET_MIN_LENGTH}: one this short can be guessed by whoever tries the token endpoint; give the client a random clientSecret of at least ${CLIENT_SECRET_MIN_LENGTH} characters (openssl rand -base64 24)`,
    },
  ];
}

function unserved({ oidc }: Warned): KeyWarning[] {
  const listed = (field: 'supportedGrantTypes' | 'supportedResponseTypes') => (oidc?.[field] ?? []).filter((type) => Object.hasOwn(UNSERVED, type)).map((type) => ({ field, type }));
  return [...listed('supportedGrantTypes'), ...listed('supportedResponseTypes')].map(({ field, type }) => ({
    field,
    text: `its ${field} hold ${type}, ${UNSERVED[type]}, which tessera does not serve: the client's requests for it are refused, its other types are served`,
  }));
}
