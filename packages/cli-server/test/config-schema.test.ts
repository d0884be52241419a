import { expect } from 'chai';
import { hostname } from 'node:os';
import { parseConfig } from '@tessera/cli-server';
import { configProblems as problems, definitionsOf } from './config-problems.js';

const app = { name: 'App', serviceId: '^https://app\\.example\\.org/.*' };

// one schema supplies the defaults and names every bad setting
describe('configuration schema', () => {
  it('an empty configuration gets every default', () => {
    const config = parseConfig({});
    expect(config.modules).to.deep.equal(['rest']);
    expect(config.server).to.deep.equal({
      host: '127.0.0.1',
      port: 8080,
      basePath: '/cas',
      trustProxy: false,
      nodeName: hostname().split('.')[0]!.replace(/[^A-Za-z0-9-]/g, '').slice(0, 16) || 'tessera',
      maxBodyBytes: 65536,
      shutdownTimeoutSeconds: 10,
      timeouts: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 },
      tls: {},
    });
    expect(config.protocol.validationFailureStatus).to.equal(400);
    expect(config.rest.revision).to.equal('current');
    expect(config.tickets).to.deep.equal({ tgt: { maxTimeToLiveSeconds: 28800, timeToKillSeconds: 7200 }, st: { timeToLiveSeconds: 10 } });
    expect(config.storage.type).to.equal('memory');
    expect(config.storage.memory).to.deep.equal({ maxTickets: 10_000_000, sweepIntervalSeconds: 60 });
    expect(config.storage.mongo).to.deep.equal({ database: 'tessera', collectionPrefix: '', timeoutSeconds: 5 });
    expect(config.logging.level).to.equal('info');
    expect(config.users).to.deep.equal([]);
    expect(config.services).to.deep.equal([]);
    expect(config.servicesDirectory).to.equal(undefined);
    expect(config.demo).to.equal(false);
  });

  it('keeps given values and normalises the base path', () => {
    const config = parseConfig({ server: { port: 0, basePath: '/sso/', trustProxy: true }, protocol: { validationFailureStatus: 200 }, rest: { revision: 'earlier' } });
    expect(config.server.port).to.equal(0);
    expect(config.server.basePath).to.equal('/sso');
    expect(config.server.trustProxy).to.equal(true);
    expect(config.protocol.validationFailureStatus).to.equal(200);
    expect(config.rest.revision).to.equal('earlier');
    expect(parseConfig({ server: { basePath: '/' } }).server.basePath).to.equal('');
  });

  it('server.publicUrl: scheme, host and port, normalised; tokens.issuer may repeat it with the base path', () => {
    expect(parseConfig({}).server).to.not.have.any.keys('publicUrl', 'allowedHosts');
    expect(parseConfig({ server: { publicUrl: 'HTTPS://CAS.Example.org:443/' } }).server.publicUrl).to.equal('https://cas.example.org');
    expect(parseConfig({ server: { publicUrl: 'http://127.0.0.1:8080' } }).server.publicUrl).to.equal('http://127.0.0.1:8080');
    const both = parseConfig({ server: { publicUrl: 'https://cas.example.org', basePath: '/sso' }, tokens: { issuer: 'https://cas.example.org/sso' } });
    expect(both.tokens.issuer).to.equal('https://cas.example.org/sso');
    expect(parseConfig({ server: { allowedHosts: ['cas.example.org', 'internal:8080', '[::1]', '10.0.0.5'] } }).server.allowedHosts).to.have.length(4);
  });

  it('users: a plain password or an argon2 hash, attributes always lists', () => {
    const phc = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo';
    const { users } = parseConfig({
      users: [
        { username: 'casuser', password: 'Mellon', attributes: { mail: 'casuser@example.org', memberOf: ['staff', 'faculty'] } },
        { username: 'alice', passwordHash: phc },
      ],
    });
    expect(users).to.deep.equal([
      { username: 'casuser', password: { kind: 'plain', value: 'Mellon' }, attributes: { mail: ['casuser@example.org'], memberOf: ['staff', 'faculty'] } },
      { username: 'alice', password: { kind: 'hash', phc }, attributes: {} },
    ]);
  });

  it('services: Apereo CAS JSON, Java collection wrappers included', () => {
    const { services: configured } = parseConfig({
      services: [
        {
          '@class': 'org.apereo.cas.services.CasRegisteredService',
          ...app,
          id: 5,
          accessStrategy: { '@class': 'org.apereo.cas.services.DefaultRegisteredServiceAccessStrategy', requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['staff']] } },
          attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['java.util.ArrayList', ['mail']] },
        },
      ],
    });
    const services = definitionsOf(configured);
    expect(services).to.have.length(1);
    expect(services[0]).to.include({ id: 5, name: 'App', serviceId: app.serviceId });
    expect(services[0]!.accessStrategy.requiredAttributes).to.deep.equal({ memberOf: ['staff'] });
    expect(services[0]!.attributeRelease).to.deep.equal({ type: 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['mail'] });
  });

  const badSettings: [string, unknown, string][] = [
    ['a port out of range', { server: { port: 70000 } }, 'server.port: expected a number from 0 to 65535'],
    ['a port that is text', { server: { port: 'http' } }, 'server.port: expected a number from 0 to 65535'],
    ['an empty host', { server: { host: '' } }, 'server.host: expected a host name or IP address'],
    ['a base path without a slash', { server: { basePath: 'cas' } }, 'server.basePath: expected a path such as /cas, or / for the root'],
    ['trustProxy as text', { server: { trustProxy: 'yes' } }, 'server.trustProxy: expected true or false'],
    ['a node name with dots', { server: { nodeName: 'a.b' } }, 'server.nodeName: expected 1 to 16 letters, digits or hyphens'],
    ['a zero body limit', { server: { maxBodyBytes: 0 } }, 'server.maxBodyBytes: expected a whole number of at least 1'],
    ['a shutdown timeout of an hour and more', { server: { shutdownTimeoutSeconds: 3601 } }, 'server.shutdownTimeoutSeconds: expected a number from 1 to 3600'],
    ['no headers deadline', { server: { timeouts: { headersMs: 0 } } }, 'server.timeouts.headersMs: expected a number from 1 to 3600000'],
    ['a headers deadline past the request deadline', { server: { timeouts: { headersMs: 40_000 } } }, 'server.timeouts.headersMs: must not exceed server.timeouts.requestMs'],
    ['a misspelt timeout', { server: { timeouts: { headerMs: 5_000 } } }, 'server.timeouts.headerMs: unknown setting'],
    ['a typo in a section', { server: { prot: 8080 } }, 'server.prot: unknown setting'],
    ['a typo at the top', { sever: {} }, 'sever: unknown setting'],
    ['a section that is not a map', { server: 8080 }, 'server: expected a map of settings'],
    ['a validation failure status of 302', { protocol: { validationFailureStatus: 302 } }, 'protocol.validationFailureStatus: expected 200 or 400'],
    ['an unknown REST revision', { rest: { revision: 'cas4' } }, 'rest.revision: expected current or earlier'],
    ['a TGT lifetime of 0', { tickets: { tgt: { maxTimeToLiveSeconds: 0 } } }, 'tickets.tgt.maxTimeToLiveSeconds: expected a whole number of at least 1'],
    ['a fractional idle time', { tickets: { tgt: { timeToKillSeconds: 1.5 } } }, 'tickets.tgt.timeToKillSeconds: expected a whole number of at least 1'],
    ['a negative ST lifetime', { tickets: { st: { timeToLiveSeconds: -10 } } }, 'tickets.st.timeToLiveSeconds: expected a whole number of at least 1'],
    ['a ticket limit of 0', { storage: { memory: { maxTickets: 0 } } }, 'storage.memory.maxTickets: expected a whole number of at least 1'],
    ['a sweep interval over a day', { storage: { memory: { sweepIntervalSeconds: 86401 } } }, 'storage.memory.sweepIntervalSeconds: expected a number from 1 to 86400'],
    ['an unknown log level', { logging: { level: 'loud' } }, 'logging.level: expected fatal, error, warn, info, debug, trace or silent'],
    ['an unknown module', { modules: ['rest', 'tokenz'] }, 'modules[1]: unknown module "tokenz" (known: rest, tokens, services, otp, throttle, x509, login, webauthn, delegation, consent, proxy, oidc, saml2)'],
    ['the consent module without login', { modules: ['rest', 'consent'] }, 'modules[1]: module "consent" needs module "login", which is not enabled'],
    ['a consent reminder unit CAS does not name', { consent: { reminderTimeUnit: 'FORTNIGHTS' } }, 'consent.reminderTimeUnit: expected one of SECONDS, MINUTES, HOURS, DAYS, WEEKS, MONTHS, YEARS'],
    ['a consent reminder of 0', { consent: { reminder: 0 } }, 'consent.reminder: expected a whole number of at least 1'],
    ['an OTP secret that is not base32', { users: [{ username: 'a', password: 'p', otpSecret: 'not-base32!' }] }, 'users[0].otpSecret: expected a base32 secret'],
    ['requireOtp without a secret', { modules: ['rest', 'otp'], users: [{ username: 'a', password: 'p', requireOtp: true }] }, 'users[0].requireOtp: needs otpSecret'],
    ['requireOtp with the otp module off', { users: [{ username: 'a', password: 'p', otpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEH', requireOtp: true }] }, 'users[0].requireOtp: needs module "otp"'],
    ['an otp parameter tessera reads already', { modules: ['rest', 'otp'], otp: { parameter: 'service' } }, 'otp.parameter: expected a name other than "service", which tessera reads already'],
    ['an otp parameter another module reads', { modules: ['otp', 'login'], otp: { parameter: 'formToken' } }, 'otp.parameter: expected a name other than "formToken", which the login module reads already'],
    ['a throttle threshold of 0', { throttle: { failure: { threshold: 0 } } }, 'throttle.failure.threshold: expected a whole number of at least 1'],
    ['a lock cap below the lock', { throttle: { failure: { lockSeconds: 60, maxLockSeconds: 30 } } }, 'throttle.failure.maxLockSeconds: maxLockSeconds must be at least lockSeconds'],
    ['a module listed twice', { modules: ['rest', 'rest'] }, 'modules[1]: module "rest" is listed twice'],
    ['modules as text', { modules: 'rest' }, 'modules: expected a list of module names'],
    ['a user without a username', { users: [{ password: 'x' }] }, 'users[0].username: is required'],
    ['a user without a password', { users: [{ username: 'bob' }] }, 'users[0]: set exactly one of password or passwordHash'],
    ['a user with both kinds of password', { users: [{ username: 'bob', password: 'x', passwordHash: '$argon2id$v=19$x' }] }, 'users[0]: set exactly one of password or passwordHash'],
    ['a public URL with a path', { server: { publicUrl: 'https://cas.example.org/cas' } }, 'server.publicUrl: expected scheme, host and port only, such as https://cas.example.org: server.basePath is added to it'],
    ['a public URL with a query', { server: { publicUrl: 'https://cas.example.org/?a=1' } }, 'server.publicUrl: expected scheme, host and port only'],
    ['a public URL with credentials', { server: { publicUrl: 'https://user:pw@cas.example.org' } }, 'server.publicUrl: expected scheme, host and port only'],
    ['a public URL of another scheme', { server: { publicUrl: 'ftp://cas.example.org' } }, 'server.publicUrl: expected an http(s) URL such as https://cas.example.org'],
    ['a public URL that is no URL', { server: { publicUrl: 'cas.example.org' } }, 'server.publicUrl: expected an http(s) URL such as https://cas.example.org'],
    ['an allowed host with a scheme', { server: { allowedHosts: ['https://cas.example.org'] } }, 'server.allowedHosts[0]: expected a host name or address, with an optional :port (no scheme or path)'],
    ['an allowed host with a path', { server: { allowedHosts: ['cas.example.org', 'cas.example.org/cas'] } }, 'server.allowedHosts[1]: expected a host name or address'],
    ['allowed hosts next to a public URL', { server: { publicUrl: 'https://cas.example.org', allowedHosts: ['cas.example.org'] } }, 'server.allowedHosts: is not used with server.publicUrl (no request host is reflected then): remove one of them'],
    ['a token issuer that disagrees with the public URL', { modules: ['rest', 'tokens'], server: { publicUrl: 'https://cas.example.org' }, tokens: { issuer: 'https://sso.example.org/cas' } }, 'tokens.issuer: disagrees with server.publicUrl and server.basePath, which make https://cas.example.org/cas: leave it unset, or set it to that'],
    ['a hash that is not argon2', { users: [{ username: 'bob', passwordHash: '$2b$10$abc' }] }, 'users[0].passwordHash: expected an argon2 PHC string'],
    ['a placeholder argon2 hash', { users: [{ username: 'bob', password: 'x' }, { username: 'alice', passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$...' }] }, 'users[1].passwordHash: user "alice": argon2 cannot verify against this hash (Decoding failed)'],
    ['an argon2 hash with a memory cost too small', { users: [{ username: 'alice', passwordHash: '$argon2id$v=19$m=1,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo' }] }, 'users[0].passwordHash: user "alice": argon2 cannot verify against this hash (Memory cost is too small)'],
    ['a truncated argon2 hash', { users: [{ username: 'alice', passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$' }] }, 'users[0].passwordHash: user "alice": argon2 cannot verify against this hash'],
    ['an attribute value that is a number', { users: [{ username: 'bob', password: 'x', attributes: { age: 42 } }] }, 'users[0].attributes.age: expected a string or a list of strings'],
    ['the same username twice', { users: [{ username: 'bob', password: 'x' }, { username: 'bob', password: 'y' }] }, 'users[1].username: duplicate username "bob"'],
    ['an unknown user field', { users: [{ username: 'bob', password: 'x', role: 'admin' }] }, 'users[0].role: unknown setting'],
    ['a service without serviceId', { services: [{ name: 'App' }] }, 'services[0].serviceId: is required (a regular expression)'],
    ['a service with a broken regex', { services: [app, { name: 'B', serviceId: '^(https' }] }, 'services[1].serviceId: is not a valid regular expression'],
    ['a service with enabled as text', { services: [{ ...app, accessStrategy: { enabled: 'yes' } }] }, 'services[0].accessStrategy.enabled: must be a boolean'],
    ['a service that is not an object', { services: ['https://app'] }, 'services[0]: must be a JSON object'],
    ['two services with one id', { services: [{ ...app, id: 3 }, { ...app, name: 'Other', id: 3 }] }, 'services[1].id: duplicate id 3'],
    ['services as a map', { services: { app } }, 'services: expected a list of service definitions'],
    ['an empty services directory path', { servicesDirectory: '' }, 'servicesDirectory: expected a folder path'],
    ['demo as text', { demo: 'on' }, 'demo: expected true or false'],
    ['the demo on MongoDB', { demo: true, storage: { type: 'mongo', mongo: { uri: 'mongodb://db:27017' } } }, 'demo: cannot be used with storage.type mongo'],
    ['an unknown storage type', { storage: { type: 'etcd' } }, 'storage.type: expected memory, mongo or redis'],
    ['the demo on Redis', { demo: true, storage: { type: 'redis', redis: { url: 'redis://r:6379' } } }, 'demo: cannot be used with storage.type redis'],
    ['redis storage without a server', { storage: { type: 'redis' } }, 'storage.redis.url: required when storage.type is redis (or storage.redis.cluster.nodes)'],
    ['redis storage with a URL and a cluster', { storage: { type: 'redis', redis: { url: 'redis://r:6379', cluster: { nodes: ['redis://h1:7000'] } } } }, 'storage.redis.cluster: set either storage.redis.url or storage.redis.cluster, not both'],
    ['a Redis URL of another scheme', { storage: { redis: { url: 'http://r:6379' } } }, 'storage.redis.url: expected a Redis URL (redis://host:6379 or rediss://… for TLS)'],
    ['a Redis URL without a host', { storage: { redis: { url: 'redis://' } } }, 'storage.redis.url: expected a Redis URL'],
    ['a cluster without nodes', { storage: { redis: { cluster: { nodes: [] } } } }, 'storage.redis.cluster.nodes: expected at least one Redis URL'],
    ['a cluster node that is not a URL', { storage: { redis: { cluster: { nodes: ['redis://h1:7000', 'h2:7001'] } } } }, 'storage.redis.cluster.nodes[1]: expected a Redis URL (redis://host:7000)'],
    ['an unknown cluster setting', { storage: { redis: { cluster: { node: ['redis://h1:7000'] } } } }, 'storage.redis.cluster.node: unknown setting'],
    ['a key prefix with a hash tag', { storage: { redis: { keyPrefix: '{sso}:' } } }, 'storage.redis.keyPrefix: expected up to 64 characters without spaces, { or }'],
    ['a command timeout of 0', { storage: { redis: { commandTimeoutMs: 0 } } }, 'storage.redis.commandTimeoutMs: expected a number from 1 to 600000'],
    ['a connect timeout as text', { storage: { redis: { connectTimeoutMs: 'soon' } } }, 'storage.redis.connectTimeoutMs: expected a number from 1 to 600000'],
    ['mongo storage without a URI', { storage: { type: 'mongo' } }, 'storage.mongo.uri: required when storage.type is mongo'],
    ['a MongoDB URI of another scheme', { storage: { mongo: { uri: 'http://db:27017' } } }, 'storage.mongo.uri: expected a MongoDB connection string'],
    ['a database name with a dot', { storage: { mongo: { database: 'sso.prod' } } }, 'storage.mongo.database: expected a database name'],
    ['a collection prefix with a space', { storage: { mongo: { collectionPrefix: 'my sso' } } }, 'storage.mongo.collectionPrefix: expected letters, digits, _ or -'],
    ['a configuration that is not a map', 'port: 8080', '(configuration): expected a map of settings'],
  ];

  for (const [what, raw, expected] of badSettings) {
    it(`names the setting: ${what}`, () => {
      expect(problems(raw).some((line) => line.startsWith(expected)), problems(raw).join('\n')).to.equal(true);
    });
  }

  it('reports every problem at once, one line each', () => {
    const lines = problems({ server: { port: -1, host: '' }, rest: { revision: 'x' } });
    expect(lines).to.have.length(3);
    expect(lines.map((line) => line.split(':')[0])).to.have.members(['server.port', 'server.host', 'rest.revision']);
  });

  it('a bad password is never echoed in a problem', () => {
    const lines = problems({ users: [{ username: 'bob', password: 'Sup3r-Secret', passwordHash: 'Other-Secret' }] });
    expect(lines.join('\n')).to.not.match(/Sup3r-Secret|Other-Secret/);
  });
});
