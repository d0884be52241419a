import type { Config } from './schema.js';
import { servicesSchema } from './services.js';
import { usersSchema } from './users.js';

/** The demo of the README walkthrough; on when tessera starts without any configuration. */
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
  },
]);

/** Adds the demo user and service, unless a configured one has the same username or id. */
export function withDemo(config: Config): Config {
  const users = DEMO_USERS.filter((demo) => !config.users.some((user) => user.username === demo.username));
  const services = DEMO_SERVICES.filter((demo) => !config.services.some((service) => service.id === demo.id));
  return { ...config, users: [...config.users, ...users], services: [...config.services, ...services] };
}
