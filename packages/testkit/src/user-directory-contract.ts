import { expect } from 'chai';
import type { UserDirectory, UserRecord } from '@tessera/core';

export type UserDirectoryFactory = (users: readonly UserRecord[]) => UserDirectory | Promise<UserDirectory>;

const casuser: UserRecord = {
  username: 'casuser',
  password: { kind: 'hash', phc: '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$qLml5cbVCJnSn6RXqEvDxqmLjqzpHRxQvLDkCsD3Lrw' },
  attributes: { memberOf: ['staff', 'admins', 'alumni'], mail: ['casuser@example.org'] },
};
const upperCasuser: UserRecord = { username: 'CasUser', password: { kind: 'plain', value: 'Mellon' }, attributes: {} };
const alice: UserRecord = { username: 'alice', password: { kind: 'plain', value: 'secret' }, attributes: { cn: ['Alice'] } };
const bob: UserRecord = { username: 'bob', password: { kind: 'plain', value: 'b' }, attributes: {}, fields: { otpSecret: 'JBSWY3DPEHPK3PXP', requireOtp: 'true' } };

/** The UserDirectory contract (core's ports/user-directory.ts). */
export function describeUserDirectory(name: string, factory: UserDirectoryFactory): void {
  describe(`UserDirectory contract: ${name}`, () => {
    it('finds a user by exact username, with every field equal', async () => {
      const directory = await factory([casuser, alice]);
      expect(await directory.findByUsername('casuser')).to.deep.equal(casuser);
      expect(await directory.findByUsername('alice')).to.deep.equal(alice);
    });

    it('matches usernames case-sensitively', async () => {
      const directory = await factory([casuser, upperCasuser]);
      expect(await directory.findByUsername('CasUser')).to.deep.equal(upperCasuser);
      expect(await directory.findByUsername('casuser')).to.deep.equal(casuser);
      expect(await directory.findByUsername('CASUSER')).to.equal(undefined);
    });

    it('returns undefined for unknown names, including ones that look like object keys', async () => {
      const directory = await factory([casuser]);
      for (const unknown of ['bob', '', 'casuser ', '__proto__', 'constructor', 'toString']) {
        expect(await directory.findByUsername(unknown), unknown).to.equal(undefined);
      }
      expect(await (await factory([])).findByUsername('casuser')).to.equal(undefined);
    });

    it('keeps multi-valued attributes in their order', async () => {
      const directory = await factory([casuser]);
      const found = await directory.findByUsername('casuser');
      expect(found?.attributes.memberOf).to.deep.equal(['staff', 'admins', 'alumni']);
    });

    it('keeps both kinds of stored password', async () => {
      const directory = await factory([casuser, alice]);
      expect((await directory.findByUsername('casuser'))?.password).to.deep.equal(casuser.password);
      expect((await directory.findByUsername('alice'))?.password).to.deep.equal({ kind: 'plain', value: 'secret' });
    });

    it("keeps the fields modules read (the otp module's), and none where there are none", async () => {
      const directory = await factory([alice, bob]);
      expect((await directory.findByUsername('bob'))?.fields).to.deep.equal({ otpSecret: 'JBSWY3DPEHPK3PXP', requireOtp: 'true' });
      expect((await directory.findByUsername('alice'))?.fields).to.equal(undefined);
    });
  });
}
