import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ConfigurationError, parseConfig, startServer, type RunningServer } from '@tessera/cli-server';
import { Argon2PasswordHasher } from '@tessera/core';
import { FixedClock, freePort } from '@tessera/testkit';
import { TestPki } from '@tessera/testkit/pki';

interface Started {
  readonly server: RunningServer;
  readonly logs: Record<string, unknown>[];
}

async function start(raw: Record<string, unknown>, logs: Record<string, unknown>[] = []): Promise<Started> {
  const log = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>));
      done();
    },
  });
  const auditLog = new Writable({ write: (_chunk, _encoding, done) => done() });
  const server = await startServer({ config: parseConfig({ ...raw, server: { port: 0, ...(raw['server'] as object) } }), log, auditLog });
  return { server, logs };
}

const refuses = (url: string) =>
  fetch(url).then(
    () => false,
    () => true,
  );

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain' },
  body: new URLSearchParams(fields).toString(),
});

// start, the ready line, module switches, graceful close
describe('startServer', () => {
  const running: RunningServer[] = [];
  async function started(raw: Record<string, unknown>): Promise<Started> {
    const result = await start(raw);
    running.push(result.server);
    return result;
  }
  afterEach(() => Promise.all(running.splice(0).map((server) => server.close())));

  it('listens on the real port and logs one ready line with the URL', async () => {
    const { server, logs } = await started({ server: { basePath: '/sso' } });
    expect(server.port).to.be.above(0);
    expect(server.url).to.equal(`http://127.0.0.1:${server.port}/sso`);
    const ready = logs.filter((line) => String(line['msg']).includes(server.url));
    expect(ready.map((line) => line['msg'])).to.deep.equal([`tessera ready at ${server.url}`]);
  });

  it('serves the composed app: configured users log in, ticket ids carry the node name', async () => {
    const { server } = await started({ server: { nodeName: 'node7' }, users: [{ username: 'alice', password: 'secret' }] });
    const response = await fetch(`${server.url}/v1/tickets`, form({ username: 'alice', password: 'secret' }));
    expect(response.status).to.equal(201);
    expect(await response.text()).to.match(/^TGT-\d+-[A-Za-z0-9-]+-node7$/);
  });

  it('warns about demo credentials and plain passwords, naming the user but never the password', async () => {
    const { logs } = await started({ demo: true, users: [{ username: 'alice', password: 'Sup3r-Secret' }] });
    const warnings = logs.filter((line) => line['level'] === 'warn').map((line) => String(line['msg']));
    expect(warnings.some((msg) => /DEMO CREDENTIALS ARE ON/.test(msg))).to.equal(true);
    expect(warnings.some((msg) => msg.includes('user alice has a plain-text password'))).to.equal(true);
    // The demo service accepts every URL on purpose: the demo warning says so, not one about its host.
    expect(warnings.filter((msg) => msg.includes('is not pinned'))).to.deep.equal([]);
    expect(JSON.stringify(logs)).to.not.include('Sup3r-Secret');
    expect(JSON.stringify(logs)).to.not.include('Mellon');
  });

  it('warns about each service whose host is not pinned, naming it, and still serves it', async () => {
    const services = [
      { '@class': 'org.apereo.cas.services.CasRegisteredService', id: 3, name: 'Intranet', serviceId: '^https://intranet\\.example\\.org.*' },
      { '@class': 'org.apereo.cas.services.CasRegisteredService', id: 4, name: 'Pinned', serviceId: '^https://pinned\\.example\\.org/.*' },
    ];
    const { server, logs } = await started({ services, users: [{ username: 'alice', passwordHash: await new Argon2PasswordHasher().hash('secret') }] });
    const warnings = logs.filter((line) => line['level'] === 'warn');
    expect(warnings.map(({ serviceId, name, msg }) => ({ serviceId, name, msg }))).to.deep.equal([
      {
        serviceId: 3,
        name: 'Intranet',
        msg: 'service "Intranet" (id 3): its host is not pinned: serviceId ^https://intranet\\.example\\.org.* does not end the host, so it also matches URLs of other hosts (<host>.evil.example, <host>@evil.example); end the host with /, :port, ? or $',
      },
    ]);
    const tgt = await (await fetch(`${server.url}/v1/tickets`, form({ username: 'alice', password: 'secret' }))).text();
    expect((await fetch(`${server.url}/v1/tickets/${tgt}`, form({ service: 'https://intranet.example.org.evil.example/' }))).status).to.equal(200);
  });

  it('warns about each key file others than its owner may read, naming it and its mode, never its content; and still starts', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'tessera-modes-'));
    const secret = randomBytes(32).toString('base64url');
    const loginKey = join(directory, 'login-key.json');
    writeFileSync(loginKey, JSON.stringify({ secret }), { mode: 0o644 });
    chmodSync(loginKey, 0o644);
    const tokenKeys = join(directory, 'token-keys.json');
    const issued = await (await new TestPki(new FixedClock().now()).rootAuthority()).issue({ subject: 'CN=tessera.example.org' });
    const tls = { cert: join(directory, 'server.pem'), key: join(directory, 'server.key') };
    writeFileSync(tls.cert, issued.pem);
    writeFileSync(tls.key, issued.privateKeyPem, { mode: 0o640 });
    chmodSync(tls.key, 0o640);
    const settings = { modules: ['rest', 'login', 'tokens'], login: { keyFile: loginKey }, tokens: { keyFile: tokenKeys }, server: { tls } };
    const exposed = (logs: Record<string, unknown>[]) => logs.filter((line) => line['level'] === 'warn' && line['setting'] !== undefined).map(({ setting, file, mode, msg }) => ({ setting, file, mode, msg }));

    const { logs } = await started(settings);
    expect(exposed(logs)).to.deep.equal([
      {
        setting: 'server.tls.key',
        file: tls.key,
        mode: '0640',
        msg: `server.tls.key ${tls.key} is open to users other than its owner (mode 0640): whoever can read it holds this server's keys; make it readable by tessera's user only (chmod 600; on a Kubernetes secret volume, defaultMode 0400)`,
      },
      {
        setting: 'login.keyFile',
        file: loginKey,
        mode: '0644',
        msg: `login.keyFile ${loginKey} is open to users other than its owner (mode 0644): whoever can read it holds this server's keys; make it readable by tessera's user only (chmod 600; on a Kubernetes secret volume, defaultMode 0400)`,
      },
    ]);
    expect(JSON.stringify(logs)).to.not.include(secret);
    // The token key file did not exist: written 0600 now, no warning next time, nor for the others once chmod 600.
    expect(statSync(tokenKeys).mode & 0o777).to.equal(0o600);
    chmodSync(loginKey, 0o600);
    chmodSync(tls.key, 0o600);
    expect(exposed((await started(settings)).logs)).to.deep.equal([]);
  });

  it('names each key file it generated, by its setting and absolute path; none it only read', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'tessera-written-'));
    const settings = {
      modules: ['rest', 'login', 'oidc'],
      server: { publicUrl: 'https://sso.example.org' },
      login: { keyFile: join(directory, 'login-key.json') },
      oidc: { keyFile: join(directory, 'oidc-keys.json') },
    };
    const written = (logs: Record<string, unknown>[]) => logs.filter((line) => line['level'] === 'info' && line['setting'] !== undefined).map(({ setting, file, msg }) => ({ setting, file, msg }));
    const first = written((await started(settings)).logs);
    expect(first).to.deep.equal(
      (['login.keyFile', 'oidc.keyFile'] as const).map((setting) => {
        const file = setting === 'login.keyFile' ? settings.login.keyFile : settings.oidc.keyFile;
        return { setting, file, msg: `${setting}: generated new keys and wrote them to ${file} (mode 0600); keep it out of version control, and give every node the same file` };
      }),
    );
    expect(statSync(settings.oidc.keyFile).mode & 0o777).to.equal(0o600);
    expect(written((await started(settings)).logs)).to.deep.equal([]);
  });

  it('warns when it listens beyond loopback without server.publicUrl', async () => {
    const publicUrlWarnings = (logs: Record<string, unknown>[]) => logs.filter((line) => line['level'] === 'warn' && String(line['msg']).startsWith('server.publicUrl is not set'));
    expect(publicUrlWarnings((await started({ server: { host: '0.0.0.0' } })).logs)).to.have.length(1);
    expect(publicUrlWarnings((await started({ server: { host: '0.0.0.0', publicUrl: 'https://cas.example.org' } })).logs)).to.have.length(0);
    expect(publicUrlWarnings((await started({})).logs)).to.have.length(0);
  });

  it('with the rest module off, /v1/tickets is 404 and validation still answers', async () => {
    const { server } = await started({ modules: [], users: [{ username: 'alice', password: 'secret' }] });
    expect((await fetch(`${server.url}/v1/tickets`, form({ username: 'alice', password: 'secret' }))).status).to.equal(404);
    const validation = await fetch(`${server.url}/p3/serviceValidate?service=https%3A%2F%2Fapp&ticket=ST-1-abc`);
    expect(validation.status).to.equal(400);
    expect(await validation.text()).to.include('INVALID_TICKET');
  });

  it('close() refuses new connections and closes idle keep-alive connections after the drain, not at the timeout', async () => {
    const { server } = await started({ server: { shutdownTimeoutSeconds: 3600 } });
    // fetch keeps the connection alive after this answer.
    expect((await fetch(`${server.url}/v1/tickets/TGT-1-none`)).status).to.equal(404);
    await server.close();
    await server.close();
    expect(await refuses(`${server.url}/v1/tickets/TGT-1-none`)).to.equal(true);
  });

  it('a port in use is an error, not a silent start', async () => {
    const { server } = await started({});
    let failure: unknown;
    await start({ server: { port: server.port } }).catch((error: unknown) => (failure = error));
    expect((failure as NodeJS.ErrnoException | undefined)?.code).to.equal('EADDRINUSE');
  });

  it('close() logs stopping, then stopped as the last line, once every other part has closed', async () => {
    const { server, logs } = await started({ server: { shutdownTimeoutSeconds: 3600 } });
    await server.close();
    const messages = logs.map((line) => String(line['msg']));
    expect(messages.slice(-2)).to.deep.equal(['tessera stopping: requests in flight may finish', 'tessera stopped']);
  });

  it('a start that fails once the admin listener listens (the main port in use, a bad TLS key) closes it again, and logs neither ready nor stopped', async () => {
    const { server } = await started({});
    const adminPort = await freePort();
    const failures = [
      { server: { port: server.port }, admin: { port: adminPort } },
      { server: { tls: { cert: '/nonexistent/server.pem', key: '/nonexistent/server-key.pem' } }, admin: { port: adminPort } },
    ];
    const errors: unknown[] = [];
    const logs: Record<string, unknown>[] = [];
    for (const raw of failures) {
      await start(raw, logs).then(
        (unexpected) => (running.push(unexpected.server), expect.fail('expected the start to fail')),
        (error: unknown) => errors.push(error),
      );
      expect(await refuses(`http://127.0.0.1:${adminPort}/health/live`)).to.equal(true);
    }
    expect((errors[0] as NodeJS.ErrnoException).code).to.equal('EADDRINUSE');
    expect(errors[1]).to.be.instanceOf(ConfigurationError);
    expect(logs.map((line) => String(line['msg'])).filter((msg) => msg.startsWith('tessera '))).to.deep.equal([]);
  });
});
