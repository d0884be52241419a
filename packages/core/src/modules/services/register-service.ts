import type { Credential } from '../../domain/authentication/credential.js';
import type { Principal } from '../../domain/authentication/principal.js';
import type { RequestOrigin } from '../../domain/events.js';
import type { ServiceRefusalReason, ServiceRefusedEvent } from './events.js';
import {
  AuthenticationFailedError,
  ForbiddenError,
  InvalidConfigurationError,
  InvalidServiceDefinitionError,
  NoCredentialsError,
  TicketNotFoundError,
  UnauthenticatedError,
} from '../../domain/errors.js';
import type { RegisteredService, ServiceDefinition } from '../../domain/registry/registered-service.js';
import { compileFullMatch } from '../../domain/registry/service-matcher.js';
import { ticketFingerprint } from '../../domain/tickets/fingerprint.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { ServiceRegistry } from '../../ports/service-registry.js';
import type { TicketStore } from '../../ports/ticket-store.js';
import type { Authenticator } from '../../use-cases/authenticator.js';
import { ImportServices } from '../../use-cases/import-services.js';
import type { Refuse } from '../../use-cases/relying-party-access.js';

export interface RegistrationPolicy {
  /** Who may register: a principal attribute with a value matching the pattern (case-insensitive, whole value). */
  readonly requiredAttribute: { readonly name: string; readonly valuePattern: string };
}

/**
 * The definition a request carries, decoded from its wire format by the adapter that received it;
 * throws InvalidServiceDefinitionError when it is invalid. Called only once the caller may register,
 * so one who may not learns nothing about the definition.
 */
export type ReadServiceDefinition = () => ServiceDefinition;

export interface RegisterServiceDependencies {
  readonly authenticator: Authenticator;
  readonly tickets: TicketStore;
  readonly registry: ServiceRegistry;
  readonly random: RandomSource;
  readonly events: EventSink;
}

/**
 * Registering services over REST (docs/protocol.md §3, both revisions). A definition with an id that is
 * already stored replaces it; one without an id gets a random unused one (unusedServiceId). Saved
 * definitions take effect at once: RelyingPartyAccess reads the same registry on every request.
 */
export class RegisterService {
  private readonly valuePattern: RegExp;
  private readonly importer: ImportServices;

  constructor(
    private readonly deps: RegisterServiceDependencies,
    private readonly policy: RegistrationPolicy,
  ) {
    const pattern = compileFullMatch(policy.requiredAttribute.valuePattern, 'i');
    if (!pattern) throw new InvalidConfigurationError('registration.requiredAttribute.valuePattern', 'is not a valid regular expression');
    this.valuePattern = pattern;
    this.importer = new ImportServices(deps.registry, deps.random, deps.events);
  }

  /** POST /v1/services: the caller's own credentials (HTTP Basic), then the definition (CAS JSON). */
  async withCredentials(credentials: readonly Credential[], definition: ReadServiceDefinition, origin?: RequestOrigin): Promise<RegisteredService> {
    const principal = await this.authenticate(credentials, origin);
    const refuse = this.refuser({ principal: principal.id }, origin);
    this.authorize(principal, refuse);
    return this.save(this.read(definition, refuse), principal, origin);
  }

  /** POST /v1/services/add/{tgt}: the TGT's principal registers the service its definition (the legacy form) describes. */
  async withTicket(tgtId: string, definition: ReadServiceDefinition, origin?: RequestOrigin): Promise<RegisteredService> {
    const tgt = await this.deps.tickets.get(tgtId);
    const presented = { tgt: ticketFingerprint(tgtId) };
    if (tgt?.kind !== 'TGT') return this.refuser(presented, origin)('TGT_NOT_FOUND', new TicketNotFoundError());
    const principal = tgt.authentication.principal;
    const refuse = this.refuser({ ...presented, principal: principal.id }, origin);
    this.authorize(principal, refuse);
    return this.save(this.read(definition, refuse), principal, origin);
  }

  /** Reports service.refused with who asked (and the field at fault), then throws the answer. */
  private refuser(who: { readonly principal?: string; readonly tgt?: string }, origin: RequestOrigin | undefined): Refuse<ServiceRefusalReason> {
    return (reason, error) => {
      const field = error instanceof InvalidServiceDefinitionError ? { field: error.field } : {};
      this.deps.events.emit({ type: 'service.refused', reason, ...who, ...field } satisfies ServiceRefusedEvent, origin);
      throw error;
    };
  }

  private async authenticate(credentials: readonly Credential[], origin: RequestOrigin | undefined): Promise<Principal> {
    try {
      return (await this.deps.authenticator.authenticate(credentials, origin)).principal;
    } catch (error) {
      if (error instanceof NoCredentialsError) throw new UnauthenticatedError();
      if (error instanceof AuthenticationFailedError) throw new UnauthenticatedError(error.message);
      throw error;
    }
  }

  private authorize(principal: Principal, refuse: Refuse<ServiceRefusalReason>): void {
    const values = principal.attributes[this.policy.requiredAttribute.name] ?? [];
    if (!values.some((value) => this.valuePattern.test(value))) refuse('MISSING_REQUIRED_ATTRIBUTE', new ForbiddenError('Request is not authorized'));
  }

  /** The request's definition; an invalid one is refused (400, naming the field). */
  private read(definition: ReadServiceDefinition, refuse: Refuse<ServiceRefusalReason>): ServiceDefinition {
    try {
      return definition();
    } catch (error) {
      if (error instanceof InvalidServiceDefinitionError) return refuse('INVALID_SERVICE_DEFINITION', error);
      throw error;
    }
  }

  private async save(definition: ServiceDefinition, by: Principal, origin: RequestOrigin | undefined): Promise<RegisteredService> {
    return (await this.importer.save(definition, { principal: by.id, origin })).saved;
  }
}
