import type { RequestOrigin } from '../domain/events.js';
import { unpinnedHostWarnings } from '../domain/registry/host-pinning.js';
import type { RegisteredService, ServiceDefinition } from '../domain/registry/registered-service.js';
import type { EventSink } from '../ports/event-sink.js';
import type { RandomSource } from '../ports/random-source.js';
import type { ServiceRegistry } from '../ports/service-registry.js';
import { unusedServiceId } from './service-ids.js';

export interface ImportedService {
  readonly saved: RegisteredService;
  /** The definition it replaced: one with the same id was stored already. */
  readonly replaced?: RegisteredService;
}

/**
 * Saves parsed definitions through the registry port (the `services import` command): an id already
 * stored is replaced, a definition without an id gets an unused one. Each save reports service.saved,
 * and service.host.unpinned when a pattern of the definition does not pin its host.
 */
export class ImportServices {
  constructor(
    private readonly registry: ServiceRegistry,
    private readonly random: RandomSource,
    private readonly events: EventSink,
  ) {}

  async execute(definitions: readonly ServiceDefinition[]): Promise<ImportedService[]> {
    const imported: ImportedService[] = [];
    for (const definition of definitions) imported.push(await this.save(definition));
    return imported;
  }

  /** `registeredBy`: who registered it over REST and in which request, for the event; none for `services import`. */
  async save(definition: ServiceDefinition, registeredBy?: { readonly principal: string; readonly origin?: RequestOrigin | undefined }): Promise<ImportedService> {
    const id = definition.id ?? (await unusedServiceId(this.registry, this.random));
    const replaced = await this.registry.findById(id);
    const saved = await this.registry.save({ ...definition, id });
    const principal = registeredBy?.principal;
    this.events.emit({ type: 'service.saved', serviceId: saved.id, name: saved.name, replaced: replaced !== undefined, ...(principal !== undefined && { principal }) }, registeredBy?.origin);
    const warnings = unpinnedHostWarnings(saved);
    if (warnings.length > 0) this.events.emit({ type: 'service.host.unpinned', serviceId: saved.id, name: saved.name, warnings }, registeredBy?.origin);
    return replaced ? { saved, replaced } : { saved };
  }
}
