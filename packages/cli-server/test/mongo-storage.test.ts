import { expect } from 'chai';
import { Writable } from 'node:stream';
import { MongoNetworkError, MongoServerSelectionError, MongoWriteConcernError, type TopologyDescription } from 'mongodb';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { parseConfig, startServer, type RunningServer, type StartOptions } from '@tessera/cli-server';

const APP = 'https://app.example.org/home';

const config = parseConfig({
  server: { port: 0 },
  logging: { level: 'silent' },
  storage: { type: 'mongo', mongo: { uri: 'mongodb://db.invalid:27017', collectionPrefix: 'sso_' } },
  users: [{ username: 'casuser', password: 'Mellon', attributes: { memberOf: ['staff'] } }],
  services: [{ '@class': 'org.apereo.cas.services.CasRegisteredService', id: 1, name: 'App', serviceId: '^https://app\\.example\\.org/.*' }],
});

const post = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain' }, body: new URLSearchParams(fields).toString() });

// storage.type mongo composed end to end over HTTP, its collections fakes evaluated by mingo
describe('startServer with storage.type mongo (fake database)', () => {
  let database: FakeDatabase;
  let server: RunningServer;

  beforeEach(async () => {
    database = new FakeDatabase();
    // bob: added by other means; casuser: a copy an earlier version upserted, since changed in the configuration.
    database.collection('sso_users').documents.push({ _id: 'u1', username: 'bob', password: 'added-by-hand', attributes: {} }, { _id: 'u2', username: 'casuser', password: 'Mellon-before', attributes: {} });
    const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
    server = await startServer({ config, log: silent, auditLog: silent, mongoDatabase: database as unknown as NonNullable<StartOptions['mongoDatabase']> });
  });
  afterEach(() => server.close());

  it('upserts the configured services at start, writes no user, and leaves the users in the database as they are', () => {
    expect(database.collection('sso_users').argsOf('replaceOne')).to.deep.equal([]);
    expect(database.collection('sso_users').documents.map((user) => user.password)).to.deep.equal(['added-by-hand', 'Mellon-before']);
    expect(database.collection('sso_services').documents.map((service) => service._id)).to.deep.equal([1]);
    expect(database.collection('sso_tickets').argsOf('createIndex')).to.have.length(3);
  });

  it('serves login, service ticket and validation from the database', async () => {
    const tgt = await (await post(`${server.url}/v1/tickets`, { username: 'casuser', password: 'Mellon' })).text();
    expect(database.collection('sso_tickets').documents.map((ticket) => ticket._id)).to.deep.equal([tgt]);
    const st = await (await post(`${server.url}/v1/tickets/${tgt}`, { service: APP })).text();
    const validation = await fetch(`${server.url}/p3/serviceValidate?${new URLSearchParams({ service: APP, ticket: st }).toString()}`);
    expect(validation.status).to.equal(200);
    expect(await validation.text()).to.include('<cas:user>casuser</cas:user>');
    expect((await post(`${server.url}/v1/tickets`, { username: 'bob', password: 'added-by-hand' })).status).to.equal(201);
  });

  it('answers configured users from the configuration, over a stored copy of the same name and after the database lost its users and services', async () => {
    expect((await post(`${server.url}/v1/tickets`, { username: 'casuser', password: 'Mellon-before' })).status).to.equal(401);
    database.collection('sso_users').documents = [];
    database.collection('sso_services').documents = [];
    const tgt = await (await post(`${server.url}/v1/tickets`, { username: 'casuser', password: 'Mellon' })).text();
    const st = await post(`${server.url}/v1/tickets/${tgt}`, { service: APP });
    expect(st.status).to.equal(200);
    expect(await st.text()).to.match(/^ST-/);
    expect((await post(`${server.url}/v1/tickets`, { username: 'bob', password: 'added-by-hand' })).status, 'a user added by other means lives in the database alone').to.equal(401);
  });

  it('answers 503 with a clear body while the database is lost, and serves again when it returns', async () => {
    const tgt = await (await post(`${server.url}/v1/tickets`, { username: 'casuser', password: 'Mellon' })).text();
    database.failEveryCall(new MongoNetworkError('connection 4 to 10.0.0.5:27017 closed'));

    const login = await post(`${server.url}/v1/tickets`, { username: 'casuser', password: 'Mellon' });
    expect(login.status).to.equal(503);
    expect(await login.text()).to.equal('A service the server depends on is unavailable; please try again later.');
    database.failEveryCall(new MongoServerSelectionError('Server selection timed out after 5000 ms', {} as TopologyDescription));
    expect((await post(`${server.url}/v1/tickets/${tgt}`, { service: APP })).status).to.equal(503);
    // The write reached the primary but not enough members in time: not done, so retry later.
    database.failEveryCall(new MongoWriteConcernError({ ok: 1, n: 1, writeConcernError: { code: 64, codeName: 'WriteConcernTimeout', errmsg: 'waiting for replication timed out' } }));
    expect((await post(`${server.url}/v1/tickets/${tgt}`, { service: APP })).status).to.equal(503);
    const validation = await fetch(`${server.url}/p3/serviceValidate?${new URLSearchParams({ service: APP, ticket: 'ST-1-abc-x' }).toString()}`);
    expect(validation.status).to.equal(503);
    expect(await validation.text()).to.include('code="INTERNAL_ERROR"');

    database.failEveryCall(undefined);
    const st = await post(`${server.url}/v1/tickets/${tgt}`, { service: APP });
    expect(st.status).to.equal(200);
    expect(await st.text()).to.match(/^ST-/);
  });
});

