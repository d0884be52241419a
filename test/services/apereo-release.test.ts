import { expect } from 'chai';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { persistentId, systemClock } from '@tessera/core';
import { CasJwtCodec, verifyJwtServiceTicket, type TokenKeyPair } from '@tessera/core/modules/tokens';
import { describeWithRedis } from '@tessera/testkit/redis';
import { baseConfig, login, serviceTicket, startTessera, type Tessera } from '../support/tessera.js';

const CAS = 'org.apereo.cas.services';
const SUPPORT = `${CAS}.support`;
const SALT = 'the salt of this deployment';
const AUTHENTICATION_ATTRIBUTES = ['authenticationDate', 'isFromNewLogin'];

type Attributes = Record<string, readonly string[]>;

/** One service under test: its release policy and username provider as an Apereo file writes them, and what it must be told about casuser. */
interface Case {
  readonly host: string;
  readonly title: string;
  readonly attributeReleasePolicy: Record<string, unknown>;
  readonly usernameAttributeProvider?: Record<string, unknown>;
  /** The principal attributes released (the authentication's aside). */
  readonly released: Attributes;
  /** Whether isFromNewLogin and authenticationDate come with them in validation answers. */
  readonly authentication: boolean;
  /** The user the service sees, given its URL. */
  readonly user: (url: string) => string;
}

const casuser = () => 'casuser';
const mapped = (pairs: Record<string, string | string[]>) => ({ '@class': 'java.util.TreeMap', ...Object.fromEntries(Object.entries(pairs).map(([name, as]) => [name, Array.isArray(as) ? ['java.util.ArrayList', as] : as])) });

