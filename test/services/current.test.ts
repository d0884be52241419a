import { expect } from 'chai';
import type { Tessera } from '../support/tessera.js';
import { basic, grantStatus, postService, startWithServices, validatedUser } from './support.js';

const CAS = 'org.apereo.cas.services';
const NEW = { '@class': `${CAS}.CasRegisteredService`, name: 'New app', serviceId: '^https://new\\.example\\.org/.*' };

// docs/protocol.md §3 — POST /v1/services (current revision), over real HTTP
describe('POST /v1/services — register a service (docs/protocol.md §3)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startWithServices();
  });
  after(() => tessera.close());

  it('200 application/json with the stored definition in CAS JSON and its assigned id; usable for an ST at once', async () => {
    expect(await grantStatus(tessera.url, 'https://new.example.org/x')).to.equal(403);
    const response = await postService(tessera.url, NEW);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    const stored = (await response.json()) as Record<string, unknown>;
    expect(stored).to.include({ '@class': NEW['@class'], name: NEW.name, serviceId: NEW.serviceId });
    expect(stored['id']).to.be.a('number').and.to.be.greaterThan(0);
    expect(stored['accessStrategy']).to.deep.include({ enabled: true, ssoEnabled: true });
    expect(await validatedUser(tessera.url, 'https://new.example.org/x')).to.equal('casuser');
    expect(tessera.logs.some((line) => line.includes('"service.saved"') && line.includes('New app'))).to.equal(true);
  });

  it('a service whose host is not pinned is saved as Apereo CAS would, and the log warns, naming it', async () => {
    const open = { ...NEW, name: 'Open end', serviceId: '^https://open\\.example\\.org.*' };
    const response = await postService(tessera.url, open);
    expect(response.status).to.equal(200);
    const { id } = (await response.json()) as { id: number };
    // As the pattern says: another host's URL is accepted too.
    expect(await grantStatus(tessera.url, 'https://open.example.org.evil.example/')).to.equal(200);
    const warned = tessera.logs.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => (line['events'] as string[] | undefined)?.includes('service.host.unpinned'));
    expect(warned).to.deep.include({ level: 'warn', event: 'service.host.unpinned', serviceId: id, name: 'Open end' });
    expect(warned?.['warnings']).to.deep.equal([
      `service "Open end" (id ${id}): its host is not pinned: serviceId ^https://open\\.example\\.org.* does not end the host, so it also matches URLs of other hosts (<host>.evil.example, <host>@evil.example); end the host with /, :port, ? or $`,
    ]);
  });

  it('a registered disabled service is refused like an unregistered one', async () => {
    const disabled = { ...NEW, name: 'Off', serviceId: '^https://off\\.example\\.org/.*', accessStrategy: { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, enabled: false } };
    expect((await postService(tessera.url, disabled)).status).to.equal(200);
    expect(await grantStatus(tessera.url, 'https://off.example.org/x')).to.equal(403);
  });

  it('evaluation order decides between overlapping patterns; a definition with an existing id replaces it', async () => {
    const broad = { ...NEW, id: 9001, name: 'Broad', serviceId: '^https://shared\\.example\\.org/.*', evaluationOrder: 10 };
    const adminsOnly = {
      ...NEW,
      id: 9002,
      name: 'Admins',
      serviceId: '^https://shared\\.example\\.org/admin/.*',
      evaluationOrder: 5,
      accessStrategy: { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, requiredAttributes: { memberOf: ['java.util.HashSet', ['admins']] } },
    };
    expect((await postService(tessera.url, broad)).status).to.equal(200);
    expect((await postService(tessera.url, adminsOnly)).status).to.equal(200);
    // "Admins" comes first and casuser is no admin: 401, although "Broad" would let casuser in.
    expect(await grantStatus(tessera.url, 'https://shared.example.org/admin/x')).to.equal(401);
    expect(await grantStatus(tessera.url, 'https://shared.example.org/home')).to.equal(200);

    const replaced = await postService(tessera.url, { ...adminsOnly, evaluationOrder: 20 });
    expect(((await replaced.json()) as { id: number }).id).to.equal(9002);
    expect(await grantStatus(tessera.url, 'https://shared.example.org/admin/x')).to.equal(200);
  });

  it('401 with WWW-Authenticate: Basic when credentials are missing, blank or wrong', async () => {
    for (const authorization of [null, basic('casuser', ''), basic('casuser', 'wrong'), basic('nobody', 'x'), 'Basic not-base64!']) {
      const response = await postService(tessera.url, NEW, authorization);
      expect(response.status, String(authorization)).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.equal('Basic realm="tessera"');
      expect(await response.text()).to.not.include('wrong');
    }
  });

  it('403 when the principal lacks the attribute, and nothing is stored', async () => {
    const response = await postService(tessera.url, { ...NEW, serviceId: '^https://alice\\.example\\.org/.*' }, basic('alice', 'secret'));
    expect(response.status).to.equal(403);
    expect(await grantStatus(tessera.url, 'https://alice.example.org/x')).to.equal(403);
  });

  it('415 for any body that is not application/json', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
      expect((await postService(tessera.url, 'name=x', basic('casuser', 'Mellon'), type)).status, type).to.equal(415);
    }
  });

  const invalid: [string, unknown, RegExp][] = [
    ['a bad regex', { ...NEW, serviceId: '^(https' }, /^serviceId: is not a valid regular expression/],
    ['a name that is no string', { ...NEW, name: 7 }, /^name: must be a string/],
    ['an unknown class', { ...NEW, '@class': 'org.jasig.cas.services.RegexRegisteredService' }, /^@class: must be one of/],
    ['an evaluationOrder that is no integer', { ...NEW, evaluationOrder: 'first' }, /^evaluationOrder: must be an integer/],
    ['enabled as text', { ...NEW, accessStrategy: { enabled: 'yes' } }, /^accessStrategy.enabled: must be a boolean/],
    ['a list body', [NEW], /^\(definition\): must be a JSON object/],
    ['malformed JSON', '{"name":', /not a valid JSON/],
  ];
  for (const [what, body, message] of invalid) {
    it(`400 naming the field: ${what}`, async () => {
      const response = await postService(tessera.url, body);
      expect(response.status).to.equal(400);
      expect(await response.text()).to.match(message);
    });
  }

  // A key the server does not read must not be dropped: without its requiredAttributes the service would admit everyone.
  const unread: [string, string, Record<string, unknown>, string][] = [
    [
      'a misspelt key of the access strategy, with the nearest known key',
      'typo',
      { accessStrategy: { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, requiredAttribute: { memberOf: ['java.util.HashSet', ['admins']] } } },
      'accessStrategy.requiredAttribute: unknown key; did you mean requiredAttributes?',
    ],
    [
      'an Apereo CAS key tessera does not support',
      'unsupported',
      { usernameAttributeProvider: { '@class': `${CAS}.GroovyRegisteredServiceUsernameProvider`, groovyScript: 'file:/x.groovy' } },
      'usernameAttributeProvider: not supported by tessera',
    ],
  ];
  for (const [what, host, keys, message] of unread) {
    it(`400 naming the key, nothing stored: ${what}`, async () => {
      const response = await postService(tessera.url, { ...NEW, serviceId: `^https://${host}\\.example\\.org/.*`, ...keys });
      expect(response.status).to.equal(400);
      expect(await response.text()).to.include(message);
      expect(await grantStatus(tessera.url, `https://${host}.example.org/x`)).to.equal(403);
    });
  }
});
