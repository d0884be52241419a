import { expect } from 'chai';
import { compareServices, DENY_ALL_ATTRIBUTES, RETURN_ALL_ATTRIBUTES, RETURN_ALLOWED_ATTRIBUTES } from '@tessera/core';
import { FixedClock, aRegisteredService } from '@tessera/testkit';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { createMongoStores, type MongoDatabase } from '@tessera/adapter-mongo';

describe('MongoServiceRegistry and MongoUserDirectory: the exact queries they send', () => {
  let database: FakeDatabase;
  const stores = (prefix?: string) => createMongoStores(database as unknown as MongoDatabase, new FixedClock(), prefix);

  beforeEach(() => {
    database = new FakeDatabase();
  });

  it('creates a unique index on usernames and none on services (listed whole, ordered in process), every collection prefixed', async () => {
    await stores('sso_').createIndexes();
    expect(database.names).to.deep.equal(['sso_tickets', 'sso_services', 'sso_users']);
    expect(database.collection('sso_services').argsOf('createIndex')).to.deep.equal([]);
    expect(database.collection('sso_users').argsOf('createIndex')).to.deep.equal([[{ username: 1 }, { name: 'username_unique', unique: true }]]);
  });

  it('saves a service as an upserted document keyed by id, with no absent fields', async () => {
    const service = aRegisteredService({ id: 7, name: 'Staff Portal' });
    await stores().registry.save(service);
    const { id, ...fields } = service;
    expect(database.collection('services').argsOf('replaceOne')).to.deep.equal([[{ _id: id }, { _id: 7, ...fields }, { upsert: true }]]);
    const stored = database.collection('services').documents[0]!;
    expect(stored).to.not.have.property('description');
    expect(await stores().registry.findById(7)).to.deep.equal(service);
  });

  it("stores a module's data on a service (an OAuth 2.0 client's) as one field of the document, whole, and reads back the same service", async () => {
    const client = {
      clientId: 'oauth-app',
      clientSecret: 'a-secret-of-at-least-16',
      tokenEndpointAuthenticationMethod: 'client_secret_basic',
      scopes: [],
      supportedGrantTypes: ['authorization_code', 'refresh_token'],
      supportedResponseTypes: ['code'],
      bypassApprovalPrompt: true,
      generateRefreshToken: true,
      renewRefreshToken: true,
      userProfileViewType: 'FLAT',
    };
    const service = aRegisteredService({ id: 9, name: 'OAuth app', type: 'org.apereo.cas.support.oauth.services.OAuthRegisteredService', moduleData: { oidcClient: client } });
    await stores().registry.save(service);
    expect(database.collection('services').documents[0]).to.deep.include({ _id: 9, type: service.type, moduleData: { oidcClient: client } });
    expect(await stores().registry.findById(9)).to.deep.equal(service);
  });

  it('lists with one unsorted find, and orders in process with compareServices', async () => {
    const services = [aRegisteredService({ id: 1, name: 'Zeta' }), aRegisteredService({ id: 2, name: 'app_x', evaluationOrder: 1 }), aRegisteredService({ id: 3, name: 'app1' })];
    for (const service of services) await stores().registry.save(service);
    expect(await stores().registry.list()).to.deep.equal([...services].sort(compareServices));
    expect(database.collection('services').calls.filter(({ method }) => method.startsWith('find')).map(({ method, args }) => [method, ...args])).to.deep.equal([['find', {}]]);
  });

  it('reads a service an earlier version stored, with its sortName, as the same service', async () => {
    const service = aRegisteredService({ id: 8, name: 'Staff Portal' });
    const { id, ...fields } = service;
    database.collection('services').documents.push({ _id: id, ...fields, sortName: 'staff portal' });
    expect(await stores().registry.list()).to.deep.equal([service]);
    expect(await stores().registry.findById(8)).to.deep.equal(service);
  });

  it('reads a service stored by the version before policy registrations, its { kind } release policy as the policy it meant', async () => {
    const earlier = (id: number, attributeRelease: Record<string, unknown>) => {
      const { id: _, ...fields } = aRegisteredService({ id, name: `Earlier ${id}` });
      database.collection('services').documents.push({ _id: id, ...fields, attributeRelease });
    };
    earlier(1, { kind: 'allowed', names: ['mail', 'memberOf'] });
    earlier(2, { kind: 'all' });
    earlier(3, { kind: 'none' });
    const released = (await stores().registry.list()).map((service) => service.attributeRelease);
    expect(released).to.deep.equal([
      { type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['mail', 'memberOf'] },
      { type: RETURN_ALL_ATTRIBUTES },
      { type: DENY_ALL_ATTRIBUTES },
    ]);
    expect((await stores().registry.findById(1))?.attributeRelease).to.deep.equal(released[0]);
  });

  it('removes by _id and tells whether something was removed', async () => {
    await stores().registry.save(aRegisteredService({ id: 9 }));
    expect(await stores().registry.remove(9)).to.equal(true);
    expect(database.collection('services').argsOf('deleteOne')).to.deep.equal([[{ _id: 9 }]]);
  });

  it('reads a user in the configuration shape (passwordHash or password, attributes) with one findOne by exact username, and writes nothing', async () => {
    const phc = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g';
    database.collection('users').documents.push({ _id: 'a', username: 'alice', passwordHash: phc, attributes: { mail: ['alice@example.org'] } });
    expect(await stores().users.findByUsername('alice')).to.deep.equal({ username: 'alice', password: { kind: 'hash', phc }, attributes: { mail: ['alice@example.org'] } });
    expect(database.collection('users').calls.map(({ method, args }) => [method, ...args])).to.deep.equal([['findOne', { username: 'alice' }]]);
  });

  it('reads a user someone inserted by hand without attributes as having none', async () => {
    database.collection('users').documents.push({ _id: 'x', username: 'bob', password: 'pw' });
    expect(await stores().users.findByUsername('bob')).to.deep.equal({ username: 'bob', password: { kind: 'plain', value: 'pw' }, attributes: {} });
  });
});