const CASES: readonly Case[] = [
  {
    host: 'chain',
    title: 'ChainingAttributeReleasePolicy (REPLACE): a later policy releases what an earlier one renamed',
    attributeReleasePolicy: {
      '@class': `${CAS}.ChainingAttributeReleasePolicy`,
      policies: [
        'java.util.ArrayList',
        [
          { '@class': `${CAS}.ReturnMappedAttributeReleasePolicy`, allowedAttributes: mapped({ mail: 'email-address', memberOf: 'group' }), order: 0 },
          { '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttributes: ['java.util.ArrayList', ['group', 'email-address']], order: 1 },
        ],
      ],
    },
    released: { 'email-address': ['casuser@example.org'], group: ['staff', 'faculty'] },
    authentication: true,
    user: casuser,
  },
  {
    host: 'chain-order',
    title: 'ChainingAttributeReleasePolicy (DESTINATION): the policies run by their order, not as written, and only the last release counts',
    attributeReleasePolicy: {
      '@class': `${CAS}.ChainingAttributeReleasePolicy`,
      mergingPolicy: 'DESTINATION',
      policies: [
        'java.util.ArrayList',
        [
          { '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttributes: ['java.util.ArrayList', ['memberOf']], order: 2 },
          { '@class': `${CAS}.ReturnMappedAttributeReleasePolicy`, allowedAttributes: mapped({ mail: 'email-address' }), order: 1 },
        ],
      ],
    },
    released: { memberOf: ['staff', 'faculty'] },
    authentication: true,
    user: casuser,
  },
  {
    host: 'chain-multivalued',
    title: 'ChainingAttributeReleasePolicy (multivalued, as CAS 5 wrote it): the values of both, each once, sorted; the user from an attribute',
    attributeReleasePolicy: {
      '@class': `${CAS}.ChainingAttributeReleasePolicy`,
      mergingPolicy: 'multivalued',
      policies: [
        'java.util.ArrayList',
        [
          { '@class': `${CAS}.ReturnMappedAttributeReleasePolicy`, allowedAttributes: mapped({ memberOf: 'tags' }) },
          { '@class': `${CAS}.ReturnMappedAttributeReleasePolicy`, allowedAttributes: mapped({ mail: 'tags' }) },
        ],
      ],
    },
    usernameAttributeProvider: { '@class': `${CAS}.PrincipalAttributeRegisteredServiceUsernameProvider`, usernameAttribute: 'mail', canonicalizationMode: 'UPPER' },
    released: { tags: ['casuser@example.org', 'faculty', 'staff'] },
    authentication: true,
    user: () => 'CASUSER@EXAMPLE.ORG',
  },
  {
    host: 'reverse',
    title: 'RegisteredServiceReverseMappedRegexAttributeFilter keeps the values its pattern does not match; the user is an opaque id',
    attributeReleasePolicy: {
      '@class': `${CAS}.ReturnAllAttributeReleasePolicy`,
      authorizedToReleaseAuthenticationAttributes: false,
      attributeFilter: { '@class': `${SUPPORT}.RegisteredServiceReverseMappedRegexAttributeFilter`, patterns: { '@class': 'java.util.TreeMap', memberOf: '^FAC' } },
    },
    usernameAttributeProvider: {
      '@class': `${CAS}.AnonymousRegisteredServiceUsernameAttributeProvider`,
      persistentIdGenerator: { '@class': 'org.apereo.cas.authentication.principal.ShibbolethCompatiblePersistentIdGenerator', salt: SALT },
    },
    released: { mail: ['casuser@example.org'], memberOf: ['staff'] },
    authentication: false,
    user: (url) => persistentId('casuser', url, SALT),
  },
  {
    host: 'mutant',
    title: 'RegisteredServiceMutantRegexAttributeFilter rewrites the values its patterns match with their groups, and drops the unmapped',
    attributeReleasePolicy: {
      '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`,
      allowedAttributes: ['java.util.ArrayList', ['mail', 'memberOf']],
      attributeFilter: {
        '@class': `${SUPPORT}.RegisteredServiceMutantRegexAttributeFilter`,
        patterns: { '@class': 'java.util.TreeMap', memberOf: ['java.util.ArrayList', ['^(st)a(f+) -> $1-$2-group', '^fac']] },
        excludeUnmappedAttributes: true,
      },
    },
    released: { memberOf: ['st-ff-group', 'faculty'] },
    authentication: true,
    user: casuser,
  },
  {
    host: 'filters',
    title: 'RegisteredServiceChainingAttributeFilter: each filter by its order filters all attributes, a later one’s attribute replacing an earlier one’s',
    attributeReleasePolicy: {
      '@class': `${CAS}.ReturnAllAttributeReleasePolicy`,
      excludedAttributes: ['java.util.HashSet', []],
      attributeFilter: {
        '@class': `${SUPPORT}.RegisteredServiceChainingAttributeFilter`,
        filters: [
          'java.util.ArrayList',
          [
            { '@class': `${SUPPORT}.RegisteredServiceRegexAttributeFilter`, pattern: 'fac.*|.*@example\\.org', order: 2 },
            { '@class': `${SUPPORT}.RegisteredServiceMappedRegexAttributeFilter`, patterns: { '@class': 'java.util.HashMap', memberOf: '^staff$' }, excludeUnmappedAttributes: true, order: 1 },
          ],
        ],
      },
    },
    released: { mail: ['casuser@example.org'], memberOf: ['faculty'] },
    authentication: true,
    user: casuser,
  },
  {
    host: 'caching',
    title: 'a CachingPrincipalAttributesRepository loads and releases the authentication’s attributes; excludedAttributes as ever',
    attributeReleasePolicy: {
      '@class': `${CAS}.ReturnAllAttributeReleasePolicy`,
      excludedAttributes: ['java.util.HashSet', ['memberOf']],
      principalAttributesRepository: {
        '@class': 'org.apereo.cas.authentication.principal.cache.CachingPrincipalAttributesRepository',
        timeUnit: 'HOURS',
        expiration: 2,
        mergingStrategy: 'MULTIVALUED',
      },
    },
    released: { mail: ['casuser@example.org'] },
    authentication: true,
    user: casuser,
  },
];

/** Each case as a service, and its twin whose tickets are JWTs. */
function definitions(): Record<string, unknown>[] {
  return CASES.flatMap((each, index) => {
    const definition = {
      '@class': `${CAS}.RegexRegisteredService`,
      name: each.host,
      attributeReleasePolicy: each.attributeReleasePolicy,
      ...(each.usernameAttributeProvider && { usernameAttributeProvider: each.usernameAttributeProvider }),
    };
    return [
      { ...definition, id: 100 + index, serviceId: `^https://${each.host}\\.example\\.org/.*` },
      {
        ...definition,
        id: 200 + index,
        name: `${each.host} (JWT)`,
        serviceId: `^https://${each.host}-jwt\\.example\\.org/.*`,
        properties: { '@class': 'java.util.HashMap', jwtAsServiceTicket: { '@class': `${CAS}.DefaultRegisteredServiceProperty`, values: ['java.util.HashSet', ['true']] } },
      },
    ];
  });
}

type Node = Record<string, unknown>;
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', removeNSPrefix: true, isArray: (name) => ['Attribute', 'AttributeValue'].includes(name) });

function soapRequest(ticket: string): string {
  return (
    '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>' +
    `<samlp:Request xmlns:samlp="urn:oasis:names:tc:SAML:1.0:protocol" MajorVersion="1" MinorVersion="1" RequestID="_r1" IssueInstant="2026-11-21T10:00:00Z">` +
    `<samlp:AssertionArtifact>${ticket}</samlp:AssertionArtifact></samlp:Request></SOAP-ENV:Body></SOAP-ENV:Envelope>`
  );
}

function withoutAuthentication(attributes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(attributes).filter(([name]) => !AUTHENTICATION_ATTRIBUTES.includes(name)));
}

function behavesAsApereo(storage: () => Record<string, unknown>): void {
  let tessera: Tessera;
  let codec: CasJwtCodec;
  before(async () => {
    const keyFile = join(mkdtempSync(join(tmpdir(), 'tessera-release-')), 'token-keys.json');
    tessera = await startTessera({ modules: ['rest', 'tokens'], tokens: { keyFile }, services: [...(baseConfig()['services'] as unknown[]), ...definitions()], ...storage() });
    const keys = JSON.parse(readFileSync(keyFile, 'utf8')) as TokenKeyPair;
    codec = new CasJwtCodec({ ...keys, encryptionAlgorithm: 'A128CBC-HS256' }, systemClock);
  });
  after(() => tessera.close());

  const ticket = async (url: string) => serviceTicket(tessera.url, await login(tessera.url), url);

  for (const each of CASES) {
    describe(each.title, () => {
      const url = `https://${each.host}.example.org/app`;

      it('CAS 3 JSON and XML: the user and the attributes the policy releases', async () => {
        const json = await fetch(`${tessera.url}/p3/serviceValidate?format=JSON&service=${encodeURIComponent(url)}&ticket=${await ticket(url)}`);
        const success = ((await json.json()) as { serviceResponse: { authenticationSuccess: { user: string; attributes: Record<string, unknown> } } }).serviceResponse.authenticationSuccess;
        expect(success.user).to.equal(each.user(url));
        expect(withoutAuthentication(success.attributes)).to.deep.equal(each.released);
        expect(Object.keys(success.attributes).filter((name) => AUTHENTICATION_ATTRIBUTES.includes(name)).sort()).to.deep.equal(each.authentication ? AUTHENTICATION_ATTRIBUTES : []);

        const answer = await (await fetch(`${tessera.url}/p3/serviceValidate?service=${encodeURIComponent(url)}&ticket=${await ticket(url)}`)).text();
        expect(XMLValidator.validate(answer), answer).to.equal(true);
        const document = xml.parse(answer) as { serviceResponse: { authenticationSuccess: { user: string; attributes?: Node } } };
        expect(document.serviceResponse.authenticationSuccess.user).to.equal(each.user(url));
        const attributes = withoutAuthentication(document.serviceResponse.authenticationSuccess.attributes ?? {});
        const asLists = Object.fromEntries(Object.entries(attributes).map(([name, values]) => [name, (Array.isArray(values) ? values : [values]).map(String)]));
        expect(asLists).to.deep.equal(each.released);
      });

      it('SAML 1.1: the NameIdentifier and the attribute statement', async () => {
        const response = await fetch(`${tessera.url}/samlValidate?TARGET=${encodeURIComponent(url)}`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: soapRequest(await ticket(url)) });
        const body = await response.text();
        expect(response.status, body).to.equal(200);
        const assertion = (xml.parse(body) as { Envelope: { Body: { Response: { Assertion: Node } } } }).Envelope.Body.Response.Assertion;
        expect((assertion['AuthenticationStatement'] as { Subject: Node }).Subject['NameIdentifier']).to.equal(each.user(url));
        const statement = (assertion['AttributeStatement'] as { Attribute?: Node[] } | undefined)?.Attribute ?? [];
        const released = Object.fromEntries(statement.map((attribute): [string, string[]] => [String(attribute['@_AttributeName']), (attribute['AttributeValue'] as unknown[]).map(String)]));
        expect(withoutAuthentication(released)).to.deep.equal(each.released);
      });

      it('JWT service ticket: `sub` and one claim per released attribute, none of the authentication', async () => {
        const jwtUrl = `https://${each.host}-jwt.example.org/app`;
        const claims = await verifyJwtServiceTicket(codec, await ticket(jwtUrl), jwtUrl);
        expect(claims['sub']).to.equal(each.user(jwtUrl));
        const expected = Object.fromEntries(Object.entries(each.released).map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
        const own = Object.fromEntries(Object.entries(claims).filter(([name]) => !['sub', 'jti', 'iss', 'aud', 'iat', 'exp', 'nbf'].includes(name)));
        expect(own).to.deep.equal(expected);
      });
    });
  }

  it('the server warns at start that a caching principal attributes repository refreshes nothing here', () => {
    const warnings = tessera.logs.filter((line) => line.includes('CachingPrincipalAttributesRepository'));
    expect(warnings, tessera.logs.join('\n')).to.have.length(2);
    expect(warnings[0]).to.include('"level":"warn"').and.include('tessera has none');
  });
}

describe('Apereo CAS chained release policies, attribute filters and the caching repository on the wire', () => {
  describe('on the memory store', () => behavesAsApereo(() => ({})));
  describeWithRedis('on Redis (the definitions round-trip through the store)', (redis) => {
    behavesAsApereo(() => ({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: 'release:' } } }));
  });
});
