import { isDeepStrictEqual } from 'node:util';
import { CAS_REGISTERED_SERVICE, InvalidServiceDefinitionError, type ServiceDefinition, type ServiceDefinitionProblem } from '@tessera/core';
import { parseServiceDefinition, type ParseOptions } from './cas-service-json.js';
import { CAS_SERVICE_CLASSES, isRecord } from './cas-service-keys.js';
import type { PolicySlots } from './policy-slots.js';

/**
 * One Apereo CAS service template (CAS 7's `cas.service-registry.templates.directory`): a partial
 * definition whose keys a service naming it in `templateName` takes, unless it sets them itself.
 */
export interface ServiceTemplate {
  /** Its `templateName`, which is also its file name without `.json`. */
  readonly name: string;
  /** Where it was read (its file), for messages. */
  readonly origin: string;
  /** Its keys as written, but its own `templateName`. */
  readonly json: Readonly<Record<string, unknown>>;
}

/** The templates services may name, looked up by name with case ignored, as CAS does. */
export class ServiceTemplates {
  private readonly byName = new Map<string, ServiceTemplate>();

  constructor(readonly all: readonly ServiceTemplate[]) {
    for (const template of all) if (!this.byName.has(template.name.toLowerCase())) this.byName.set(template.name.toLowerCase(), template);
  }

  find(name: string): ServiceTemplate | undefined {
    return this.byName.get(name.toLowerCase());
  }
}

/** Stands in for the serviceId a template may leave to its services, so that the rest of it can be read. */
const PROBE_SERVICE_ID = '^https://template\\.invalid/.*';

/**
 * A template file's definition, checked on its own: its `templateName` must be its file name
 * (`fileName`, without `.json`), as CAS picks a template by both, and every other key must be one a
 * service definition may have, with a valid value. Every problem at once.
 */
export function parseServiceTemplate(json: unknown, fileName: string, origin: string, policies: PolicySlots): ServiceTemplate {
  if (!isRecord(json)) throw new InvalidServiceDefinitionError('(definition)', 'must be a JSON object');
  const { templateName, ...keys } = json;
  const problems: ServiceDefinitionProblem[] = [];
  if (typeof templateName !== 'string' || templateName.trim() === '') {
    problems.push({ field: 'templateName', problem: `is required in a template: its name, which is its file name without .json ("${fileName}")` });
  } else if (templateName.trim().toLowerCase() !== fileName.toLowerCase()) {
    problems.push({ field: 'templateName', problem: `must be the file name without .json ("${fileName}"): CAS finds a template by both` });
  }
  try {
    parseServiceDefinition({ ...keys, serviceId: keys['serviceId'] ?? PROBE_SERVICE_ID }, policies);
  } catch (error) {
    if (!(error instanceof InvalidServiceDefinitionError)) throw error;
    problems.push(...error.problems);
  }
  throwAll(problems);
  return { name: (templateName as string).trim(), origin, json: keys };
}

/**
 * A definition with its templates applied, as CAS 7 merges them: each name of `templateName`
 * (comma-separated) is a template, and a key takes the value of the first of the service, then its
 * templates in the order named, that sets it to other than its default; each key whole (a template's
 * access strategy is taken or left, never mixed with the service's). The result no longer names its
 * templates. Unlike CAS, which logs a template it cannot find and goes on without it, a name without
 * a template is refused: the template's access strategy would be lost. Without `templates`, a
 * definition naming one is refused by the parser.
 */
