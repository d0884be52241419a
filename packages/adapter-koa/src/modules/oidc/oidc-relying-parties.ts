import type { JsonValue, RecordStores, RelyingPartyOfUrl, RelyingPartyResolver, ServiceRegistry } from '@tessera/core';
import { OIDC_CLIENT } from '@tessera/core/modules/oidc';
import { literalUrlOf } from './oidc-provider.js';
import { interactionOfCallback, refusalUrl } from './oidc-routes.js';

/** What the provider keeps of an interaction, as far as its client goes. */
interface InteractionPayload {
  readonly params?: { readonly client_id?: JsonValue; readonly redirect_uri?: JsonValue };
}

/**
 * The login callback of an interaction (`<issuer>/interaction/<uid>/login`) stands for the client whose
 * authorization it finishes: /login, the ST it issues and the hand-over at the callback answer for that
 * client's registered service, every rule of its definition applied as to a CAS service's. A callback
 * whose interaction is gone (finished, expired, never made) stands for nothing.
 */
export class OidcRelyingParties implements RelyingPartyResolver {
  private readonly interactions;

  constructor(
    private readonly issuer: string,
    private readonly registry: ServiceRegistry,
    records: RecordStores,
  ) {
    // The provider's Interaction model, as the record adapter stores it (record-adapter.ts).
    this.interactions = records.namespace<InteractionPayload & { readonly [key: string]: JsonValue }>('oidc.interaction');
  }

  async resolve(url: string): Promise<RelyingPartyOfUrl | null | undefined> {
    const uid = interactionOfCallback(this.issuer, url);
    if (uid === undefined) return undefined;
    const params = (await this.interactions.get(uid))?.params;
    const clientId = params?.client_id;
    if (typeof clientId !== 'string') return null;
    const service = (await this.registry.list()).find((candidate) => OIDC_CLIENT.of(candidate)?.clientId === clientId);
    if (service === undefined) return null;
    const redirectUri = typeof params?.redirect_uri === 'string' ? params.redirect_uri : literalUrlOf(service.serviceId);
    return { service, shownUrl: redirectUri ?? this.issuer, policyUrl: service.serviceId, refusalUrl: refusalUrl(this.issuer, uid) };
  }
}
