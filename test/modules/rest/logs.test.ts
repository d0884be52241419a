import { expect } from 'chai';
import { APP, form, login, serviceTicket, startTessera, type Tessera } from '../../support/tessera.js';

// developers' guide: the server never logs a password or a whole ticket id
describe('logs carry no secrets', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera();
  });
  after(() => tessera.close());

  it('after logins, failures, grants, validations and logout, no password or ticket id appears in the logs', async () => {
    const tgt = await login(tessera.url);
    const st = await serviceTicket(tessera.url, tgt);
    await fetch(`${tessera.url}/p3/serviceValidate?service=${encodeURIComponent(APP)}&ticket=${st}`);
    await fetch(`${tessera.url}/p3/serviceValidate?service=${encodeURIComponent(APP)}&ticket=${st}`);
    await fetch(`${tessera.url}/v1/tickets`, form({ username: 'casuser', password: 'Sup3r-Secret-Typo' }));
    await fetch(`${tessera.url}/v1/tickets/${tgt}`, { method: 'DELETE' });
    const text = tessera.logs.join('\n');
    expect(tessera.logs.length).to.be.greaterThan(3);
    const randomPart = (id: string) => id.replace(/^(TGT|ST)-\d+-/, '').replace(/-e2e$/, '');
    for (const secret of ['Mellon', 'Sup3r-Secret-Typo', tgt, st, randomPart(tgt), randomPart(st)]) {
      expect(text, `log contains ${secret.slice(0, 8)}…`).to.not.include(secret);
    }
  });
});
