import { expect } from 'chai';
import { describeWithSlapd } from '@tessera/testkit';
import type { Tessera } from '../support/tessera.js';
import { postForm, startWithLdap } from './ldap-support.js';

// LDAPS and StartTLS with the CA from ldap.caFile
describeWithSlapd(
  'LDAP logins over TLS with a configured CA file',
  (slapd) => {
    const running: Tessera[] = [];
    after(async () => {
      await Promise.all(running.map((tessera) => tessera.close()));
    });

    for (const [name, settings] of [
      ['ldaps://', () => ({ url: slapd().ldapsUrl, caFile: slapd().tls!.caFile })],
      ['StartTLS', () => ({ startTls: true, caFile: slapd().tls!.caFile })],
    ] as const) {
      it(`logs a directory user in over ${name}`, async () => {
        const tessera = await startWithLdap(slapd(), ['ldap'], settings());
        running.push(tessera);
        expect((await postForm(`${tessera.url}/v1/tickets`, { username: 'casuser', password: 'Mellon' })).status).to.equal(201);
      });
    }
  },
  { tls: true },
);
