import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '@tessera/cli-server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Where a test may keep a key of its own, should one ever need a fixed one: a `fixtures` folder of a
 * test tree. None does today: the PKI the tests use is made at run time by testkit, and every key
 * file a test needs is generated into a temporary folder.
 */
const TEST_FIXTURES = /^(?:packages\/[^/]+\/|bench\/)?test\/(?:[^/]+\/)*fixtures\//;
/** A key file by its name, as tessera writes them (`tessera-login-key.json`, `tessera-token-keys.json`). */
const KEY_FILE_NAME = /(?:^|\/)[^/]*key[^/]*\.json$/i;
// Put together, so that this file does not hold the marker it looks for.
const PEM_PRIVATE_KEY = new RegExp(['-----BEGIN', '[A-Z0-9 ]*PRIVATE KEY-----'].join(' ?'));

/** What git tracks (the index, so a file added but not yet committed counts too), relative to the root. */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter(Boolean);
}

/** Every `keyFile` setting's value in a parsed configuration (the defaults, given none), by its path. */
function keyFileSettings(value: unknown, path = ''): [string, string][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([name, inner]): [string, string][] =>
    name === 'keyFile' && typeof inner === 'string' ? [[`${path}${name}`, inner]] : keyFileSettings(inner, `${path}${name}.`),
  );
}

/** Why a tracked file holds a secret, or undefined. A file listed but gone from the work tree holds none here. */
function secretIn(path: string): string | undefined {
  if (KEY_FILE_NAME.test(path)) return 'a key file by its name';
  let text: string;
  try {
    text = readFileSync(join(ROOT, path), 'latin1');
  } catch {
    return undefined;
  }
  return PEM_PRIVATE_KEY.test(text) ? 'a PEM private key' : undefined;
}

// A secret in the repository is public: whoever runs a checkout would seal cookies or sign tokens with it.
describe('no key or secret is tracked by git', () => {
  it('no tracked file outside test fixtures is a *key*.json file or holds a PEM private key', () => {
    const found = trackedFiles()
      .filter((path) => !TEST_FIXTURES.test(path))
      .flatMap((path) => {
        const why = secretIn(path);
        return why === undefined ? [] : [`${path}: ${why}`];
      });
    expect(found, 'remove them from git (git rm --cached), and keep generated keys out of the tree').to.deep.equal([]);
  });

  it('the key file every module writes by default, in the working directory, is ignored by git and left out of the image build', () => {
    // Every module's sections are read, with their defaults, whether or not the module is on.
    const defaults = keyFileSettings(parseConfig({}));
    expect(defaults.map(([setting]) => setting)).to.include.members(['login.keyFile', 'oidc.keyFile']);
    const dockerIgnored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const [setting, file] of defaults) {
      expect(spawnSync('git', ['check-ignore', '--quiet', '--no-index', file], { cwd: ROOT }).status, `${setting} (${file}) is ignored by git`).to.equal(0);
      expect(dockerIgnored, `${setting} (${file}) is in .dockerignore`).to.include(file);
    }
  });

  it('recognises what it looks for', () => {
    expect(KEY_FILE_NAME.test('tessera-login-key.json')).to.equal(true);
    expect(KEY_FILE_NAME.test('deploy/token-keys.json')).to.equal(true);
    expect(KEY_FILE_NAME.test('packages/cli-server/src/keys.ts')).to.equal(false);
    expect(KEY_FILE_NAME.test('package.json')).to.equal(false);
    for (const kind of ['', 'RSA ', 'EC ', 'ENCRYPTED ', 'OPENSSH ']) {
      expect(PEM_PRIVATE_KEY.test(`x\n-----BEGIN ${kind}PRIVATE KEY-----\nMIIE...`), kind).to.equal(true);
    }
    expect(PEM_PRIVATE_KEY.test('-----BEGIN CERTIFICATE-----')).to.equal(false);
    expect(TEST_FIXTURES.test('test/modules/x509/fixtures/client-key.json')).to.equal(true);
    expect(TEST_FIXTURES.test('packages/testkit/test/fixtures/key.pem')).to.equal(true);
    expect(TEST_FIXTURES.test('fixtures/key.pem')).to.equal(false);
  });
});