export function parseWithTemplates(json: unknown, policies: PolicySlots, options: ParseOptions): ServiceDefinition {
  const { templates, path, ...rest } = options;
  if (templates === undefined || !isRecord(json) || json['templateName'] === undefined || json['templateName'] === null) {
    return parseServiceDefinition(json, policies, options);
  }
  const at = (field: string) => (path ? `${path}.${field}` : field);
  const problems: ServiceDefinitionProblem[] = [];
  const type = json['@class'] ?? CAS_REGISTERED_SERVICE;
  const chosen: ServiceTemplate[] = [];
  for (const name of templateNames(json['templateName'])) {
    const template = templates.find(name);
    if (template === undefined) {
      problems.push({ field: 'templateName', problem: `no service template is named "${name}"${known(templates)}` });
    } else if (!sameClass(template.json['@class'] ?? CAS_REGISTERED_SERVICE, type, policies)) {
      const classOf = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
      problems.push({ field: 'templateName', problem: `template "${template.name}" (${template.origin}) is for ${classOf(template.json['@class'])} services, not ${classOf(type)}` });
    } else {
      chosen.push(template);
    }
  }
  if (templateNames(json['templateName']).length === 0) problems.push({ field: 'templateName', problem: 'must name one or more service templates, separated by commas' });

  const { merged, takenFrom } = mergeTemplates(json, chosen, (key, value) => isSet(key, value, type, policies));
  let definition: ServiceDefinition | undefined;
  try {
    definition = parseServiceDefinition(merged, policies, rest);
  } catch (error) {
    if (!(error instanceof InvalidServiceDefinitionError)) throw error;
    problems.push(...error.problems.map(({ field, problem }) => ({ field, problem: fromTemplate(problem, takenFrom.get(topKey(field))) })));
  }
  throwAll(problems.map(({ field, problem }) => ({ field: at(field), problem })));
  return definition as ServiceDefinition;
}

function templateNames(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/**
 * The service's keys over its templates', key by key: for each, the first of the service and the
 * templates that sets it (`isSet`); when none does, the service's own value or the first template's.
 */
function mergeTemplates(
  service: Readonly<Record<string, unknown>>,
  templates: readonly ServiceTemplate[],
  isSet: (key: string, value: unknown) => boolean,
): { merged: Record<string, unknown>; takenFrom: Map<string, ServiceTemplate> } {
  const merged: Record<string, unknown> = {};
  const takenFrom = new Map<string, ServiceTemplate>();
  const keys = new Set([...Object.keys(service), ...templates.flatMap((template) => Object.keys(template.json))]);
  keys.delete('templateName');
  for (const key of keys) {
    const sources = [
      ...(Object.hasOwn(service, key) ? [{ value: service[key], template: undefined }] : []),
      ...templates.filter((template) => Object.hasOwn(template.json, key)).map((template) => ({ value: template.json[key], template })),
    ];
    const source = sources.find(({ value }) => isSet(key, value)) ?? sources[0];
    if (source === undefined) continue;
    merged[key] = source.value;
    if (source.template) takenFrom.set(key, source.template);
  }
  return { merged, takenFrom };
}

/**
 * Whether a service's value of a key overrides its templates': CAS writes the service out without
 * the values that equal those of a new, empty service of its class, and reads the rest over the
 * template. A value is at its default when the definition means the same with it as without it
 * (`"evaluationOrder": 0`, an access strategy that only says `enabled: true`); a value that cannot
 * be read is set, so that its problem is reported.
 */
function isSet(key: string, value: unknown, type: unknown, policies: PolicySlots): boolean {
  if (value === undefined || value === null) return false;
  if (key === '@class' || key === 'serviceId') return true;
  const probe = (keys: Record<string, unknown>) => parseServiceDefinition({ '@class': type, serviceId: PROBE_SERVICE_ID, ...keys }, policies);
  try {
    return !isDeepStrictEqual(probe({ [key]: value }), probe({}));
  } catch {
    return true;
  }
}

/** The CAS service classes are one kind (their spellings across versions); each service type a module brings is another (its names across versions). */
function sameClass(a: unknown, b: unknown, policies: PolicySlots): boolean {
  const plain = (type: unknown) => typeof type === 'string' && CAS_SERVICE_CLASSES.includes(type);
  return a === b || (plain(a) && plain(b)) || policies.modules.sameType(a, b);
}

function known(templates: ServiceTemplates): string {
  const names = templates.all.map(({ name }) => name);
  return names.length === 0 ? ' (the templates folder has none)' : ` (templates: ${names.join(', ')})`;
}

function topKey(field: string): string {
  return field.split('.')[0] ?? field;
}

function fromTemplate(problem: string, template: ServiceTemplate | undefined): string {
  return template ? `${problem} (from template "${template.name}", ${template.origin})` : problem;
}

function throwAll(problems: readonly ServiceDefinitionProblem[]): void {
  const [first, ...more] = problems;
  if (first) throw new InvalidServiceDefinitionError(first.field, first.problem, ...more);
}
