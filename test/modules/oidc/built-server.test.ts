import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startBuilt, type Built } from '../../support/built-server.js';
import { freePort } from './support.js';

// The built server with the oidc module on, its log going to a pipe as under a process supervisor: on
// Node 20 a stat of that pipe once kept the provider's library from loading (docs/operations.md).
describe('oidc: the built server with the module on, its output a pipe', function () {
  this.timeout(30_000);
  let server: Built | undefined;
  after(async () => {
    await server?.stop();
  });

  it('starts, serves discovery at the issuer, and its stdout holds only its JSON lines', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tessera-oidc-built-'));
    const port = await freePort();
    const config = join(folder, 'tessera.yaml');
    writeFileSync(
      config,
      [
        'server:',
        '  host: 127.0.0.1',
        `  port: ${port}`,
        `  publicUrl: http://127.0.0.1:${port}`,
        'modules: [rest, login, oidc]',
        'users:',
        '  - username: alice',
        '    passwordHash: $argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$WWlQ7kP1f0Cz3rD8Vn7gWnTq7GxCzpN5Jbt7sS0Zs0s',
        'login:',
        `  keyFile: ${join(folder, 'login-key.json')}`,
        'oidc:',
        `  keyFile: ${join(folder, 'oidc-keys.json')}`,
        '',
      ].join('\n'),
    );
    server = await startBuilt(['--config', config]);
    const discovery = (await (await fetch(`${server.url}/oidc/.well-known/openid-configuration`)).json()) as { issuer: string };
    expect(discovery.issuer).to.equal(`http://127.0.0.1:${port}/cas/oidc`);
    for (const line of server.stdout().trim().split('\n')) expect(() => JSON.parse(line) as unknown, line).to.not.throw();
  });
});
