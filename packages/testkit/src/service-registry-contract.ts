import { expect } from 'chai';
import { RETURN_ALLOWED_ATTRIBUTES, type ServicePolicy, type ServiceRegistry } from '@tessera/core';
import { twoNodes, type AnotherNode } from './another-node.js';
import { aRegisteredService } from './builders.js';

export type ServiceRegistryFactory = () => ServiceRegistry | Promise<ServiceRegistry>;

/** The ServiceRegistry contract (core's ports/service-registry.ts); each case starts from an empty registry. */
export function describeServiceRegistry(name: string, factory: ServiceRegistryFactory, anotherNode?: AnotherNode<ServiceRegistry>): void {
  describe(`ServiceRegistry contract: ${name}`, () => {
    let registry: ServiceRegistry;
    let other: ServiceRegistry;

    beforeEach(async () => {
      [registry, other] = await twoNodes(factory, anotherNode);
    });

    it('finds a saved service by id with every field equal, with and without optional fields', async () => {
      const full = aRegisteredService({
        description: 'Staff portal',
        logo: 'https://app.example.org/logo.png',
        informationUrl: 'https://app.example.org/about',
        privacyUrl: 'https://app.example.org/privacy',
        evaluationOrder: 7,
        accessStrategy: {
          enabled: true,
          ssoEnabled: false,
          requiredAttributes: { memberOf: ['staff', 'admins'] },
          requireAllAttributes: false,
          caseInsensitive: true,
          rejectedAttributes: { affiliation: ['guest'] },
          unauthorizedRedirectUrl: 'https://www.example.org/no-access',
          window: { startingDateTime: '2030-01-31T09:00:00', endingDateTime: '2030-12-31T18:00:00+01:00', zoneId: 'Europe/Paris' },
        },
        // Policies are data the store keeps as they are, nested ones included, whatever their class.
        attributeRelease: { type: 'org.example.ChainingPolicy', policies: [{ type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['mail', 'memberOf'] }] } as ServicePolicy,
        usernameProvider: { type: 'org.example.AttributeUsername', usernameAttribute: 'mail' } as ServicePolicy,
        properties: { owner: ['it@example.org'] },
        logoutType: 'BACK_CHANNEL',
        logoutUrl: 'https://app.example.org/logout',
        proxyPolicy: { kind: 'regex', pattern: '^https://app\\.example\\.org/pgtCallback$', useServiceId: false, exactMatch: false },
        expirationPolicy: { expirationDate: '2030-12-31', deleteWhenExpired: true, notifyWhenDeleted: false, notifyWhenExpired: true },
        supportedProtocols: ['CAS30', 'SAML1'],
        ticketGrantingTicketExpiration: { maxTimeToLiveInSeconds: 3600 },
        serviceTicketExpiration: { numberOfUses: 1, timeToLive: 'PT30S' },
        proxyTicketExpiration: { numberOfUses: 0 },
        proxyGrantingTicketExpiration: { maxTimeToLiveInSeconds: 600 },
        multifactorPolicy: { providers: ['mfa-example'], failureMode: 'CLOSED', bypassEnabled: false },
        singleSignOnParticipation: { kind: 'never' },
        // Modules' data is JSON the store keeps as it is, whatever its module: nested objects, lists, numbers, booleans.
        moduleData: {
          exampleClient: { clientId: 'app', scopes: ['openid', 'email'], lifetime: 300, public: false, keys: { kid: 'k1' } },
          exampleSection: { required: true },
        },
      });
      const requestRules = aRegisteredService({ accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: {}, request: { ipAddress: '^10\\.', userAgent: 'Firefox' } } });
      expect(await registry.save(requestRules)).to.deep.equal(requestRules);
      expect(await registry.findById(requestRules.id)).to.deep.equal(requestRules);
      const bare = aRegisteredService();
      expect(await registry.save(full)).to.deep.equal(full);
      await registry.save(bare);
      expect(await registry.findById(full.id)).to.deep.equal(full);
      expect(await registry.findById(bare.id)).to.deep.equal(bare);
    });

    it('returns undefined for an unknown id, and an empty list when empty', async () => {
      expect(await registry.findById(424242)).to.equal(undefined);
      expect(await registry.list()).to.deep.equal([]);
    });

    it('replaces the service with the same id, for findById and list alike', async () => {
      const first = aRegisteredService({ name: 'before' });
      const second = aRegisteredService({ id: first.id, name: 'after', serviceId: '^https://new\\.example\\.org/.*' });
      await registry.save(first);
      await registry.save(second);
      expect(await registry.findById(first.id)).to.deep.equal(second);
      expect(await registry.list()).to.deep.equal([second]);
    });

    it('lists by evaluation order, then name ignoring case, then id', async () => {
      const services = [
        aRegisteredService({ id: 1, name: 'zeta', evaluationOrder: 2 }),
        aRegisteredService({ id: 2, name: 'Beta', evaluationOrder: 1 }),
        aRegisteredService({ id: 3, name: 'alpha', evaluationOrder: 1 }),
        aRegisteredService({ id: 4, name: 'beta', evaluationOrder: 1 }),
        aRegisteredService({ id: 5, name: 'omega', evaluationOrder: -1 }),
        aRegisteredService({ id: 6, name: 'ALPHA', evaluationOrder: 1 }),
      ];
      for (const service of services) await registry.save(service);
      const listed = await registry.list();
      expect(listed.map((service) => service.id)).to.deep.equal([5, 3, 6, 2, 4, 1]);
    });

    it("orders names as core's compareServices, not by their bytes: the same URL selects the same service on every store", async () => {
      // In UTF-8 byte order (a database sort without collation) these come as app1, app_x, Zeta, École.
      const expected = ['app_x', 'app1', 'École', 'Zeta'];
      const services = ['Zeta', 'app1', 'École', 'app_x'].map((name, index) => aRegisteredService({ id: 10 + index, name, serviceId: '^https://app\\.example\\.org/.*' }));
      for (const service of services) await registry.save(service);
      expect((await registry.list()).map((service) => service.name)).to.deep.equal(expected);
      expect((await other.list()).map((service) => service.name)).to.deep.equal(expected);
    });

    it('shows a save or removal in the very next list', async () => {
      const later = aRegisteredService({ evaluationOrder: 10 });
      const earlier = aRegisteredService({ evaluationOrder: 5 });
      await registry.save(later);
      expect((await registry.list()).map((service) => service.id)).to.deep.equal([later.id]);
      await registry.save(earlier);
      expect((await registry.list()).map((service) => service.id)).to.deep.equal([earlier.id, later.id]);
      const moved = { ...earlier, evaluationOrder: 20 };
      await registry.save(moved);
      expect(await registry.list()).to.deep.equal([later, moved]);
      await registry.remove(later.id);
      expect(await registry.list()).to.deep.equal([moved]);
    });

    it('removes a service: true the first time, false after, and it is gone', async () => {
      const service = aRegisteredService();
      await registry.save(service);
      expect(await registry.remove(service.id)).to.equal(true);
      expect(await registry.remove(service.id)).to.equal(false);
      expect(await registry.findById(service.id)).to.equal(undefined);
      expect(await registry.list()).to.deep.equal([]);
    });

    it("shows one node's save, replacement and removal in the other's very next lookup and list", async () => {
      const service = aRegisteredService({ name: 'shared' });
      await registry.save(service);
      expect(await other.findById(service.id)).to.deep.equal(service);
      const replaced = { ...service, name: 'replaced' };
      await other.save(replaced);
      expect(await registry.list()).to.deep.equal([replaced]);
      expect(await other.remove(service.id)).to.equal(true);
      expect(await registry.findById(service.id)).to.equal(undefined);
    });
  });
}
