/**
 * Why tessera refuses a real Apereo CAS service file: the planned feature or fix it waits for, that it
 * cannot exist here (Groovy, a site's own Java classes, WS-Federation), or that
 * it is broken for Apereo too. Read from the field each problem names and the value the file has there,
 * not from the wording of the message, so that rewording a message changes no classification.
 */

/** The planned features and fixes, in the words of the plan. */
export const PLANNED = {
  principalAttributesRepository: 'DefaultPrincipalAttributesRepository accepted',
  quotedEvaluationOrder: 'quoted integer evaluationOrder',
  requireAllAttributesFalse: 'requireAllAttributes false with no required attributes',
  emptyName: 'empty name',
  usernameAttributeProvider: 'usernameAttributeProvider (principal attribute, anonymous)',
  returnMapped: 'ReturnMappedAttributeReleasePolicy',
  authenticationAttributesFalse: 'authorizedToReleaseAuthenticationAttributes false',
  excludeDefaultAttributes: 'excludeDefaultAttributes',
  attributeFilter: 'attributeFilter regex and mapped regex',
  excludedAttributes: 'excludedAttributes',
  unauthorizedRedirectUrl: 'unauthorizedRedirectUrl',
  rejectedAttributes: 'rejectedAttributes',
  caseInsensitive: 'caseInsensitive',
  timeBased: 'TimeBasedRegisteredServiceAccessStrategy',
  expirationDate: 'expirationPolicy with a date',
  // Apereo's OIDC and OAuth registrations, as its own examples and browser tests write them.
} as const;

export const CANNOT_EXIST = {
  groovy: 'cannot exist here: Groovy',
  customClass: "cannot exist here: a site's own Java class",
  wsFederation: 'cannot exist here: WS-Federation',
  // ReturnRestfulAttributeReleasePolicy: the site's endpoint decides the release at every validation, as a site's own class would.
  siteEndpoint: "cannot exist here: a site's own endpoint deciding the release",
  // CAS 4 registered its OAuth server's own callback as a service; the oidc module needs none.
  oauthCallback: "cannot exist here: CAS 4's own OAuth callback service",
  // A Spring expression (`file:${#environmentVars['PWD']}/...`): a file of the machine Apereo's own tests run on.
  springExpression: 'cannot exist here: a Spring expression naming a file of the machine it was written for',
} as const;

/** A refusal no planned item covers: named by the field, so the next plan can take it up. */
export const notPlanned = (what: string): string => `not planned: ${what}`;
/** Broken for Apereo too, and why. */
export const broken = (why: string): string => `broken file: ${why}`;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const simpleName = (type: unknown): string => (typeof type === 'string' ? (type.split('.').pop() ?? type) : '');
const isApereoClass = (type: unknown): boolean => typeof type === 'string' && /^(org\.apereo\.|org\.jasig\.)/.test(type);

/** Keys of Apereo's OidcRegisteredService tessera does not read (refused as unknown or unsupported), each its own reason. */
const OIDC_CLIENT_KEYS: Readonly<Record<string, string>> = {
  userInfoSigningAlg: notPlanned('userInfoSigningAlg (signed userinfo)'),
  userInfoEncryptedResponseAlg: notPlanned('userInfoEncryptedResponseAlg (encrypted userinfo)'),
  userInfoEncryptedResponseEncoding: notPlanned('userInfoEncryptedResponseAlg (encrypted userinfo)'),
};

/** Why a grant type Apereo's clients name waits, one reason per grant. */
function grantTypeReason(grant: string): string {
  if (grant === 'password') return notPlanned('grant type password');
  if (grant.endsWith(':device_code')) return notPlanned('grant type device_code (the device flow)');
  return notPlanned(`grant type ${grant}`);
}

/** The response types an OpenID Connect client may name here: the code flow, and the implicit and hybrid ones with an ID token. */
const SERVED_RESPONSE_TYPES = new Set(['code', 'id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token', 'none']);

