import { expect } from 'chai';
import type { PendingSamlLogin, PendingSamlLogins } from '@tessera/core/modules/saml2';
import { twoNodes, type AnotherNode } from '../../another-node.js';
import { FixedClock } from '../../fixed-clock.js';

export type PendingSamlLoginsFactory = () => PendingSamlLogins | Promise<PendingSamlLogins>;

const FIXED_NOW = new FixedClock().now();
const LATER = FIXED_NOW + 15 * 60_000;
const ADDRESS = '198.51.100.7';

const LOGIN: PendingSamlLogin = {
  spEntityId: 'https://sp.example.org/shibboleth',
  request: {
    id: '_request-1',
    issueInstant: FIXED_NOW,
    issuer: 'https://sp.example.org/shibboleth',
    forceAuthn: false,
    isPassive: true,
    nameIdPolicy: { format: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', allowCreate: true },
    requestedAuthnContext: { classes: ['urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport'], comparison: 'exact' },
  },
  assertionConsumerService: { binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', location: 'https://sp.example.org/Shibboleth.sso/SAML2/POST', index: 1, isDefault: true },
  relayState: 'ss:mem:{tag} ünïcode',
  browserKeyDigest: 'n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg',
};

/** The PendingSamlLogins contract (core's modules/saml2/pending-logins.ts): a login held under a fresh id, read on any node, answered once, at most 3 (the factory's limit) per client address. */
export function describePendingSamlLogins(name: string, factory: PendingSamlLoginsFactory, anotherNode?: AnotherNode<PendingSamlLogins>): void {
  describe(`PendingSamlLogins contract: ${name}`, () => {
    it('holds a login whole under a fresh id, which another node reads', async () => {
      const [store, other] = await twoNodes(factory, anotherNode);
      const id = await store.hold(LOGIN, LATER, ADDRESS);
      expect(id).to.match(/^[A-Za-z0-9_-]{32,64}$/);
      expect(await other.get(id)).to.deep.equal(LOGIN);
      expect(await store.hold(LOGIN, LATER, ADDRESS)).to.not.equal(id);
      const unsolicited = { spEntityId: LOGIN.spEntityId, assertionConsumerService: LOGIN.assertionConsumerService, browserKeyDigest: LOGIN.browserKeyDigest };
      expect(await other.get(await store.hold(unsolicited, LATER, ADDRESS))).to.deep.equal(unsolicited);
    });

    it('answers a login once: of concurrent takes, on two nodes, one gets it', async () => {
      const [store, other] = await twoNodes(factory, anotherNode);
      const id = await store.hold(LOGIN, LATER, ADDRESS);
      const taken = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? store : other).take(id)));
      expect(taken.filter((login) => login !== undefined)).to.deep.equal([LOGIN]);
      expect(await other.get(id)).to.equal(undefined);
    });

    it('holds at most the limit per client address (an IPv6 /64 network), on every node: past it the earliest are dropped, never the new one; an answered one no longer counts; another address keeps its own', async () => {
      const [store, other] = await twoNodes(factory, anotherNode);
      const elsewhere = await store.hold(LOGIN, LATER, '2001:db8:1:3::a');
      const first = await store.hold(LOGIN, LATER, '2001:db8:1:2::a');
      const answered = await other.hold(LOGIN, LATER + 1, '2001:db8:1:2::b');
      expect(await store.take(answered)).to.deep.equal(LOGIN);
      const second = await other.hold(LOGIN, LATER + 2, '2001:db8:1:2::c');
      const third = await store.hold(LOGIN, LATER + 3, '2001:db8:1:2:0:0:0:d');
      expect(await other.get(first), 'three held, none answered: all kept').to.deep.equal(LOGIN);
      const fourth = await other.hold(LOGIN, LATER + 4, '2001:0db8:0001:0002:ffff::e');
      expect(await store.get(first), 'the earliest of the /64 is dropped').to.equal(undefined);
      for (const id of [second, third, fourth, elsewhere]) expect(await other.get(id)).to.deep.equal(LOGIN);
    });

    it('forgets a login once it expired, and knows no id it did not make', async () => {
      const store = await factory();
      const id = await store.hold(LOGIN, FIXED_NOW - 1, ADDRESS);
      expect(await store.get(id)).to.equal(undefined);
      expect(await store.get('not-an-id')).to.equal(undefined);
      expect(await store.take('../../etc/passwd')).to.equal(undefined);
    });
  });
}
