import { expect } from 'chai';
import { startTessera, type Tessera } from '../../support/tessera.js';
import { REGISTRATION, basic, postService } from '../../services/support.js';

const NEW = { '@class': 'org.apereo.cas.services.CasRegisteredService', name: 'New app', serviceId: '^https://new\\.example\\.org/.*' };

// docs/protocol.md §5 — throttling applies to /v1/services too: HTTP Basic failures count per IP + username
describe('throttle module on service registration (docs/protocol.md §5)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera({
      modules: ['rest', 'services', 'throttle'],
      registration: REGISTRATION,
      throttle: { failure: { threshold: 2, rangeSeconds: 60, lockSeconds: 30, maxLockSeconds: 60 } },
    });
  });
  after(() => tessera.close());

  it('locks a username after bad Basic credentials, with 423 even for the right password', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await postService(tessera.url, NEW, basic('casuser', `guess-${i}`))).status);
    expect(statuses).to.deep.equal([401, 401, 423]);
    const locked = await postService(tessera.url, NEW, basic('casuser', 'Mellon'));
    expect(locked.status).to.equal(423);
    expect(Number(locked.headers.get('retry-after'))).to.be.within(29, 30);
  });

  it('a username parameter does not move a Basic login to another key: the lock holds', async () => {
    for (let i = 0; i < 3; i++) await postService(tessera.url, NEW, basic('casuser', `guess-${i}`));
    const elsewhere = await fetch(`${tessera.url}/v1/services?username=someone-else`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic('casuser', 'Mellon') },
      body: JSON.stringify(NEW),
    });
    expect(elsewhere.status).to.equal(423);
  });

  it('a 403 (authenticated, not allowed) does not count', async () => {
    for (let i = 0; i < 3; i++) expect((await postService(tessera.url, NEW, basic('alice', 'secret'))).status).to.equal(403);
  });
});
