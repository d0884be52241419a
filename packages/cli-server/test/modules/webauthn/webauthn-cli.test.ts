import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, openStorage, parseConfig } from '@tessera/cli-server';
import { systemClock } from '@tessera/core';
import { WebAuthnDevices, type WebAuthnDevice } from '@tessera/core/modules/webauthn';
import { SeededRandomSource } from '@tessera/testkit';
import { describeWithRedis } from '@tessera/testkit/redis';
import { spawnBuiltCli } from '../../built-cli.js';

/** Runs the built CLI to its end. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnBuiltCli(args);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end();
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

const device = (credentialId: string, name: string, createdAt: number): WebAuthnDevice => ({
  credentialId,
  username: 'casuser',
  userHandle: 'handle',
  publicKey: 'key',
  counter: 3,
  transports: ['usb'],
  name,
  createdAt,
  multiDevice: false,
  backedUp: false,
});

// docs/cli.md: an administrator lists and removes a user's security keys and passkeys in the configured storage.
describe('tessera webauthn list and remove', function () {
  this.timeout(60_000);

  describeWithRedis('on Redis, where the server keeps them', (redis) => {
    let file: string;
    let devices: WebAuthnDevices;
    let storage: Awaited<ReturnType<typeof openStorage>> | undefined;
    before(async () => {
      const storageSettings = { type: 'redis', redis: { url: redis().url, keyPrefix: 'webauthn-cli:' } };
      file = join(mkdtempSync(join(tmpdir(), 'tessera-webauthn-cli-')), 'tessera.json');
      writeFileSync(file, JSON.stringify({ storage: storageSettings, users: [] }));
      const config = parseConfig({ storage: storageSettings, users: [] });
      storage = await openStorage({ config, services: [], clock: systemClock, random: new SeededRandomSource(), logger: createLogger('silent') });
      devices = new WebAuthnDevices(storage.ports.records, new SeededRandomSource('cli'), systemClock);
      await devices.add(device('first-key', 'Blue USB key', Date.UTC(2026, 0, 2)));
      await devices.add(device('second-key', 'Laptop\u001b[31m', Date.UTC(2026, 0, 1)));
    });
    after(() => storage?.close());

    it("lists the user's devices, oldest first, a name's control characters shown as ?", async () => {
      const run = await runCli(['webauthn', 'list', '--username', 'casuser', '--config', file]);
      expect(run.code, run.stderr).to.equal(0);
      const lines = run.stdout.trim().split('\n');
      expect(lines[0]).to.match(/^CREDENTIAL ID\s+NAME\s+REGISTERED\s+LAST USED\s+COUNTER\s+KIND$/);
      expect(lines.slice(1).map((line) => line.split(/\s{2,}/))).to.deep.equal([
        ['second-key', 'Laptop?[31m', '2026-01-01T00:00:00.000Z', '-', '3', 'device-bound key'],
        ['first-key', 'Blue USB key', '2026-01-02T00:00:00.000Z', '-', '3', 'device-bound key'],
      ]);
      expect((await runCli(['webauthn', 'list', '--username', 'alice', '--config', file])).stdout).to.equal('alice has no security key or passkey.\n');
    });

    it("removes one device of the user's by its credential id; another user's or an unknown id is exit 1", async () => {
      const other = await runCli(['webauthn', 'remove', '--username', 'alice', '--credential', 'first-key', '--config', file]);
      expect(other.code).to.equal(1);
      expect(other.stderr).to.equal('tessera webauthn remove: alice has no device with credential id first-key\n');
      expect(await devices.find('first-key')).to.not.equal(undefined);
      const removed = await runCli(['webauthn', 'remove', '--username', 'casuser', '--credential', 'first-key', '--config', file]);
      expect(removed.code, removed.stderr).to.equal(0);
      expect(removed.stdout).to.equal('Removed first-key of casuser.\n');
      expect((await devices.list('casuser')).map((each) => each.credentialId)).to.deep.equal(['second-key']);
    });
  });

  it('says so on memory storage, where it sees no device; a missing --username or a bad configuration is exit 2', async () => {
    const memory = await runCli(['webauthn', 'list', '--username', 'casuser']);
    expect(memory.code).to.equal(0);
    expect(memory.stderr).to.include('The storage is memory');
    expect((await runCli(['webauthn', 'list'])).code).to.equal(2);
    expect((await runCli(['webauthn', 'remove', '--username', 'casuser'])).code).to.equal(2);
    expect((await runCli(['webauthn', 'list', '--username', ' ', '--config', join(tmpdir(), 'no-such-tessera.json')])).code).to.equal(2);
    const bad = join(mkdtempSync(join(tmpdir(), 'tessera-webauthn-cli-')), 'tessera.json');
    writeFileSync(bad, JSON.stringify({ storage: { type: 'nowhere' } }));
    const invalid = await runCli(['webauthn', 'list', '--username', 'casuser', '--config', bad]);
    expect(invalid.code).to.equal(2);
    expect(invalid.stderr).to.include('storage.type');
  });
});
