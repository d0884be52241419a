import { servicePattern, type RegisteredService, type RelyingPartyOfUrl, type RelyingPartyResolver, type ServiceRegistry } from '@tessera/core';
import { policyOf, SAML_SERVICE_PROVIDER, type PendingSamlLogins, type SamlServiceProvider } from '@tessera/core/modules/saml2';
import type { SpMetadataResolver } from './metadata-resolver.js';

/** An SP as a request reaches it: its registered service (the one relying-party path decides over it) and what the protocol needs of it. */
export interface FoundServiceProvider {
  readonly service: RegisteredService;
  readonly sp: SamlServiceProvider;
}

/**
 * The registry's SamlRegisteredServices by entity id: the one whose serviceId is the entity id, else
 * the first, in evaluation order, whose serviceId matches it as a whole pattern (Apereo's regex
 * serviceIds). Its metadata is resolved from its definition (refused, naming why, when it cannot be had).
 */
export class SamlServiceProviders {
  constructor(
    private readonly registry: ServiceRegistry,
    private readonly metadata: SpMetadataResolver,
  ) {}

  async registered(entityId: string): Promise<RegisteredService | undefined> {
    const candidates = (await this.registry.list()).filter((service) => SAML_SERVICE_PROVIDER.of(service) !== undefined);
    return candidates.find((service) => service.serviceId === entityId) ?? candidates.find((service) => servicePattern(service.serviceId)?.test(entityId) === true);
  }

  async find(entityId: string): Promise<FoundServiceProvider | undefined> {
    const service = await this.registered(entityId);
    const definition = service === undefined ? undefined : SAML_SERVICE_PROVIDER.of(service);
    if (service === undefined || definition === undefined) return undefined;
    const { metadataLocation, metadataSignatureLocation } = definition;
    const metadata = await this.metadata.resolve({ entityId, metadataLocation, ...(metadataSignatureLocation !== undefined && { metadataSignatureLocation }) });
    return { service, sp: { metadata, policy: policyOf(definition) } };
  }

  /** The SP of an entity id, as the inbound checks ask for it. */
  readonly serviceProvider = async (entityId: string): Promise<SamlServiceProvider | undefined> => (await this.find(entityId))?.sp;
}

/** The login callback of a pending login: /login issues its ST for this URL, which stands for the SP's registered service. */
export function samlCallbackUrl(baseUrl: string, id: string): string {
  return `${baseUrl}${SAML_LOGIN_PATHS.callback}/${id}`;
}

/** Where /login sends a browser the SP's definition refuses, when it names no unauthorizedRedirectUrl: the SP gets RequestDenied. */
export function samlRefusedUrl(baseUrl: string, id: string): string {
  return `${baseUrl}${SAML_LOGIN_PATHS.refused}/${id}`;
}

/** The module's own URLs of a pending login, under the base path. */
export const SAML_LOGIN_PATHS = {
  callback: '/idp/profile/SAML2/Callback',
  refused: '/idp/profile/SAML2/Refused',
} as const;

/**
 * The login callback of a pending SAML login stands for its SP's registered service: /login, the ST it
 * issues and the hand-over at the callback answer for that SP's definition (access strategy, single
 * sign-on, second factor, consent), as for a CAS service matched by its URL; every release to it (the
 * consent page's too) is computed over the SP's entity id, as its assertion's. A callback whose login
 * is gone (answered, expired, never held), or whose SP is no longer registered, stands for nothing.
 */
export class SamlRelyingParties implements RelyingPartyResolver {
  constructor(
    private readonly baseUrl: string,
    private readonly pending: PendingSamlLogins,
    private readonly providers: SamlServiceProviders,
  ) {}

  async resolve(url: string): Promise<RelyingPartyOfUrl | null | undefined> {
    const prefix = `${this.baseUrl}${SAML_LOGIN_PATHS.callback}/`;
    if (!url.startsWith(prefix)) return undefined;
    const id = url.slice(prefix.length);
    const login = await this.pending.get(id);
    if (login === undefined) return null;
    const service = await this.providers.registered(login.spEntityId);
    if (service === undefined) return null;
    return { service, shownUrl: login.assertionConsumerService.location, policyUrl: login.spEntityId, refusalUrl: samlRefusedUrl(this.baseUrl, id) };
  }
}
