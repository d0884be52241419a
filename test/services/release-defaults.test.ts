import { expect } from 'chai';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@tessera/core';
import { CasJwtCodec, verifyJwtServiceTicket, type TokenKeyPair } from '@tessera/core/modules/tokens';
import { describeWithRedis } from '@tessera/testkit/redis';
import { baseConfig, login, serviceTicket, startTessera, type Tessera } from '../support/tessera.js';
import { addService, postService, REGISTRATION } from './support.js';

const CAS = 'org.apereo.cas.services';
const AUTHENTICATION_ATTRIBUTES = ['authenticationDate', 'isFromNewLogin'];
const MAIL = ['casuser@example.org'];
const GROUPS = ['staff', 'faculty'];

type Attributes = Record<string, readonly string[]>;

/** One service under test: the keys an Apereo file writes for it, and what casuser's validation tells it. */
interface Case {
  readonly host: string;
  readonly title: string;
  readonly keys: Record<string, unknown>;
  /** The principal attributes released, under the names they are released as (the authentication's aside: always released here). */
  readonly released: Attributes;
  readonly user: string;
}

const mapped = (pairs: Record<string, string | string[]>) => ({ '@class': 'java.util.TreeMap', ...Object.fromEntries(Object.entries(pairs).map(([name, as]) => [name, Array.isArray(as) ? ['java.util.ArrayList', as] : as])) });

