import { expect } from 'chai';
import { persistentId } from '@tessera/core';
import { describeWithRedis } from '@tessera/testkit/redis';
import { form, login, serviceTicket, startTessera, type Tessera } from '../support/tessera.js';

const CAS = 'org.apereo.cas.services';
const SUPPORT = `${CAS}.support`;
const SALT = 'a salt of this deployment';

/** Services as Apereo CAS files write them, each with one of the policies under test. */
const SERVICES = [
  {
    '@class': `${CAS}.RegexRegisteredService`,
    id: 11,
    name: 'Mapped',
    serviceId: '^https://mapped\\.example\\.org/.*',
    evaluationOrder: '5',
    usernameAttributeProvider: { '@class': `${CAS}.PrincipalAttributeRegisteredServiceUsernameProvider`, usernameAttribute: 'mail', canonicalizationMode: 'UPPER' },
    attributeReleasePolicy: {
      '@class': `${CAS}.ReturnMappedAttributeReleasePolicy`,
      authorizedToReleaseAuthenticationAttributes: false,
      allowedAttributes: { '@class': 'java.util.TreeMap', mail: 'email', memberOf: ['java.util.ArrayList', ['groups', 'roles']] },
      attributeFilter: { '@class': `${SUPPORT}.RegisteredServiceMappedRegexAttributeFilter`, patterns: { '@class': 'java.util.HashMap', groups: '^sta' } },
      principalAttributesRepository: { '@class': 'org.jasig.cas.authentication.principal.DefaultPrincipalAttributesRepository' },
    },
  },
  {
    '@class': `${CAS}.RegexRegisteredService`,
    id: 12,
    name: '',
    serviceId: '^https://anonymous\\.example\\.org/.*',
    usernameAttributeProvider: {
      '@class': `${CAS}.AnonymousRegisteredServiceUsernameAttributeProvider`,
      persistentIdGenerator: { '@class': 'org.apereo.cas.authentication.principal.ShibbolethCompatiblePersistentIdGenerator', salt: SALT },
    },
    attributeReleasePolicy: { '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, excludedAttributes: ['java.util.HashSet', ['mail']] },
  },
  ...[
    ['Expired', 13, 'expired', '2017-10-05'],
    ['Expiring', 14, 'expiring', '2999-12-31T23:59:59Z'],
  ].map(([name, id, host, expirationDate]) => ({
    '@class': `${CAS}.RegexRegisteredService`,
    id,
    name,
    serviceId: `^https://${host}\\.example\\.org/.*`,
    expirationPolicy: { '@class': `${CAS}.DefaultRegisteredServiceExpirationPolicy`, expirationDate, deleteWhenExpired: true, notifyWhenExpired: true },
  })),
];

const MAPPED = 'https://mapped.example.org/app';
const ANONYMOUS = 'https://anonymous.example.org/app';

interface Success {
  readonly user: string;
  readonly attributes: Record<string, unknown[]>;
}

function behavesAsApereo(storage: () => Record<string, unknown>): void {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera({ services: SERVICES, ...storage() });
  });
  after(() => tessera.close());

  async function validated(service: string, format: 'JSON' | 'XML'): Promise<string> {
    const st = await serviceTicket(tessera.url, await login(tessera.url), service);
    const response = await fetch(`${tessera.url}/p3/serviceValidate?service=${encodeURIComponent(service)}&ticket=${st}&format=${format}`);
    expect(response.status).to.equal(200);
    return response.text();
  }
  const success = async (service: string): Promise<Success> =>
    ((JSON.parse(await validated(service, 'JSON')) as { serviceResponse: { authenticationSuccess: Success } }).serviceResponse.authenticationSuccess);

  it('ReturnMappedAttributeReleasePolicy renames, one attribute to several names, filtered, without the authentication attributes; the user is an attribute, upper-cased', async () => {
    expect(await success(MAPPED)).to.deep.equal({ user: 'CASUSER@EXAMPLE.ORG', attributes: { email: ['casuser@example.org'], groups: ['staff'], roles: ['staff', 'faculty'] } });
    const xml = await validated(MAPPED, 'XML');
    expect(xml).to.include('<cas:user>CASUSER@EXAMPLE.ORG</cas:user>');
    expect(xml).to.include('<cas:roles>faculty</cas:roles>');
    expect(xml).not.to.include('isFromNewLogin');
    expect(xml).not.to.include('<cas:mail>');
  });

  it('the anonymous provider gives a salted opaque id, stable for the user at a service URL; ReturnAll leaves out the excluded attributes', async () => {
    const first = await success(ANONYMOUS);
    expect(first.user).to.equal(persistentId('casuser', ANONYMOUS, SALT));
    expect(first.user).not.to.include('casuser');
    expect((await success(ANONYMOUS)).user).to.equal(first.user);
    expect(first.attributes['memberOf']).to.deep.equal(['staff', 'faculty']);
    expect(first.attributes).not.to.have.property('mail');
    expect(first.attributes).to.have.property('isFromNewLogin');
  });

  it('a service past its expirationPolicy date is refused as an unregistered one; one before it is served', async () => {
    const grant = async (service: string) => (await fetch(`${tessera.url}/v1/tickets/${await login(tessera.url)}`, form({ service }))).status;
    expect(await grant('https://expiring.example.org/app')).to.equal(200);
    const unregistered = await grant('https://unknown.example.org/app');
    expect(unregistered).to.not.equal(200);
    expect(await grant('https://expired.example.org/app')).to.equal(unregistered);
  });
}

describe('Apereo CAS release policies and username providers on the wire', () => {
  describe('on the memory store', () => behavesAsApereo(() => ({})));
  describeWithRedis('on Redis (the definitions round-trip through the store)', (redis) => {
    behavesAsApereo(() => ({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: 'policies:' } } }));
  });
});
