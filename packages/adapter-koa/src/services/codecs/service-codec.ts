import { serviceDefinitionWarnings, strictServiceProblems, type RegisteredService, type ServiceDefinition, type ServiceDefinitionProblem } from '@tessera/core';
import type { z } from 'zod';
import type { ParseOptions } from './cas-service-json.js';
import { toCasServiceJson } from './cas-service-render.js';
import { legacyServiceDefinition, type LegacyServiceForm } from './legacy-service-form.js';
import type { ServiceCodecParts } from './policy-codec.js';
import { PolicySlots } from './policy-slots.js';
import { parseServiceTemplate, parseWithTemplates, type ServiceTemplate, type ServiceTemplates } from './service-templates.js';

/**
 * The service wire formats, with the policy classes given: Apereo CAS service JSON both ways, and the
 * registration API's legacy form. cli-server builds the one of the server (the built-in policies and
 * every module's) for the `services` setting, service files, the `tessera services` commands and the
 * registration routes alike, so a definition means the same to each.
 */
export interface ServiceCodec {
  /**
   * parseServiceDefinition: a definition in Apereo CAS JSON, its templates applied (`options.templates`,
   * service-templates.ts), or InvalidServiceDefinitionError naming every key at fault.
   */
  readonly parse: (json: unknown, options?: ParseOptions) => ServiceDefinition;
  /** parseServiceTemplate: the template of a file named `fileName`.json, checked on its own, or InvalidServiceDefinitionError. */
  readonly parseTemplate: (json: unknown, fileName: string, origin: string) => ServiceTemplate;
  /** toCasServiceJson: the definition as CAS writes it; parse(render(s)) equals s. */
  readonly render: (service: RegisteredService) => Record<string, unknown>;
  /** legacyServiceDefinition: the definition of the earlier registration form. */
  readonly parseLegacyForm: (form: LegacyServiceForm) => ServiceDefinition;
  /** The keys the modules' service types and sections read, as the registration API documents them (each optional there). */
  readonly moduleKeys: Readonly<Record<string, z.ZodType>>;
  /** serviceDefinitionWarnings: what is said, never refused, about a valid definition (core's, and its type's and sections'), each a line naming the service. */
  readonly warnings: (definition: ServiceDefinition) => string[];
  /** strictServiceProblems: those warnings as the problems that refuse the definition where warnings are refusals (`strictServices`). */
  readonly strictProblems: (definition: ServiceDefinition) => ServiceDefinitionProblem[];
}

export function serviceCodec(parts: ServiceCodecParts): ServiceCodec {
  const policies = new PolicySlots(parts);
  return {
    parse: (json, options = {}) => parseWithTemplates(json, policies, options),
    parseTemplate: (json, fileName, origin) => parseServiceTemplate(json, fileName, origin, policies),
    render: (service) => toCasServiceJson(service, policies),
    parseLegacyForm: (form) => legacyServiceDefinition(form, policies),
    moduleKeys: policies.modules.documented(),
    warnings: (definition) => serviceDefinitionWarnings(definition, policies.modules.warnings(definition)),
    strictProblems: (definition) => strictServiceProblems(definition, policies.modules.warnings(definition)),
  };
}

/** The codec that applies these templates to every definition it parses (unless told others). */
export function withServiceTemplates(codec: ServiceCodec, templates: ServiceTemplates): ServiceCodec {
  return { ...codec, parse: (json, options = {}) => codec.parse(json, { templates, ...options }) };
}