const CASES: readonly Case[] = [
  {
    host: 'plain',
    title: 'no attributeReleasePolicy (the services setting): Apereo’s default, the authentication’s attributes and no principal attribute',
    keys: {},
    released: {},
    user: 'casuser',
  },
  {
    host: 'unset',
    title: 'authorizedToReleaseAuthenticationAttributes unset: the authentication’s attributes come with the allowed ones',
    keys: { attributeReleasePolicy: { '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttributes: ['java.util.ArrayList', ['mail']] } },
    released: { mail: MAIL },
    user: 'casuser',
  },
  {
    host: 'allowed-case',
    title: 'allowedAttributes finds attributes whatever their case and releases them as the policy spells them; so does the username attribute',
    keys: {
      attributeReleasePolicy: { '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttributes: ['java.util.ArrayList', ['MAIL', 'memberof', 'Mail']] },
      usernameAttributeProvider: { '@class': `${CAS}.PrincipalAttributeRegisteredServiceUsernameProvider`, usernameAttribute: 'MAIL' },
    },
    released: { MAIL, memberof: GROUPS },
    user: 'casuser@example.org',
  },
  {
    host: 'mapped-case',
    title: 'ReturnMappedAttributeReleasePolicy finds attributes whatever their case and releases them under the names it maps them to',
    keys: { attributeReleasePolicy: { '@class': `${CAS}.ReturnMappedAttributeReleasePolicy`, allowedAttributes: mapped({ MAIL: 'email', MemberOf: ['groups', 'roles'] }) } },
    released: { email: MAIL, groups: GROUPS, roles: GROUPS },
    user: 'casuser',
  },
  {
    host: 'filter-case',
    title: 'an attribute filter names attributes exactly, as Apereo’s does: a pattern for MEMBEROF leaves memberOf unmapped',
    keys: {
      attributeReleasePolicy: {
        '@class': `${CAS}.ReturnAllAttributeReleasePolicy`,
        attributeFilter: {
          '@class': `${CAS}.support.RegisteredServiceMappedRegexAttributeFilter`,
          patterns: { '@class': 'java.util.HashMap', MEMBEROF: '^staff$', mail: '@example\\.org$' },
          excludeUnmappedAttributes: true,
        },
      },
    },
    released: { mail: MAIL },
    user: 'casuser',
  },
  {
    host: 'file',
    title: 'no attributeReleasePolicy (a file of servicesDirectory): the same default',
    keys: {},
    released: {},
    user: 'casuser',
  },
];

const JWT_PROPERTY = { '@class': 'java.util.HashMap', jwtAsServiceTicket: { '@class': `${CAS}.DefaultRegisteredServiceProperty`, values: ['java.util.HashSet', ['true']] } };

/** Each case as a service and its twin whose tickets are JWTs; the `file` case and its twin as files of a folder. */
function definitions(): { services: Record<string, unknown>[]; folder: string } {
  const folder = mkdtempSync(join(tmpdir(), 'tessera-release-defaults-'));
  const services: Record<string, unknown>[] = [];
  CASES.forEach((each, index) => {
    const definition = { '@class': `${CAS}.RegexRegisteredService`, name: each.host, ...each.keys };
    const pair = [
      { ...definition, id: 300 + index, serviceId: `^https://${each.host}\\.example\\.org/.*` },
      { ...definition, id: 400 + index, name: `${each.host} (JWT)`, serviceId: `^https://${each.host}-jwt\\.example\\.org/.*`, properties: JWT_PROPERTY },
    ];
    if (each.host !== 'file') services.push(...pair);
    else for (const file of pair) writeFileSync(join(folder, `${String(file.name)}-${file.id}.json`), JSON.stringify(file));
  });
  return { services, folder };
}

type Node = Record<string, unknown>;
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', removeNSPrefix: true, isArray: (name) => ['Attribute', 'AttributeValue'].includes(name) });
const CAS_XML = new XMLParser({ removeNSPrefix: true, parseTagValue: false, isArray: (_name: string, path: unknown) => String(path).includes('.attributes.') });

function soapRequest(ticket: string): string {
  return (
    '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>' +
    `<samlp:Request xmlns:samlp="urn:oasis:names:tc:SAML:1.0:protocol" MajorVersion="1" MinorVersion="1" RequestID="_r1" IssueInstant="2026-11-21T10:00:00Z">` +
    `<samlp:AssertionArtifact>${ticket}</samlp:AssertionArtifact></samlp:Request></SOAP-ENV:Body></SOAP-ENV:Envelope>`
  );
}

/** What a validation answer must hold: the released attributes, and the authentication's (their values checked apart). */
function expectReleased(attributes: Record<string, unknown>, released: Attributes, where: string): void {
  expect(Object.keys(attributes).sort(), where).to.deep.equal([...Object.keys(released), ...AUTHENTICATION_ATTRIBUTES].sort());
  const own = Object.fromEntries(Object.entries(attributes).filter(([name]) => !AUTHENTICATION_ATTRIBUTES.includes(name)));
  expect(own, where).to.deep.equal(released);
  expect(attributes['isFromNewLogin'], where).to.deep.equal(['true']);
  expect(String((attributes['authenticationDate'] as unknown[])[0]), where).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
}

function releasesAsApereo(storage: () => Record<string, unknown>): void {
  let tessera: Tessera;
  let codec: CasJwtCodec;
  before(async () => {
    const keyFile = join(mkdtempSync(join(tmpdir(), 'tessera-release-defaults-')), 'token-keys.json');
    const { services, folder } = definitions();
    tessera = await startTessera({
      modules: ['rest', 'tokens', 'services'],
      registration: REGISTRATION,
      tokens: { keyFile },
      services: [...(baseConfig()['services'] as unknown[]), ...services],
      servicesDirectory: folder,
      ...storage(),
    });
    const keys = JSON.parse(readFileSync(keyFile, 'utf8')) as TokenKeyPair;
    codec = new CasJwtCodec({ ...keys, encryptionAlgorithm: 'A128CBC-HS256' }, systemClock);
  });
  after(() => tessera.close());

  const ticket = async (url: string) => serviceTicket(tessera.url, await login(tessera.url), url);

  async function jsonAnswer(path: string, url: string): Promise<{ user: string; attributes: Record<string, unknown> }> {
    const response = await fetch(`${tessera.url}${path}?format=JSON&service=${encodeURIComponent(url)}&ticket=${await ticket(url)}`);
    return ((await response.json()) as { serviceResponse: { authenticationSuccess: { user: string; attributes: Record<string, unknown> } } }).serviceResponse.authenticationSuccess;
  }

  async function xmlAnswer(path: string, url: string): Promise<{ user: string; attributes: Record<string, unknown> }> {
    const answer = await (await fetch(`${tessera.url}${path}?service=${encodeURIComponent(url)}&ticket=${await ticket(url)}`)).text();
    expect(XMLValidator.validate(answer), answer).to.equal(true);
    const success = (CAS_XML.parse(answer) as { serviceResponse: { authenticationSuccess: { user: string; attributes?: Record<string, unknown> } } }).serviceResponse.authenticationSuccess;
    return { user: success.user, attributes: success.attributes ?? {} };
  }

  for (const each of CASES) {
    describe(each.title, () => {
      const url = `https://${each.host}.example.org/app`;

      for (const path of ['/serviceValidate', '/p3/serviceValidate']) {
        it(`${path}, XML and JSON: the user, the released attributes and the authentication’s`, async () => {
          for (const [format, answer] of [['XML', await xmlAnswer(path, url)], ['JSON', await jsonAnswer(path, url)]] as const) {
            expect(answer.user, format).to.equal(each.user);
            expectReleased(answer.attributes, each.released, `${path} ${format}`);
          }
        });
      }

      it('SAML 1.1: the attribute statement holds the same', async () => {
        const response = await fetch(`${tessera.url}/samlValidate?TARGET=${encodeURIComponent(url)}`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: soapRequest(await ticket(url)) });
        const body = await response.text();
        expect(response.status, body).to.equal(200);
        const assertion = (xml.parse(body) as { Envelope: { Body: { Response: { Assertion: Node } } } }).Envelope.Body.Response.Assertion;
        expect((assertion['AuthenticationStatement'] as { Subject: Node }).Subject['NameIdentifier']).to.equal(each.user);
        const statement = (assertion['AttributeStatement'] as { Attribute?: Node[] } | undefined)?.Attribute ?? [];
        expectReleased(Object.fromEntries(statement.map((attribute): [string, string[]] => [String(attribute['@_AttributeName']), (attribute['AttributeValue'] as unknown[]).map(String)])), each.released, 'SAML 1.1');
      });

      it('JWT service ticket: one claim per released principal attribute (the authentication’s belong to validation answers)', async () => {
        const jwtUrl = `https://${each.host}-jwt.example.org/app`;
        const claims = await verifyJwtServiceTicket(codec, await ticket(jwtUrl), jwtUrl);
        expect(claims['sub']).to.equal(each.user);
        const expected = Object.fromEntries(Object.entries(each.released).map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
        const own = Object.fromEntries(Object.entries(claims).filter(([name]) => !['sub', 'jti', 'iss', 'aud', 'iat', 'exp', 'nbf'].includes(name)));
        expect(own).to.deep.equal(expected);
      });
    });
  }

  describe('a service registered over REST without attributeReleasePolicy gets the same default', () => {
    it('POST /v1/services: stored as Apereo’s ReturnAllowedAttributeReleasePolicy allowing nothing; validation releases the authentication’s attributes', async () => {
      const response = await postService(tessera.url, { '@class': `${CAS}.CasRegisteredService`, name: 'Registered', serviceId: '^https://registered\\.example\\.org/.*' });
      const stored = (await response.json()) as Record<string, unknown>;
      expect(response.status, JSON.stringify(stored)).to.equal(200);
      expect(stored['attributeReleasePolicy']).to.deep.equal({ '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttributes: ['java.util.ArrayList', []] });
      const answer = await jsonAnswer('/p3/serviceValidate', 'https://registered.example.org/app');
      expectReleased(answer.attributes, {}, 'POST /v1/services');
    });

    it('POST /v1/services/add/{tgt}: the same', async () => {
      const fields = { serviceId: '^https://added\\.example\\.org/.*', name: 'Added', description: 'added by form' };
      expect((await addService(tessera.url, await login(tessera.url), fields)).status).to.equal(200);
      const answer = await jsonAnswer('/serviceValidate', 'https://added.example.org/app');
      expectReleased(answer.attributes, {}, 'POST /v1/services/add');
    });
  });
}

describe('attribute release where Apereo CAS’s defaults say so, on the wire (docs/services.md, Attribute release)', () => {
  describe('on the memory store', () => releasesAsApereo(() => ({})));
  describeWithRedis('on Redis (the definitions and the registered services round-trip through the store)', (redis) => {
    releasesAsApereo(() => ({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: 'release-defaults:' } } }));
  });
});
