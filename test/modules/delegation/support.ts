import { createServer } from 'node:net';
import { OTHER_SERVICE, servicesWith, startLogin } from '../login/support.js';
import type { Tessera } from '../../support/tessera.js';

export const POLICY_CLASS = 'org.apereo.cas.services.DefaultRegisteredServiceDelegatedAuthenticationPolicy';

/** A CAS service of this host whose access strategy holds this delegated-authentication policy. */
export function delegatedService(id: number, host: string, policy: Record<string, unknown>): Record<string, unknown> {
  return {
    '@class': 'org.apereo.cas.services.CasRegisteredService',
    id,
    name: host,
    serviceId: `^https://${host.replaceAll('.', '\\.')}/.*`,
    attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
    accessStrategy: { '@class': 'org.apereo.cas.services.DefaultRegisteredServiceAccessStrategy', delegatedAuthenticationPolicy: { '@class': POLICY_CLASS, ...policy } },
  };
}

/** Two upstream providers, in button order: a CAS server and an OpenID provider (neither reached by these tests). */
export const PROVIDERS = [
  { id: 'partner', type: 'cas', title: 'Partner University', cas: { serverUrl: 'https://cas.partner.example/cas' } },
  { id: 'company', type: 'oidc', title: 'Example Corp', logoUrl: 'https://login.example.com/logo.svg', oidc: { issuer: 'https://login.example.com', clientId: 'tessera' } },
];

/** Tessera with the login and delegation modules, the two providers, and services of each policy; its public URL on a loopback port of its own. */
export async function startDelegation(overrides: Record<string, unknown> = {}, options: Parameters<typeof startLogin>[1] = {}): Promise<Tessera> {
  const port = await freePort();
  return startLogin({
    server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: `http://localhost:${port}` },
    modules: ['rest', 'login', 'delegation'],
    delegation: { providers: PROVIDERS },
    services: servicesWith(
      OTHER_SERVICE,
      delegatedService(40, 'partner-only.example.org', { allowedProviders: ['java.util.ArrayList', ['partner']] }),
      delegatedService(41, 'exclusive.example.org', { allowedProviders: ['java.util.ArrayList', ['company']], exclusive: true }),
      delegatedService(42, 'none.example.org', { permitUndefined: false }),
      delegatedService(43, 'both-exclusive.example.org', { exclusive: true }),
    ),
    ...overrides,
  }, options);
}

/** A loopback port free now: the public URL names it before the server starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}
