import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { moduleKeyFiles, withDemoModules } from '../modules/index.js';
import { configurationError } from './errors.js';
import type { Config } from './schema.js';
import { servicesSchema } from './services.js';
import { usersSchema } from './users.js';

/** The demo of the README's walkthrough and docs/getting-started.md; on when tessera starts without any configuration. */
const DEMO_USERS = usersSchema.parse([
  { username: 'casuser', password: 'Mellon', attributes: { mail: ['casuser@example.org'], memberOf: ['staff', 'faculty'] } },
]);

export const DEMO_SERVICES = servicesSchema.parse([
  {
    '@class': 'org.apereo.cas.services.CasRegisteredService',
    id: 1,
    name: 'Demo: any http(s) URL',
    serviceId: '^https?://.*',
    // After every configured service, which keep their say over their own URLs.
    evaluationOrder: 10000,
    attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
    // Any https callback may receive a PGT: the demo shows proxying, it protects nothing.
    proxyPolicy: { '@class': 'org.apereo.cas.services.RegexMatchingRegisteredServiceProxyPolicy', pattern: '^https://.*' },
  },
]);

/**
 * Adds the demo user, service and modules, unless a configured one has the same username, id or name.
 * The modules' key files the configuration does not name (`given` says which it does) are kept in
 * the demo's state folder, never in the working directory: a demo run from a checkout would otherwise
 * write its secrets where they could be committed.
 */
export function withDemo(config: Config, given: (setting: string) => boolean = () => false): Config {
  const users = DEMO_USERS.filter((demo) => !config.users.some((user) => user.username === demo.username));
  const services = DEMO_SERVICES.filter((demo) => !config.services.some((service) => service.id === demo.id));
  const demo = { ...config, users: [...config.users, ...users], services: [...config.services, ...services], modules: withDemoModules(config.modules) };
  return moduleKeyFiles(demo)
    .filter(({ setting }) => !given(setting))
    .reduce((kept, { setting, file }) => withSetting(kept, setting, join(demoStateFolder(), basename(file))), demo);
}

/**
 * Where a demo keeps the keys it generates, so that the next demo run finds them: the user's state
 * folder, `$XDG_STATE_HOME/tessera`, else `~/.local/state/tessera` (the XDG base directories).
 * Outside any checkout, they cannot be committed; in the container image it is the `node` user's home.
 */
export function demoStateFolder(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const state = env['XDG_STATE_HOME'];
  // The XDG specification: a relative path is invalid and ignored.
  return join(state !== undefined && isAbsolute(state) ? state : join(homedir(), '.local', 'state'), 'tessera');
}

/** In demo mode, the state folder the key files are kept in, created readable by its owner only. */
export function createDemoStateFolder(config: Config): void {
  if (!config.demo) return;
  const folder = demoStateFolder();
  const kept = moduleKeyFiles(config).find(({ file }) => dirname(file) === folder);
  if (kept === undefined) return;
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw configurationError([{ setting: kept.setting, problem: `cannot create ${folder} for ${kept.file} (${(error as NodeJS.ErrnoException).code ?? String(error)})` }]);
  }
}

/** The configuration with one setting, `section.name`, replaced. */
function withSetting(config: Config, setting: string, value: string): Config {
  const replaced = (object: Record<string, unknown>, [key, ...rest]: readonly string[]): Record<string, unknown> => ({
    ...object,
    [key!]: rest.length === 0 ? value : replaced(object[key!] as Record<string, unknown>, rest),
  });
  return replaced(config, setting.split('.')) as unknown as Config;
}
