import { expect } from 'chai';
import { MemoryServiceRegistry, MemoryUserDirectory } from '@tessera/adapter-memory';
import { aRegisteredService } from '@tessera/testkit';

describe('MemoryServiceRegistry and MemoryUserDirectory: construction', () => {
  it('starts with the given services, sorted, the last of equal ids winning', async () => {
    const first = aRegisteredService({ id: 1, evaluationOrder: 9 });
    const second = aRegisteredService({ id: 2, evaluationOrder: 3 });
    const replacement = aRegisteredService({ id: 1, evaluationOrder: 1 });
    const registry = new MemoryServiceRegistry([first, second, replacement]);
    expect(await registry.list()).to.deep.equal([replacement, second]);
  });

  it('hands out the same sorted list until something changes, and never alters one handed out', async () => {
    const registry = new MemoryServiceRegistry([aRegisteredService()]);
    const before = await registry.list();
    expect(await registry.list()).to.equal(before);
    await registry.save(aRegisteredService());
    expect(before).to.have.length(1);
    expect(await registry.list()).to.have.length(2);
  });

  it('refuses duplicate usernames, naming the username', () => {
    const user = { username: 'casuser', password: { kind: 'plain', value: 'Mellon' }, attributes: {} } as const;
    expect(() => new MemoryUserDirectory([user, { ...user }])).to.throw(Error, "'casuser'");
  });
});
