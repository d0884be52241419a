import { expect } from 'chai';
import { login, startTessera, type Tessera } from '../support/tessera.js';
import { REGISTRATION, addService, grantStatus, postService, startWithServices, validatedUser } from './support.js';

const FIELDS = { serviceId: '^https://legacy\\.example\\.org/.*', name: 'Legacy', description: 'added by form' };

// docs/protocol.md §3 — POST /v1/services/add/{tgt} (earlier revision), over real HTTP
describe('POST /v1/services/add/{tgt} — register a service, earlier revision (docs/protocol.md §3)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startWithServices();
  });
  after(() => tessera.close());

  it('200 text/plain with the new numeric id; usable for an ST at once', async () => {
    const response = await addService(tessera.url, await login(tessera.url), FIELDS);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/plain/);
    expect(await response.text()).to.match(/^[1-9]\d*$/);
    expect(await validatedUser(tessera.url, 'https://legacy.example.org/app')).to.equal('casuser');
  });

  it('enabled=false registers a service that is refused', async () => {
    const fields = { ...FIELDS, serviceId: '^https://legacy-off\\.example\\.org/.*', enabled: 'false' };
    expect((await addService(tessera.url, await login(tessera.url), fields)).status).to.equal(200);
    expect(await grantStatus(tessera.url, 'https://legacy-off.example.org/x')).to.equal(403);
  });

  it('ssoEnabled=false registers a service that needs renew with credentials', async () => {
    const fields = { ...FIELDS, serviceId: '^https://legacy-renew\\.example\\.org/.*', enabled: 'true', ssoEnabled: 'false', evaluationOrder: '3' };
    expect((await addService(tessera.url, await login(tessera.url), fields)).status).to.equal(200);
    expect(await grantStatus(tessera.url, 'https://legacy-renew.example.org/x')).to.equal(401);
  });

  it('404 for an unknown or logged-out TGT', async () => {
    const tgt = await login(tessera.url);
    await fetch(`${tessera.url}/v1/tickets/${tgt}`, { method: 'DELETE' });
    for (const id of [tgt, 'TGT-1-unknown-e2e']) expect((await addService(tessera.url, id, FIELDS)).status).to.equal(404);
  });

  it('403 when the TGT principal lacks the attribute', async () => {
    const response = await addService(tessera.url, await login(tessera.url, 'alice', 'secret'), { ...FIELDS, serviceId: '^https://a\\.example\\.org/.*' });
    expect(response.status).to.equal(403);
    expect(await grantStatus(tessera.url, 'https://a.example.org/x')).to.equal(403);
  });

  for (const [field, value] of [['serviceId', ''], ['name', ''], ['description', ''], ['serviceId', '(('], ['evaluationOrder', 'first'], ['ssoEnabled', 'perhaps']] as const) {
    it(`400 naming the field: ${field}=${JSON.stringify(value)}`, async () => {
      const response = await addService(tessera.url, await login(tessera.url), { ...FIELDS, [field]: value });
      expect(response.status).to.equal(400);
      expect(await response.text()).to.match(new RegExp(`^${field}: `));
    });
  }

  it('400 naming a form field it does not read, with the nearest known one; nothing stored', async () => {
    const fields = { ...FIELDS, serviceId: '^https://legacy-typo\\.example\\.org/.*', enable: 'false' };
    const response = await addService(tessera.url, await login(tessera.url), fields);
    expect(response.status).to.equal(400);
    expect(await response.text()).to.equal('enable: unknown key; did you mean enabled?');
    expect(await grantStatus(tessera.url, 'https://legacy-typo.example.org/x')).to.equal(403);
  });
});

describe('services module switches (docs/protocol.md §8)', () => {
  it('with the module off, both endpoints answer 404', async () => {
    const tessera = await startTessera({ registration: REGISTRATION });
    try {
      expect((await postService(tessera.url, {})).status).to.equal(404);
      expect((await addService(tessera.url, await login(tessera.url), FIELDS)).status).to.equal(404);
    } finally {
      await tessera.close();
    }
  });

  it('each variant can be switched off on its own', async () => {
    const onlyEarlier = await startWithServices({ ...REGISTRATION, current: false, earlier: true });
    const onlyCurrent = await startWithServices({ ...REGISTRATION, current: true, earlier: false });
    try {
      expect((await postService(onlyEarlier.url, {})).status).to.equal(404);
      expect((await addService(onlyEarlier.url, await login(onlyEarlier.url), FIELDS)).status).to.equal(200);
      expect((await postService(onlyCurrent.url, {})).status).to.equal(400);
      expect((await addService(onlyCurrent.url, await login(onlyCurrent.url), FIELDS)).status).to.equal(404);
    } finally {
      await Promise.all([onlyEarlier.close(), onlyCurrent.close()]);
    }
  });
});