/** Why a response type Apereo's clients name waits. */
function responseTypeReason(type: string): string {
  if (type === 'token') return notPlanned('response type token (the OAuth implicit flow)');
  if (type === 'device_code') return notPlanned('grant type device_code (the device flow)');
  return notPlanned(`response type ${type}`);
}

/** Why a client's `jwks` waits: a Spring expression cannot be read here. */
function jwksReason(value: unknown): string {
  if (typeof value === 'string' && value.includes('${')) return CANNOT_EXIST.springExpression;
  return notPlanned('jwks');
}

/** The value at a dotted field path (`attributeReleasePolicy.attributeFilter`); array indexes as `[n]`. */
function at(definition: unknown, field: string): unknown {
  let value = definition;
  for (const part of field.split('.')) {
    const [name, ...indexes] = part.split(/\[(\d+)\]/).filter(Boolean);
    value = isObject(value) ? value[name ?? ''] : undefined;
    for (const index of indexes) value = Array.isArray(value) ? value[Number(index)] : undefined;
  }
  return value;
}

/** The members of a Java collection as CAS writes it (`["java.util.HashSet", [...]]`) or of a plain list. */
function members(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  if (value.length === 2 && typeof value[0] === 'string' && value[0].startsWith('java.util.') && Array.isArray(value[1])) return value[1] as unknown[];
  return value;
}

