import { z } from 'zod';
import { InvalidServiceDefinitionError, type ServiceDefinition, type ServiceDefinitionProblem } from '@tessera/core';
import { serverServicePolicies } from '../service-policies.js';

/**
 * Service definitions in Apereo CAS JSON, read by adapter-koa's CAS JSON codec. Each of its problems
 * becomes an issue at `services[i].<field>`, so a bad definition is reported like any other setting.
 */
export const servicesSchema = z.array(z.unknown(), { error: 'expected a list of service definitions' }).transform((list, context) => {
  const parsed: ServiceDefinition[] = [];
  list.forEach((json, index) => {
    try {
      parsed.push(serverServicePolicies().codec.parse(json));
    } catch (error) {
      if (!(error instanceof InvalidServiceDefinitionError)) throw error;
      for (const { field, problem } of labelledProblems(error, json)) {
        context.addIssue({ code: 'custom', path: [index, ...fieldPath(field)], message: problem, input: json });
      }
    }
  });
  if (parsed.length < list.length) return parsed;
  duplicateIds(parsed).forEach(({ index, id }) => context.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate id ${id}`, input: id }));
  return parsed;
});

/** The parser's problems, each followed by the service it is about, `(service "Intranet", id 3)`, when the definition names one. */
export function labelledProblems(error: InvalidServiceDefinitionError, json: unknown): ServiceDefinitionProblem[] {
  const label = serviceLabel(json);
  return error.problems.map(({ field, problem }) => ({ field, problem: label ? `${problem} (${label})` : problem }));
}

function serviceLabel(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const { name, id } = json as Record<string, unknown>;
  const named = typeof name === 'string' && name.trim() !== '' ? `service ${JSON.stringify(name)}` : undefined;
  const numbered = typeof id === 'number' ? `id ${id}` : undefined;
  if (named) return numbered ? `${named}, ${numbered}` : named;
  return numbered && `service ${numbered}`;
}

/** `accessStrategy.enabled` → ['accessStrategy', 'enabled']; placeholders such as `(definition)` name the item itself. */
function fieldPath(field: string): string[] {
  return field.split('.').filter((segment) => !segment.startsWith('('));
}

/** Positions of definitions that repeat an id used earlier in the list. */
function duplicateIds(services: readonly { readonly id?: number }[]): { index: number; id: number }[] {
  const seen = new Set<number>();
  const duplicates: { index: number; id: number }[] = [];
  services.forEach((service, index) => {
    if (service.id === undefined) return;
    if (seen.has(service.id)) duplicates.push({ index, id: service.id });
    seen.add(service.id);
  });
  return duplicates;
}
