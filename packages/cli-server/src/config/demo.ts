import { withDemoModules } from '../modules/index.js';
import type { Config } from './schema.js';
import { servicesSchema } from './services.js';
import { usersSchema } from './users.js';

/** The demo of the README's walkthrough and docs/getting-started.md; on when tessera starts without any configuration. */
export const DEMO_USERS = usersSchema.parse([
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

/** Adds the demo user, service and modules, unless a configured one has the same username, id or name. */
export function withDemo(config: Config): Config {
  const users = DEMO_USERS.filter((demo) => !config.users.some((user) => user.username === demo.username));
  const services = DEMO_SERVICES.filter((demo) => !config.services.some((service) => service.id === demo.id));
  return { ...config, users: [...config.users, ...users], services: [...config.services, ...services], modules: withDemoModules(config.modules) };
}
