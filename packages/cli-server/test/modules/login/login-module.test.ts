import { expect } from 'chai';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ConfigurationError, loadConfig, parseConfig, startServer } from '@tessera/cli-server';
import { cryptoRandomSource } from '@tessera/core';
import { generateLoginSecret } from '@tessera/core/modules/login';
import { configProblems as problems } from '../../config-problems.js';

const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
const keyFileIn = () => join(mkdtempSync(join(tmpdir(), 'tessera-login-')), 'login-key.json');

// The login module's settings (docs/protocol.md §12): keys, branding checked for contrast, single logout.
describe('login module settings and keys', () => {
  it('needs no other module (authentication is central); its settings have defaults', () => {
    expect(parseConfig({ modules: ['login'] }).modules).to.deep.equal(['login']);
    const { login } = parseConfig({ modules: ['rest', 'login'] });
    expect(login).to.deep.equal({
      keyFile: 'tessera-login-key.json',
      formTokenLifetimeSeconds: 1800,
      language: 'en',
      branding: { title: 'tessera', colours: { background: '#ffffff', text: '#1b1f24', accent: '#1d4ed8', accentText: '#ffffff' } },
      singleLogout: { timeoutMs: 5000, attempts: 3, retryDelayMs: 1000, expiryCheckSeconds: 60, maxPerSession: 100, concurrency: 8 },
    });
  });

  it('the demo switches it on; a configuration file does not', () => {
    expect(loadConfig({ env: {} }).modules).to.deep.equal(['rest', 'login', 'proxy']);
    expect(parseConfig({}).modules).to.deep.equal(['rest']);
  });

  it('refuses colours that are not #hex or that make text hard to read, naming the setting', () => {
    expect(problems({ login: { branding: { colours: { accent: 'red; } body { display: none' } } } })).to.deep.equal([
      'login.branding.colours.accent: expected a colour such as #1d4ed8 (#rgb or #rrggbb)',
    ]);
    expect(problems({ login: { branding: { colours: { text: '#999999' } } } })).to.deep.equal([
      'login.branding.colours.text: contrast with background is 2.85:1; at least 4.5:1 is needed (WCAG AA)',
    ]);
    expect(problems({ login: { branding: { colours: { accent: '#ffff00', accentText: '#000000' } } } })).to.deep.equal([
      'login.branding.colours.accent: contrast with background is 1.07:1; at least 4.5:1 is needed (WCAG AA)',
    ]);
  });

  it('refuses a logo that is neither an https URL nor a path, a key of the wrong size, an unknown language', () => {
    expect(problems({ login: { branding: { logoUrl: 'javascript:alert(1)' } } })).to.deep.equal(['login.branding.logoUrl: expected an https URL or a path on this server such as /static/logo.svg']);
    expect(problems({ login: { key: 'c2hvcnQ' } })).to.deep.equal(['login.key: expected 32 bytes, got 5']);
    expect(problems({ login: { language: 'xx' } })).to.deep.equal(['login.language: expected en']);
    expect(problems({ login: { singleLogout: { attempts: 0 } } })).to.deep.equal(['login.singleLogout.attempts: expected a number from 1 to 10']);
    expect(problems({ login: { singleLogout: { maxPerSession: 0, concurrency: 0 } } })).to.deep.equal([
      'login.singleLogout.maxPerSession: expected a number from 1 to 10000',
      'login.singleLogout.concurrency: expected a number from 1 to 1000',
    ]);
  });

  it('writes a generated secret to the key file with mode 0600 and reads it back on the next start', async () => {
    const keyFile = keyFileIn();
    const config = parseConfig({ server: { port: 0 }, modules: ['rest', 'login'], login: { keyFile } });
    const first = await startServer({ config, log: quiet, auditLog: quiet });
    await first.close();
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    const written = readFileSync(keyFile, 'utf8');
    expect(JSON.parse(written)).to.have.property('secret').that.matches(/^[\w-]{43}$/);
    const second = await startServer({ config, log: quiet, auditLog: quiet });
    await second.close();
    expect(readFileSync(keyFile, 'utf8')).to.equal(written);
  });

  it('a key file holding no usable secret stops the start, naming login.keyFile; a configured key needs none', async () => {
    const keyFile = keyFileIn();
    writeFileSync(keyFile, '{"secret": "short"}');
    const error = await startServer({ config: parseConfig({ server: { port: 0 }, modules: ['rest', 'login'], login: { keyFile } }), log: quiet, auditLog: quiet }).then(
      async (server) => {
        await server.close();
        return expect.fail('expected the start to fail');
      },
      (thrown: unknown) => thrown,
    );
    expect(error).to.be.instanceOf(ConfigurationError);
    expect((error as Error).message).to.match(/^login\.keyFile: .*login-key\.json holds a secret that does not fit: expected 32 bytes/);
    const unused = keyFileIn();
    const server = await startServer({ config: parseConfig({ server: { port: 0 }, modules: ['rest', 'login'], login: { key: generateLoginSecret(cryptoRandomSource), keyFile: unused } }), log: quiet, auditLog: quiet });
    await server.close();
    expect(() => statSync(unused)).to.throw(/ENOENT/);
  });

  it('accepts logoutType and logoutUrl in service definitions, and refuses what tessera does not do', () => {
    const service = (extra: Record<string, unknown>) => ({ services: [{ id: 1, name: 'a', serviceId: '^https://a\\.example/.*', ...extra }] });
    expect(parseConfig(service({ logoutType: 'BACK_CHANNEL', logoutUrl: 'https://a.example/logout' })).services[0]).to.deep.include({ logoutType: 'BACK_CHANNEL', logoutUrl: 'https://a.example/logout' });
    expect(parseConfig(service({ logoutType: 'FRONT_CHANNEL' })).services[0]).to.deep.include({ logoutType: 'FRONT_CHANNEL' });
    expect(problems(service({ logoutType: 'SOMETIMES' })).join()).to.include('logoutType: must be one of NONE, BACK_CHANNEL, FRONT_CHANNEL');
    expect(problems(service({ logoutUrl: 'ftp://a.example/' })).join()).to.include('logoutUrl: must be an absolute http or https URL');
  });
});