/** Any Groovy in the value: a script class, an inline `groovy { }` script or a `.groovy` file. */
function hasGroovy(value: unknown): boolean {
  if (typeof value === 'string') return /^\s*groovy\s*\{|\.groovy$/i.test(value) || (/\./.test(value) && /Groovy|Scripted/.test(simpleName(value)));
  if (Array.isArray(value)) return value.some(hasGroovy);
  if (isObject(value)) return Object.values(value).some(hasGroovy);
  return false;
}

/** The reasons of the whole file, when its class decides them. */
function serviceClassReasons(definition: unknown): string[] | undefined {
  const type = isObject(definition) ? definition['@class'] : undefined;
  const name = simpleName(type);
  if (name === 'WSFederationRegisteredService') return [CANNOT_EXIST.wsFederation];
  // OAuthRegisteredService, OidcRegisteredService and SamlRegisteredService are read, key by key.
  if (name === 'OAuthCallbackAuthorizeService') return [CANNOT_EXIST.oauthCallback];
  if (typeof type === 'string' && !isApereoClass(type) && type.includes('.')) return [CANNOT_EXIST.customClass];
  return undefined;
}

function releasePolicyClassReason(policy: unknown): string[] {
  const type = isObject(policy) ? policy['@class'] : undefined;
  const name = simpleName(type);
  if (hasGroovy(policy)) return [CANNOT_EXIST.groovy];
  if (typeof type === 'string' && !isApereoClass(type)) return [CANNOT_EXIST.customClass];
  if (name === 'ReturnMappedAttributeReleasePolicy') return [PLANNED.returnMapped];
  if (name === 'ReturnRestfulAttributeReleasePolicy') return [CANNOT_EXIST.siteEndpoint];
  return [notPlanned(`attribute release policy ${name}`)];
}

const FILTER_CLASSES = /^RegisteredService(Regex|MappedRegex|ReverseMappedRegex|MutantRegex|Chaining)AttributeFilter$/;

function attributeFilterReason(filter: unknown): string {
  const name = simpleName(isObject(filter) ? filter['@class'] : undefined);
  if (hasGroovy(filter)) return CANNOT_EXIST.groovy;
  if (FILTER_CLASSES.test(name)) return PLANNED.attributeFilter;
  return notPlanned(`attributeFilter ${name}`);
}

function multifactorReason(policy: unknown): string {
  if (hasGroovy(policy)) return CANNOT_EXIST.groovy;
  const providers = members(isObject(policy) ? policy.multifactorAuthenticationProviders : undefined).map(String);
  if (providers.length === 0) return notPlanned('multifactorPolicy naming no provider');
  return notPlanned(`multifactorPolicy ${providers.filter((provider) => provider !== 'mfa-gauth').join(', ')}`);
}

function usernameProviderReason(provider: unknown): string {
  const name = simpleName(isObject(provider) ? provider['@class'] : undefined);
  if (hasGroovy(provider)) return CANNOT_EXIST.groovy;
  if (/^(PrincipalAttribute|Anonymous|Default)RegisteredServiceUsernameProvider$/.test(name)) return PLANNED.usernameAttributeProvider;
  if (!/Username(Attribute)?Provider$/.test(name)) return broken(`usernameAttributeProvider holds a ${name}, which provides no username`);
  return notPlanned(`usernameAttributeProvider ${name}`);
}

function hasRequiredAttributes(strategy: unknown): boolean {
  const required = isObject(strategy) ? strategy.requiredAttributes : undefined;
  return isObject(required) && Object.keys(required).some((key) => key !== '@class');
}

/** The reason of one problem line (`<field>: <problem>`) of a definition, or of a file that did not parse. */
function lineReason(definition: unknown, line: string): string[] {
  if (line.startsWith('not valid JSON')) return [broken('not valid JSON (nor the HJSON Apereo reads)')];
  if (line.startsWith('cannot read it')) return [broken('unreadable')];
  const field = line.slice(0, line.indexOf(':'));
  const problem = line.slice(field.length + 1);
  const value = at(definition, field);
  if (field === '(definition)') return [broken('not a JSON object')];
  if (field === '@class') return [notPlanned(`service class ${simpleName(value)}`)];
  if (Object.hasOwn(OIDC_CLIENT_KEYS, field)) return [OIDC_CLIENT_KEYS[field] ?? notPlanned(field)];
  if (problem.includes('unknown key')) return [broken(`${field} is no Apereo key (Apereo ignores it)`)];
  if (hasGroovy(value)) return [CANNOT_EXIST.groovy];
  if (field === 'evaluationOrder') return [typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? PLANNED.quotedEvaluationOrder : broken('evaluationOrder is not a number')];
  if (field === 'name') return [PLANNED.emptyName];
  if (field === 'serviceId') return [value === undefined ? broken('no serviceId') : broken('serviceId is not a regular expression')];
  if (field === 'clientId' && value === undefined) return [broken('an OAuth client without clientId, which no client can use')];
  if (field === 'supportedGrantTypes' && problem.includes('public client')) return [notPlanned('client_credentials for a client without a secret (a JWT assertion, its method unsaid)')];
  if (field === 'supportedGrantTypes') return [grantTypeReason(/holds "([^"]+)"/.exec(problem)?.[1] ?? String(members(value)[0]))];
  if (field === 'supportedResponseTypes') return [...new Set(members(value).map(String).filter((type) => !SERVED_RESPONSE_TYPES.has(type)).map(responseTypeReason))];
  if (field === 'jwks') return [jwksReason(value)];
  if (field === 'idTokenSigningAlg') return [notPlanned(`idTokenSigningAlg ${String(value)} (the provider's keys sign RS256, ES256, ES384 or ES512)`)];
  if (field.startsWith('properties.accessTokenAsJwt')) return [notPlanned('accessTokenAsJwt* properties as written (a cipher strategy, or a token neither signed nor encrypted)')];
  if (field === 'tokenEndpointAuthenticationMethod') return [notPlanned(`tokenEndpointAuthenticationMethod ${String(value)}${typeof value === 'string' && value.includes('tls_client_auth') ? ' (mutual TLS)' : ''}`)];
  if (field === 'logoutType') return [broken(`logoutType ${String(value)}`)];
  if (field === 'multifactorPolicy' || field.startsWith('multifactorPolicy.')) return [multifactorReason(at(definition, 'multifactorPolicy'))];
  if (field === 'usernameAttributeProvider' || field.startsWith('usernameAttributeProvider.')) return [usernameProviderReason(at(definition, 'usernameAttributeProvider'))];
  if (field === 'usernameAttribute' || field === 'anonymousAccess') return [PLANNED.usernameAttributeProvider];
  if (field === 'expirationPolicy' || field.startsWith('expirationPolicy.')) {
    const policy = at(definition, 'expirationPolicy');
    return [isObject(policy) && typeof policy.expirationDate === 'string' && policy.expirationDate !== '' ? PLANNED.expirationDate : notPlanned('expirationPolicy')];
  }
  // A policy held in a chain: its reasons as if it were the service's own.
  const chained = /^attributeReleasePolicy\.policies\[(\d+)\]\.(.+)$/.exec(field);
  if (chained) {
    const member = members(at(definition, 'attributeReleasePolicy.policies'))[Number(chained[1])];
    return lineReason({ attributeReleasePolicy: member }, `attributeReleasePolicy.${chained[2]}:${problem}`);
  }
  if (field === 'attributeReleasePolicy.@class') return releasePolicyClassReason(at(definition, 'attributeReleasePolicy'));
  if (field.startsWith('attributeReleasePolicy.principalAttributesRepository')) {
    const name = simpleName(at(definition, 'attributeReleasePolicy.principalAttributesRepository.@class'));
    return [name === 'DefaultPrincipalAttributesRepository' ? PLANNED.principalAttributesRepository : notPlanned(`principalAttributesRepository ${name}`)];
  }
  if (field.startsWith('attributeReleasePolicy.attributeFilter')) return [attributeFilterReason(at(definition, 'attributeReleasePolicy.attributeFilter'))];
  if (field === 'attributeReleasePolicy.authorizedToReleaseAuthenticationAttributes') return [PLANNED.authenticationAttributesFalse];
  if (field === 'attributeReleasePolicy.excludeDefaultAttributes') return [PLANNED.excludeDefaultAttributes];
  if (field === 'attributeReleasePolicy.excludedAttributes') return [PLANNED.excludedAttributes];
  if (field === 'accessStrategy.@class') {
    const strategy = at(definition, 'accessStrategy');
    const name = simpleName(isObject(strategy) ? strategy['@class'] : undefined);
    if (name === 'TimeBasedRegisteredServiceAccessStrategy') return [PLANNED.timeBased];
    if (isObject(strategy) && typeof strategy['@class'] === 'string' && !isApereoClass(strategy['@class'])) return [CANNOT_EXIST.customClass];
    return [notPlanned(`access strategy ${name}`)];
  }
  if (field === 'accessStrategy.requireAllAttributes') {
    return [value === false && !hasRequiredAttributes(at(definition, 'accessStrategy')) ? PLANNED.requireAllAttributesFalse : notPlanned('requireAllAttributes false with required attributes')];
  }
  if (field === 'accessStrategy.unauthorizedRedirectUrl') return [PLANNED.unauthorizedRedirectUrl];
  // An SP's metadata kept where tessera does not read it (a database, a plain http URL).
  if ((field === 'metadataLocation' || field === 'metadataSignatureLocation') && typeof value === 'string' && value.includes('${')) return [CANNOT_EXIST.springExpression];
  if (field === 'metadataLocation' && typeof value === 'string' && value.includes('{0}')) return [notPlanned('SAML metadataLocation as a metadata query (MDQ) template')];
  if (field === 'metadataLocation' && typeof value === 'string') return [notPlanned(`SAML metadataLocation ${value.replace(/:.*$/, ':')}`)];
  if (field === 'accessStrategy.rejectedAttributes') return [PLANNED.rejectedAttributes];
  if (field === 'accessStrategy.caseInsensitive') return [PLANNED.caseInsensitive];
  if (field.endsWith('@class') && typeof value === 'string' && !isApereoClass(value) && value.includes('.')) return [CANNOT_EXIST.customClass];
  return [notPlanned(field)];
}

/** Every reason a file is refused for, sorted; none for a file that loads. */
export function refusalReasons(definition: unknown, problems: readonly string[]): string[] {
  if (problems.length === 0) return [];
  const reasons = new Set(serviceClassReasons(definition) ?? problems.flatMap((line) => lineReason(definition, line)));
  return [...reasons].sort();
}
