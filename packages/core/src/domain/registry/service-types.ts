import type { RegisteredService } from './registered-service.js';

/**
 * A service class a module brings beside CAS's own (an OpenID Connect client, a SAML 2 service
 * provider), as core needs to know it: its classes, and whether CAS service URLs find its services.
 * Its keys and how they are read are its codec part's, its data on the service the module's
 * (`RegisteredService.moduleData`, read through the module's ServiceDataKey).
 */
export interface ServiceType {
  /** Its Apereo `@class` names, fully qualified: the one it is written with first, then the older names it is read under. */
  readonly classes: readonly string[];
  /**
   * Whether a CAS service URL finds services of this type (service-matcher.ts). A client of another
   * protocol is found by that protocol's own id (a client id, an entity id): its serviceId is a pattern
   * of its own URLs, and it gets no CAS ticket, as in Apereo CAS.
   */
  readonly matchedByServiceUrl: boolean;
}

/**
 * The service types every listed module declares, on or off, and those the server serves (their
 * module is on). A class no module declares is a CAS service (CasRegisteredService,
 * RegexRegisteredService, and any class `registration.acceptedTypes` adds).
 */
export class ServiceTypes {
  private readonly declared = new Map<string, ServiceType>();
  private readonly served: ReadonlySet<string>;

  constructor(known: readonly ServiceType[] = [], served: readonly ServiceType[] = known) {
    for (const type of known) {
      for (const name of type.classes) {
        if (this.declared.has(name)) throw new Error(`the service class ${name} is declared twice`);
        this.declared.set(name, type);
      }
    }
    const undeclared = served.flatMap((type) => type.classes).find((name) => !this.declared.has(name));
    if (undeclared !== undefined) throw new Error(`the service class ${undeclared} is served, but no module declares it`);
    this.served = new Set(served.flatMap((type) => type.classes));
  }

  /**
   * Whether CAS service URLs find this service: a CAS service's always; a module's only when its type
   * says so and its module is on. While its module is off, a service of its type behaves as an
   * unregistered one.
   */
  matchedByServiceUrl(service: Pick<RegisteredService, 'type'>): boolean {
    const type = this.declared.get(service.type);
    return type === undefined || (type.matchedByServiceUrl && this.served.has(service.type));
  }
}

/** No module's types: every service is a CAS service. */
export const CAS_SERVICES_ONLY = new ServiceTypes();
