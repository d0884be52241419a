import { expect } from 'chai';
import type { PasskeyChallenges, WebAuthnDevice, WebAuthnDevices } from '@tessera/core/modules/webauthn';
import { twoNodes, type AnotherNode } from '../../another-node.js';

export interface WebAuthnStores {
  readonly devices: WebAuthnDevices;
  readonly challenges: PasskeyChallenges;
  /** Moves the stores' clock on. */
  advance(ms: number): void;
}

export type WebAuthnDevicesFactory = () => WebAuthnStores | Promise<WebAuthnStores>;

let made = 0;

/** A device of `username` with a credential id of its own. */
function device(username: string, fields: Partial<WebAuthnDevice> = {}): WebAuthnDevice {
  made += 1;
  return {
    credentialId: `credential-${made}-${Math.random().toString(36).slice(2)}`,
    username,
    userHandle: 'handle',
    publicKey: 'cose-key',
    counter: 0,
    transports: ['usb'],
    name: `Key ${made}`,
    createdAt: 1_000 + made,
    multiDevice: false,
    backedUp: false,
    ...fields,
  };
}

/**
 * The webauthn module's stores (core's modules/webauthn): a credential id registered once, to one
 * user; a user's devices listed and removed by that user's name only; the counter moved forward by
 * one atomic step (a counter that did not move is a clone, of racing uses of one counter exactly one
 * counted); one user handle per user; a passkey challenge taken once, never after it expired.
 */
export function describeWebAuthnDevices(name: string, factory: WebAuthnDevicesFactory, anotherNode?: AnotherNode<WebAuthnStores>): void {
  describe(`WebAuthn stores contract: ${name}`, () => {
    it('registers a credential id once, to one user, and lists each user their own devices, oldest first', async () => {
      const { devices } = await factory();
      const first = device('casuser', { createdAt: 2_000 });
      const second = device('casuser', { createdAt: 1_000 });
      expect(await devices.add(first)).to.equal(true);
      expect(await devices.add(second)).to.equal(true);
      expect(await devices.add({ ...first, username: 'alice' })).to.equal(false);
      expect((await devices.list('casuser')).map((each) => each.credentialId)).to.deep.equal([second.credentialId, first.credentialId]);
      expect(await devices.list('alice')).to.deep.equal([]);
      expect(await devices.list('CasUser')).to.deep.equal([]);
      expect(await devices.find(first.credentialId)).to.deep.equal(first);
    });

    it("removes a device only by its own user's name", async () => {
      const { devices } = await factory();
      const key = device('casuser');
      await devices.add(key);
      expect(await devices.remove('alice', key.credentialId)).to.equal(false);
      expect(await devices.find(key.credentialId)).to.deep.equal(key);
      expect(await devices.remove('casuser', key.credentialId)).to.equal(true);
      expect(await devices.find(key.credentialId)).to.equal(undefined);
      expect(await devices.list('casuser')).to.deep.equal([]);
      expect(await devices.remove('casuser', key.credentialId)).to.equal(false);
    });

    it('counts a counter that moved forward, refuses one that went back or stood still as a clone, and never changes a refused record', async () => {
      const { devices } = await factory();
      const key = device('casuser', { counter: 5 });
      await devices.add(key);
      expect(await devices.used(key.credentialId, 4, false)).to.equal('cloned');
      expect(await devices.used(key.credentialId, 5, false)).to.equal('cloned');
      expect((await devices.find(key.credentialId))?.counter).to.equal(5);
      expect(await devices.used(key.credentialId, 9, true)).to.equal('counted');
      const used = await devices.find(key.credentialId);
      expect([used?.counter, used?.backedUp, typeof used?.lastUsedAt]).to.deep.equal([9, true, 'number']);
      expect(await devices.used('no-such-credential', 10, false)).to.equal('gone');
    });

    it('counts every use of an authenticator that keeps no counter (0 each time)', async () => {
      const { devices } = await factory();
      const key = device('casuser');
      await devices.add(key);
      expect(await devices.used(key.credentialId, 0, false)).to.equal('counted');
      expect(await devices.used(key.credentialId, 0, false)).to.equal('counted');
      // Once it counts, it may never go back to 0.
      expect(await devices.used(key.credentialId, 3, false)).to.equal('counted');
      expect(await devices.used(key.credentialId, 0, false)).to.equal('cloned');
    });

    it('counts exactly one of many racing uses of one counter value, across two nodes', async () => {
      const [stores, other] = await twoNodes(factory, anotherNode);
      const key = device('casuser', { counter: 1 });
      await stores.devices.add(key);
      const uses = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? stores : other).devices.used(key.credentialId, 2, false)));
      expect(uses.filter((use) => use === 'counted')).to.have.length(1);
      expect(uses.filter((use) => use === 'cloned')).to.have.length(7);
    });

    it('gives a user one user handle, the same on every node and under racing first registrations', async () => {
      const [stores, other] = await twoNodes(factory, anotherNode);
      const username = `handle-${Math.random().toString(36).slice(2)}`;
      expect(await stores.devices.knownUserHandle(username)).to.equal(undefined);
      const handles = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? stores : other).devices.userHandle(username)));
      expect(new Set(handles).size).to.equal(1);
      expect(handles[0]).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(await other.devices.userHandle(username)).to.equal(handles[0]);
      expect(await stores.devices.userHandle(`${username}-other`)).to.not.equal(handles[0]);
    });

    it('hands a passkey challenge out once, on any node, and never after it expired', async () => {
      const [stores, other] = await twoNodes(factory, anotherNode);
      const { id, challenge } = await stores.challenges.issue();
      const takes = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? stores : other).challenges.take(id)));
      expect(takes.filter((take) => take === Buffer.from(challenge).toString('base64url'))).to.have.length(1);
      expect(takes.filter((take) => take !== undefined)).to.have.length(1);
      const { id: late } = await other.challenges.issue();
      stores.advance(6 * 60 * 1000);
      expect(await stores.challenges.take(late)).to.equal(undefined);
      expect(await stores.challenges.take('')).to.equal(undefined);
      expect(await stores.challenges.take('unknown')).to.equal(undefined);
    });
  });
}
