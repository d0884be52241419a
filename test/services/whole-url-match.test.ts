import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser } from '../support/browser.js';
import { form, login, startTessera, type Tessera } from '../support/tessera.js';
import { logIn, validate } from '../modules/login/support.js';

/** A serviceId that ends in neither `.*` nor `$`: it still stands for this one URL, matched whole. */
const PINNED = { '@class': 'org.apereo.cas.services.CasRegisteredService', id: 40, name: 'Pinned', serviceId: '^https://pinned\\.example\\.org/app' };
const EXACT = 'https://pinned.example.org/app';
/** Longer URLs a pattern matched only at its start would let through. */
const LONGER = ['https://pinned.example.org/app/more', 'https://pinned.example.org/appendix', 'https://pinned.example.org/app.evil.example/', 'https://pinned.example.org/app?x=1'];

// docs/services.md: a serviceId matches the whole service URL (CAS's FullRegexRegisteredServiceMatchingStrategy),
// whether or not it ends with `$`: a pattern without one is no prefix.
describe('a serviceId matches the whole URL, with or without a trailing $', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera({ modules: ['rest', 'login'], login: { keyFile: join(mkdtempSync(join(tmpdir(), 'tessera-whole-')), 'login-key.json') }, services: [PINNED] });
  });
  after(() => tessera.close());

  it('/login: a ticket for the URL itself, none for a longer one', async () => {
    const browser = new Browser();
    const exact = await logIn(browser, tessera.url, EXACT);
    expect(exact.status).to.equal(302);
    const ticket = new URL(exact.location!).searchParams.get('ticket')!;
    expect(await validate(tessera.url, EXACT, ticket)).to.include({ user: 'casuser' });
    for (const longer of LONGER) {
      const visit = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(longer)}`);
      expect(visit.location ?? '', longer).to.not.include('ticket=');
      expect(visit.status, longer).to.not.equal(302);
    }
  });

  it('REST: an ST for the URL itself, none for a longer one', async () => {
    const tgt = await login(tessera.url);
    expect((await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ service: EXACT }))).status).to.equal(200);
    for (const longer of LONGER) {
      const answer = await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ service: longer }));
      expect(answer.status, longer).to.not.equal(200);
      expect(await answer.text(), longer).to.not.match(/^ST-/);
    }
  });
});
