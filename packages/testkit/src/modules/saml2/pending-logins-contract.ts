import { expect } from 'chai';
import type { PendingSamlLogin, PendingSamlLogins } from '@tessera/core/modules/saml2';
import { twoNodes, type AnotherNode } from '../../another-node.js';
import { FixedClock } from '../../fixed-clock.js';

export type PendingSamlLoginsFactory = () => PendingSamlLogins | Promise<PendingSamlLogins>;

const FIXED_NOW = new FixedClock().now();
const LATER = FIXED_NOW + 15 * 60_000;

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
};

/** The PendingSamlLogins contract (core's modules/saml2/pending-logins.ts): a login held under a fresh id, read on any node, answered once. */
export function describePendingSamlLogins(name: string, factory: PendingSamlLoginsFactory, anotherNode?: AnotherNode<PendingSamlLogins>): void {
  describe(`PendingSamlLogins contract: ${name}`, () => {
    it('holds a login whole under a fresh id, which another node reads', async () => {
      const [store, other] = await twoNodes(factory, anotherNode);
      const id = await store.hold(LOGIN, LATER);
      expect(id).to.match(/^[A-Za-z0-9_-]{32,64}$/);
      expect(await other.get(id)).to.deep.equal(LOGIN);
      expect(await store.hold(LOGIN, LATER)).to.not.equal(id);
      const unsolicited = { spEntityId: LOGIN.spEntityId, assertionConsumerService: LOGIN.assertionConsumerService };
      expect(await other.get(await store.hold(unsolicited, LATER))).to.deep.equal(unsolicited);
    });

    it('answers a login once: of concurrent takes, on two nodes, one gets it', async () => {
      const [store, other] = await twoNodes(factory, anotherNode);
      const id = await store.hold(LOGIN, LATER);
      const taken = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? store : other).take(id)));
      expect(taken.filter((login) => login !== undefined)).to.deep.equal([LOGIN]);
      expect(await other.get(id)).to.equal(undefined);
    });

    it('forgets a login once it expired, and knows no id it did not make', async () => {
      const store = await factory();
      const id = await store.hold(LOGIN, FIXED_NOW - 1);
      expect(await store.get(id)).to.equal(undefined);
      expect(await store.get('not-an-id')).to.equal(undefined);
      expect(await store.take('../../etc/passwd')).to.equal(undefined);
    });
  });
}
