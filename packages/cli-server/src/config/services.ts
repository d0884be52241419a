import { z } from 'zod';
import { InvalidServiceDefinitionError, parseServiceDefinition, type ServiceDefinition } from '@tessera/core';

/**
 * Service definitions in Apereo CAS JSON, read by core's parser. Its errors become issues at
 * `services[i].<field>`, so a bad definition is reported like any other setting.
 */
export const servicesSchema = z.array(z.unknown(), { error: 'expected a list of service definitions' }).transform((list, context) => {
  const parsed: ServiceDefinition[] = [];
  list.forEach((json, index) => {
    try {
      parsed.push(parseServiceDefinition(json));
    } catch (error) {
      if (!(error instanceof InvalidServiceDefinitionError)) throw error;
      context.addIssue({ code: 'custom', path: [index, ...fieldPath(error.field)], message: problemOf(error), input: json });
    }
  });
  if (parsed.length < list.length) return parsed;
  duplicateIds(parsed).forEach(({ index, id }) => context.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate id ${id}`, input: id }));
  return parsed;
});

/** `accessStrategy.enabled` → ['accessStrategy', 'enabled']; placeholders such as `(definition)` name the item itself. */
function fieldPath(field: string): string[] {
  return field.split('.').filter((segment) => !segment.startsWith('('));
}

/** The parser's message is `<field>: <problem>`. */
function problemOf(error: InvalidServiceDefinitionError): string {
  const prefix = `${error.field}: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
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
