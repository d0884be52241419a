import type { AttributeMap } from '../authentication/principal.js';

export interface AccessStrategy {
  /** Disabled behaves exactly as unregistered. */
  readonly enabled: boolean;
  /** false: every ST needs a fresh login (renew with credentials). */
  readonly ssoEnabled: boolean;
  /** Attribute name → accepted values (whole-value, case-sensitive regexes); each name needs one match. */
  readonly requiredAttributes: AttributeMap;
}

export type AttributeReleasePolicy =
  | { readonly kind: 'none' }
  | { readonly kind: 'all' }
  | { readonly kind: 'allowed'; readonly names: readonly string[] };

/** A service definition, as Apereo CAS's registered services (docs/protocol.md §4). */
export interface RegisteredService {
  readonly id: number;
  /** The CAS `@class` it was defined with, kept so the definition round-trips. */
  readonly type: string;
  readonly name: string;
  /** A regex matched case-insensitively against the whole service URL. */
  readonly serviceId: string;
  readonly description?: string;
  readonly evaluationOrder: number;
  readonly accessStrategy: AccessStrategy;
  readonly attributeRelease: AttributeReleasePolicy;
  readonly properties: AttributeMap;
}

export const CAS_REGISTERED_SERVICE = 'org.apereo.cas.services.CasRegisteredService';

/** Evaluation order, then name (case-insensitive), then id — as CAS's AbstractRegisteredService.compareTo. */
export function compareServices(a: RegisteredService, b: RegisteredService): number {
  return (
    a.evaluationOrder - b.evaluationOrder ||
    a.name.toLowerCase().localeCompare(b.name.toLowerCase()) ||
    a.id - b.id
  );
}
