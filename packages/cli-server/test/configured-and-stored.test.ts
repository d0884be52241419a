import { expect } from 'chai';
import { StoreUnavailableError, type RegisteredService, type ServiceRegistry, type UserDirectory, type UserRecord } from '@tessera/core';
import { ListServiceRegistry, ListUserDirectory, aRegisteredService, describeServiceRegistry, describeUserDirectory, rejectionOf } from '@tessera/testkit';
import { ServicesStoredThenConfigured, UsersConfiguredThenStored } from '../src/storage/configured-and-stored.js';

/** A shared store that is away (a Redis restarting, a database failing over): every call fails as the adapters fail. */
const away = () => Promise.reject(new StoreUnavailableError('Redis is away'));
const storeAway: UserDirectory & ServiceRegistry = { findByUsername: away, save: away, findById: away, list: away, remove: away };

const configuredAlice: UserRecord = { username: 'alice', password: { kind: 'plain', value: 'from-configuration' }, attributes: { memberOf: ['staff'] }, fields: { otpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEH', requireOtp: true } };
const storedAlice: UserRecord = { username: 'alice', password: { kind: 'plain', value: 'from-the-store' }, attributes: { memberOf: ['admins'] } };
const storedBob: UserRecord = { username: 'bob', password: { kind: 'plain', value: 'b' }, attributes: {} };

describe('UsersConfiguredThenStored: configured users, then the store', () => {
  describeUserDirectory('UsersConfiguredThenStored, every user configured', (users) => new UsersConfiguredThenStored(new ListUserDirectory(users), new ListUserDirectory([])));
  describeUserDirectory('UsersConfiguredThenStored, every user stored', (users) => new UsersConfiguredThenStored(new ListUserDirectory([]), new ListUserDirectory(users)));

  it('answers a configured user from the configuration alone, whatever the store holds or whether it answers', async () => {
    expect(await new UsersConfiguredThenStored(new ListUserDirectory([configuredAlice]), new ListUserDirectory([])).findByUsername('alice')).to.deep.equal(configuredAlice);
    expect(await new UsersConfiguredThenStored(new ListUserDirectory([configuredAlice]), storeAway).findByUsername('alice')).to.deep.equal(configuredAlice);
  });

  it('a configured user wins over a stored user of the same name, password, attributes and OTP setup alike', async () => {
    const users = new UsersConfiguredThenStored(new ListUserDirectory([configuredAlice]), new ListUserDirectory([storedAlice, storedBob]));
    expect(await users.findByUsername('alice')).to.deep.equal(configuredAlice);
    expect(await users.findByUsername('bob')).to.deep.equal(storedBob);
    expect(await users.findByUsername('carol')).to.equal(undefined);
  });

  it('a store that is away fails the lookup of a name the configuration lacks, never answers "no such user"', async () => {
    const users = new UsersConfiguredThenStored(new ListUserDirectory([configuredAlice]), storeAway);
    expect(await rejectionOf(users.findByUsername('bob'))).to.be.instanceOf(StoreUnavailableError);
  });
});

describe('ServicesStoredThenConfigured: the store, then the configured services it lacks', () => {
  describeServiceRegistry('ServicesStoredThenConfigured, nothing configured', () => new ServicesStoredThenConfigured(new ListServiceRegistry(), []));

  const app = aRegisteredService({ id: 1, name: 'App', evaluationOrder: 10 });
  const wiki = aRegisteredService({ id: 2, name: 'Wiki', evaluationOrder: 5 });
  const registered = aRegisteredService({ id: 7, name: 'Registered over REST', evaluationOrder: 7 });
  const ids = (services: readonly RegisteredService[]) => services.map((service) => service.id);

  it('answers the configured services a store that lost its data lacks, in evaluation order with the stored ones', async () => {
    const store = new ListServiceRegistry([registered]);
    const registry = new ServicesStoredThenConfigured(store, [app, wiki]);
    expect(ids(await registry.list())).to.deep.equal([2, 7, 1]);
    expect(await registry.findById(1)).to.deep.equal(app);
    expect(await registry.findById(7)).to.deep.equal(registered);
    expect(await registry.findById(3)).to.equal(undefined);
    expect(ids(await new ServicesStoredThenConfigured(new ListServiceRegistry(), [app, wiki]).list())).to.deep.equal([2, 1]);
  });

  it('a stored definition with a configured id wins (a replacement registered at run time) until it is removed from the store', async () => {
    const store = new ListServiceRegistry([app, wiki]);
    const registry = new ServicesStoredThenConfigured(store, [app, wiki]);
    const replacement = { ...app, name: 'App, replaced', evaluationOrder: 1 };
    expect(await registry.save(replacement)).to.deep.equal(replacement);
    expect(await store.findById(1)).to.deep.equal(replacement);
    expect(await registry.findById(1)).to.deep.equal(replacement);
    expect(await registry.list()).to.deep.equal([replacement, wiki]);
    expect(await registry.remove(1)).to.equal(true);
    expect(await registry.list()).to.deep.equal([wiki, app]);
    expect(await registry.remove(1), 'the configured definition is no stored copy').to.equal(false);
    expect(await registry.findById(1)).to.deep.equal(app);
  });

  it('saves into the store, where every node sees them', async () => {
    const store = new ListServiceRegistry();
    await new ServicesStoredThenConfigured(store, [app]).save(registered);
    expect(await store.list()).to.deep.equal([registered]);
  });

  it('a store that is away fails lookups and lists, never answers with the configured services alone', async () => {
    const registry = new ServicesStoredThenConfigured(storeAway, [app]);
    expect(await rejectionOf(registry.list())).to.be.instanceOf(StoreUnavailableError);
    expect(await rejectionOf(registry.findById(1))).to.be.instanceOf(StoreUnavailableError);
    expect(await rejectionOf(registry.save(registered))).to.be.instanceOf(StoreUnavailableError);
  });
});