// The validation rate limit's buckets live in the database, so the nodes of a cluster share each client's burst.
describe('startServer with storage.type mongo: two nodes on one database share the validation request rate', () => {
  const limited = parseConfig({
    server: { port: 0 },
    logging: { level: 'silent' },
    modules: ['rest', 'throttle'],
    throttle: { validation: { requestsPerSecond: 0.01, burst: 2 } },
    storage: { type: 'mongo', mongo: { uri: 'mongodb://db.invalid:27017', collectionPrefix: 'sso_' } },
  });
  const database = new FakeDatabase();
  let nodes: RunningServer[] = [];

  before(async () => {
    const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
    const start = () => startServer({ config: limited, log: silent, auditLog: silent, mongoDatabase: database as unknown as NonNullable<StartOptions['mongoDatabase']> });
    nodes = [await start(), await start()];
  });
  after(() => Promise.all(nodes.map((node) => node.close())));

  it('a client spending its burst on one node gets 429 on the other, the bucket stored in the prefixed collection', async () => {
    const validate = (node: RunningServer) => fetch(`${node.url}/p3/serviceValidate?${new URLSearchParams({ service: APP, ticket: 'ST-1-abc-x' }).toString()}`);
    const [first, second] = nodes as [RunningServer, RunningServer];
    expect([(await validate(first)).status, (await validate(first)).status]).to.deep.equal([400, 400]);
    const refused = await validate(second);
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(99, 100);
    expect(database.collection('sso_request_rates').documents).to.have.length(1);
  });
});

// docs/storage.md, storage.mongo.timeoutSeconds: a database that stops answering holds a request that long, then 503.
describe('startServer with storage.type mongo: a database that stops answering', () => {
  const bounded = parseConfig({
    server: { port: 0 },
    logging: { level: 'silent' },
    storage: { type: 'mongo', mongo: { uri: 'mongodb://db.invalid:27017', timeoutSeconds: 1 } },
    users: [{ username: 'casuser', password: 'Mellon', attributes: {} }],
  });
  const database = new FakeDatabase();
  let server: RunningServer;

  before(async () => {
    const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
    server = await startServer({ config: bounded, log: silent, auditLog: silent, mongoDatabase: database as unknown as NonNullable<StartOptions['mongoDatabase']> });
  });
  after(() => server.close());

  it('answers 503 once the timeout has passed, and serves again when the database answers', async () => {
    database.stopAnswering();
    const login = await post(`${server.url}/v1/tickets`, { username: 'casuser', password: 'Mellon' });
    expect(login.status).to.equal(503);
    expect(await login.text()).to.equal('A service the server depends on is unavailable; please try again later.');
    database.stopAnswering(false);
    expect((await post(`${server.url}/v1/tickets`, { username: 'casuser', password: 'Mellon' })).status).to.equal(201);
  });
});
