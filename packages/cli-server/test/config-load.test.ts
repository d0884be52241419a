import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError, demoStateFolder, describeProblems, environmentOverrides, loadConfig, type LoadOptions } from '@tessera/cli-server';

function tempFile(name: string, content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tessera-config-')), name);
  writeFileSync(file, content);
  return file;
}

function loadError(options: Parameters<typeof loadConfig>[0]): string {
  try {
    loadConfig(options);
  } catch (error) {
    if (error instanceof ConfigurationError) return error.message;
    throw error;
  }
  return expect.fail('expected a ConfigurationError');
}

const YAML = `
server:
  port: 8081
  basePath: /sso
users:
  - username: bob
    password: builder
    attributes:
      mail: bob@example.org
services:
  - "@class": org.apereo.cas.services.CasRegisteredService
    id: 7
    name: Bob
    serviceId: "^https://bob\\\\.example\\\\.org/.*"
`;

// configuration from a file plus TESSERA_* overrides; the demo only without configuration
describe('configuration loading', () => {
  it('reads a YAML file', () => {
    const config = loadConfig({ file: tempFile('tessera.yaml', YAML), env: {} });
    expect(config.server.port).to.equal(8081);
    expect(config.server.basePath).to.equal('/sso');
    expect(config.users).to.deep.equal([{ username: 'bob', password: { kind: 'plain', value: 'builder' }, attributes: { mail: ['bob@example.org'] } }]);
    expect(config.services.map((service) => [service.id, service.serviceId])).to.deep.equal([[7, '^https://bob\\.example\\.org/.*']]);
    expect(config.demo).to.equal(false);
  });

  it('reads a JSON file', () => {
    const file = tempFile('tessera.json', JSON.stringify({ server: { trustProxy: true }, protocol: { validationFailureStatus: 200 } }));
    const config = loadConfig({ file, env: {} });
    expect(config.server.trustProxy).to.equal(true);
    expect(config.protocol.validationFailureStatus).to.equal(200);
  });

  it('TESSERA_* variables override the file: "__" between levels, UPPER_SNAKE as camelCase, JSON values', () => {
    const env = {
      TESSERA_SERVER__PORT: '9000',
      TESSERA_SERVER__TRUST_PROXY: 'true',
      TESSERA_SERVER__HOST: '0.0.0.0',
      TESSERA_TICKETS__ST__TIME_TO_LIVE_SECONDS: '30',
      TESSERA_MODULES: '["rest"]',
      PATH: '/usr/bin',
    };
    const config = loadConfig({ file: tempFile('tessera.yaml', YAML), env });
    expect(config.server).to.include({ port: 9000, trustProxy: true, host: '0.0.0.0', basePath: '/sso' });
    expect(config.tickets.st.timeToLiveSeconds).to.equal(30);
    expect(config.users.map((user) => user.username)).to.deep.equal(['bob']);
  });

  it('environment names map onto settings', () => {
    expect(environmentOverrides({ TESSERA_SERVICES_DIRECTORY: '/srv/services', TESSERA_REST__REVISION: 'earlier', HOME: '/root' })).to.deep.equal({
      servicesDirectory: '/srv/services',
      rest: { revision: 'earlier' },
    });
  });

  it('every storage.redis setting comes from the environment too, cluster nodes as a JSON list', () => {
    const env = {
      TESSERA_STORAGE__TYPE: 'redis',
      TESSERA_STORAGE__REDIS__CLUSTER__NODES: '["redis://:pw@h1:7000","redis://h2:7001"]',
      TESSERA_STORAGE__REDIS__KEY_PREFIX: 'sso:',
      TESSERA_STORAGE__REDIS__CONNECT_TIMEOUT_MS: '3000',
      TESSERA_STORAGE__REDIS__COMMAND_TIMEOUT_MS: '250',
    };
    const config = loadConfig({ file: tempFile('tessera.yaml', YAML), env });
    expect(config.storage.type).to.equal('redis');
    expect(config.storage.redis).to.deep.equal({ cluster: { nodes: ['redis://:pw@h1:7000', 'redis://h2:7001'] }, keyPrefix: 'sso:', connectTimeoutMs: 3000, commandTimeoutMs: 250 });
    const standalone = loadConfig({ file: tempFile('tessera.yaml', YAML), env: { TESSERA_STORAGE__TYPE: 'redis', TESSERA_STORAGE__REDIS__URL: 'rediss://:pw@r.example.org:6380' } });
    expect(standalone.storage.redis).to.deep.include({ url: 'rediss://:pw@r.example.org:6380', keyPrefix: 'tessera:', connectTimeoutMs: 2000, commandTimeoutMs: 1000 });
  });

  it('a bad Redis URL is reported without echoing it, so a password in it stays out of the output', () => {
    const message = loadError({ env: { TESSERA_STORAGE__TYPE: 'redis', TESSERA_STORAGE__REDIS__URL: 'http://:hunter2@r:6379' } });
    expect(message).to.include('storage.redis.url: expected a Redis URL');
    expect(message).to.not.include('hunter2');
  });

  it('--port overrides both the file and the environment', () => {
    const config = loadConfig({ file: tempFile('tessera.yaml', YAML), env: { TESSERA_SERVER__PORT: '9000' }, port: '0' });
    expect(config.server.port).to.equal(0);
  });

  it('bad values from the environment or --port name the setting', () => {
    expect(loadError({ env: { TESSERA_SERVER__PORT: 'eighty' } })).to.include('server.port: expected a number from 0 to 65535');
    expect(loadError({ env: { TESSERA_SERVR__PORT: '80' } })).to.include('servr: unknown setting');
    expect(loadError({ env: {}, port: 'x' })).to.include('server.port: expected a number from 0 to 65535');
  });

  it('a problem with a value from the environment or --port names the variable or option too', () => {
    const problems = (options: LoadOptions) => {
      try {
        loadConfig(options);
      } catch (error) {
        if (error instanceof ConfigurationError) return describeProblems(error, options);
        throw error;
      }
      return expect.fail('expected a ConfigurationError');
    };
    const file = tempFile('tessera.yaml', 'rest:\n  revision: old\n');
    expect(problems({ file, env: { TESSERA_SERVER__PORT: 'eighty' } })).to.deep.equal([
      'server.port (TESSERA_SERVER__PORT): expected a number from 0 to 65535',
      'rest.revision: expected current or earlier',
    ]);
    expect(problems({ file, env: { TESSERA_SERVER: '{"port": "eighty"}' } })).to.include('server.port (TESSERA_SERVER): expected a number from 0 to 65535');
    expect(problems({ env: { TESSERA_SERVER__PORT: '1' }, port: 'x' })).to.deep.equal(['server.port (--port): expected a number from 0 to 65535']);
    expect(problems({ env: { TESSERA_SERVR__PORT: '80' } })).to.deep.equal(['servr (TESSERA_SERVR__PORT): unknown setting']);
    expect(problems({ env: { TESSERA_USERS: '[{"username": "bob", "password": "x", "attributes": 5}]' } })[0]).to.match(/^users\[0\]\.attributes \(TESSERA_USERS\): /);
  });

  it('a missing or unreadable file is reported as --config', () => {
    expect(loadError({ file: join(tmpdir(), 'no-such-tessera.yaml'), env: {} })).to.match(/^--config: cannot read .*no-such-tessera\.yaml \(ENOENT\)/);
    expect(loadError({ file: tempFile('broken.yaml', 'server: [port: 1'), env: {} })).to.match(/^--config: .*broken\.yaml is not valid YAML/);
    expect(loadError({ file: tempFile('broken.json', '{"server":'), env: {} })).to.match(/^--config: .*broken\.json is not valid JSON/);
    expect(loadError({ file: tempFile('list.yaml', '- server'), env: {} })).to.match(/^--config: .*list\.yaml must hold a map of settings/);
  });

  describe('demo defaults', () => {
    it('without a config file: casuser (staff, faculty) and a demo service for any http(s) URL', () => {
      const config = loadConfig({ env: {} });
      expect(config.demo).to.equal(true);
      expect(config.users).to.deep.equal([
        { username: 'casuser', password: { kind: 'plain', value: 'Mellon' }, attributes: { mail: ['casuser@example.org'], memberOf: ['staff', 'faculty'] } },
      ]);
      expect(config.services).to.have.length(1);
      expect(config.services[0]).to.include({ id: 1, name: 'Demo: any http(s) URL', serviceId: '^https?://.*' });
      expect(config.services[0]!.attributeRelease).to.deep.equal({ type: 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' });
    });

    it('not with a config file, even an empty one', () => {
      const config = loadConfig({ file: tempFile('empty.yaml', ''), env: {} });
      expect(config.demo).to.equal(false);
      expect(config.users).to.deep.equal([]);
      expect(config.services).to.deep.equal([]);
    });

    it('not when the environment gives users or services', () => {
      const withUsers = loadConfig({ env: { TESSERA_USERS: '[{"username":"eve","password":"x"}]' } });
      expect(withUsers.demo).to.equal(false);
      expect(withUsers.users.map((user) => user.username)).to.deep.equal(['eve']);
      expect(withUsers.services).to.deep.equal([]);
      expect(loadConfig({ env: { TESSERA_SERVICES: '[]' } }).demo).to.equal(false);
    });

    it('keeps the key files a demo writes in the user\'s state folder, never in the working directory; named ones where they are named', () => {
      const state = process.env['XDG_STATE_HOME']!;
      const demo = loadConfig({ env: { TESSERA_MODULES: '["rest","tokens"]' } });
      expect(demo.modules).to.include('login');
      expect(demo.login.keyFile).to.equal(join(state, 'tessera', 'tessera-login-key.json'));
      expect(demo.tokens.keyFile).to.equal(join(state, 'tessera', 'tessera-token-keys.json'));
      const named = loadConfig({ env: { TESSERA_LOGIN__KEY_FILE: '/etc/tessera/login-key.json' } });
      expect(named.login.keyFile).to.equal('/etc/tessera/login-key.json');
      const configured = loadConfig({ file: tempFile('plain.yaml', 'modules: [rest, login]\n'), env: {} });
      expect(configured.login.keyFile).to.equal('tessera-login-key.json');
    });

    it('the demo state folder: $XDG_STATE_HOME/tessera when absolute, else ~/.local/state/tessera', () => {
      expect(demoStateFolder({ XDG_STATE_HOME: '/srv/state' })).to.equal('/srv/state/tessera');
      expect(demoStateFolder({ XDG_STATE_HOME: 'relative/state' })).to.equal(join(homedir(), '.local', 'state', 'tessera'));
      expect(demoStateFolder({})).to.equal(join(homedir(), '.local', 'state', 'tessera'));
    });

    it('demo: true adds to the configured users and services without replacing them', () => {
      const config = loadConfig({ file: tempFile('demo.yaml', `${YAML}demo: true\n`), env: {} });
      expect(config.users.map((user) => user.username)).to.deep.equal(['bob', 'casuser']);
      expect(config.services.map((service) => service.id)).to.deep.equal([7, 1]);
    });
  });
});
