import { expect } from 'chai';
import type { SamlSessionStore, SamlSpSession } from '@tessera/core/modules/saml2';
import { twoNodes, type AnotherNode } from '../../another-node.js';
import { FixedClock } from '../../fixed-clock.js';

export type SamlSessionStoreFactory = () => SamlSessionStore | Promise<SamlSessionStore>;

const LATER = new FixedClock().now() + 8 * 3_600_000;

function session(spEntityId: string, sessionIndex = `_index-of-${spEntityId}`): SamlSpSession {
  return { spEntityId, nameId: 'AAdzZWNyZXQx', nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', spNameQualifier: spEntityId, sessionIndex };
}

/** The SamlSessionStore contract (core's modules/saml2/session-store.ts): the SPs holding a session of a TGT, taken once at logout. */
export function describeSamlSessionStore(name: string, factory: SamlSessionStoreFactory, anotherNode?: AnotherNode<SamlSessionStore>): void {
  describe(`SamlSessionStore contract: ${name}`, () => {
    it('keeps the SPs of a TGT in the order first added, one session per SP, the latest', async () => {
      const store = await factory();
      await store.add('TGT-1', session('https://a.example.org/sp'), LATER);
      await store.add('TGT-1', session('https://b.example.org/sp'), LATER);
      await store.add('TGT-1', session('https://a.example.org/sp', '_second'), LATER);
      expect(await store.sessionsOf('TGT-1')).to.deep.equal([session('https://a.example.org/sp', '_second'), session('https://b.example.org/sp')]);
      expect(await store.sessionsOf('TGT-2')).to.deep.equal([]);
    });

    it('keeps a session without an SPNameQualifier as it is', async () => {
      const store = await factory();
      const { spNameQualifier: _dropped, ...plain } = session('https://c.example.org/sp');
      await store.add('TGT-3', plain, LATER);
      expect(await store.sessionsOf('TGT-3')).to.deep.equal([plain]);
    });

    it('removes one SP, and takes them all once', async () => {
      const store = await factory();
      await store.add('TGT-4', session('https://a.example.org/sp'), LATER);
      await store.add('TGT-4', session('https://b.example.org/sp'), LATER);
      await store.remove('TGT-4', 'https://a.example.org/sp');
      await store.remove('TGT-4', 'https://unknown.example.org/sp');
      await store.remove('TGT-none', 'https://a.example.org/sp');
      expect(await store.take('TGT-4')).to.deep.equal([session('https://b.example.org/sp')]);
      expect(await store.take('TGT-4')).to.deep.equal([]);
      expect(await store.sessionsOf('TGT-4')).to.deep.equal([]);
    });

    it('lands every one of concurrent adds, on two nodes', async () => {
      const [store, other] = await twoNodes(factory, anotherNode);
      await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? store : other).add('TGT-5', session(`https://sp${i}.example.org/sp`), LATER)));
      expect((await other.sessionsOf('TGT-5')).map((held) => held.spEntityId).sort()).to.deep.equal(Array.from({ length: 6 }, (_, i) => `https://sp${i}.example.org/sp`));
    });

    it('gives the sessions to exactly one of concurrent takes, across two nodes', async () => {
      const [store, other] = await twoNodes(factory, anotherNode);
      await store.add('TGT-6', session('https://a.example.org/sp'), LATER);
      const taken = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? store : other).take('TGT-6')));
      expect(taken.filter((sessions) => sessions.length > 0)).to.have.length(1);
    });
  });
}
