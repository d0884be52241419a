import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'packages/cli-server/dist/main.js');

/** Runs the built CLI as an operator would; its exit code and output. */
export function runTessera(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [MAIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 20_000, env: { ...process.env, NODE_OPTIONS: '', ...env } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function configFile(settings: Record<string, unknown>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tessera-services-')), 'tessera.json');
  writeFileSync(file, JSON.stringify(settings));
  return file;
}

// protocol.md §8 and issue 10 §3 — no silent open registration
describe('services module start-up', () => {
  it('refuses to start without the required attribute: exit 2 naming both settings', () => {
    const { code, stderr } = runTessera(['--config', configFile({ modules: ['rest', 'services'], server: { port: 0 } })]);
    expect(code).to.equal(2);
    expect(stderr).to.include('registration.requiredAttribute.name: is required when the services module is on');
    expect(stderr).to.include('registration.requiredAttribute.valuePattern: is required when the services module is on');
  });

  it('refuses the services module without rest, naming modules', () => {
    const registration = { requiredAttribute: { name: 'memberOf', valuePattern: 'admins' } };
    const { code, stderr } = runTessera(['--config', configFile({ modules: ['services'], registration })]);
    expect(code).to.equal(2);
    expect(stderr).to.include('modules[0]: module "services" needs module "rest", which is not enabled');
  });
});
