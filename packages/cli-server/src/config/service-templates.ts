import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ServiceTemplates, type ServiceTemplate } from '@tessera/adapter-koa';
import { InvalidServiceDefinitionError } from '@tessera/core';
import { configurationError } from './errors.js';
import { parseJsonWithComments } from './json-with-comments.js';
import type { Config } from './schema.js';
import { serverServicePolicies } from '../service-policies.js';

/** The valid templates of a folder, and every line of what is wrong with the others (`<file>: <field>: <problem>`). */
interface TemplatesRead {
  readonly templates: ServiceTemplates;
  readonly problems: readonly string[];
}

/**
 * Apereo CAS service templates: every `*.json` file of the folder and of its subfolders, as CAS reads
 * `cas.service-registry.templates.directory.location`, each checked on its own. Two files of one name
 * are refused: CAS would pick between them by evaluationOrder, which a reader of the folder cannot see.
 */
export async function readServiceTemplates(directory: string): Promise<TemplatesRead> {
  let files: string[];
  try {
    if (!(await stat(directory)).isDirectory()) return { templates: new ServiceTemplates([]), problems: [`${directory}: is not a folder`] };
    files = (await readdir(directory, { recursive: true }))
      .filter((name) => name.toLowerCase().endsWith('.json'))
      .sort()
      .map((name) => join(directory, name));
  } catch (error) {
    return { templates: new ServiceTemplates([]), problems: [`${directory}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`] };
  }
  const problems: string[] = [];
  const templates: ServiceTemplate[] = [];
  for (const file of files) {
    const read = await readTemplate(file);
    if ('problems' in read) problems.push(...read.problems.map((problem) => `${file}: ${problem}`));
    else templates.push(read.template);
  }
  const first = new Map<string, ServiceTemplate>();
  for (const template of templates) {
    const earlier = first.get(template.name.toLowerCase());
    if (earlier) problems.push(`${template.origin}: templateName: template "${template.name}" is also ${earlier.origin}; name each template once`);
    else first.set(template.name.toLowerCase(), template);
  }
  return { templates: new ServiceTemplates([...first.values()]), problems };
}

/** The templates of `serviceTemplatesDirectory` (none when unset); a bad template file is a configuration error naming it. */
export async function configuredServiceTemplates(config: Pick<Config, 'serviceTemplatesDirectory'>): Promise<ServiceTemplates | undefined> {
  if (config.serviceTemplatesDirectory === undefined) return undefined;
  const read = await readServiceTemplates(config.serviceTemplatesDirectory);
  if (read.problems.length > 0) throw configurationError(read.problems.map((problem) => ({ setting: 'serviceTemplatesDirectory', problem })));
  return read.templates;
}

/** A template file's template, or what is wrong with it. */
async function readTemplate(file: string): Promise<{ template: ServiceTemplate } | { problems: string[] }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { problems: [`cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`] };
  }
  // CAS fills these from the service's properties with its Groovy template engine.
  if (text.includes('${') || text.includes('<%')) {
    return { problems: ['holds template placeholders (${...} or <% %>), which CAS fills with Groovy and tessera does not: write the values into the template or the service'] };
  }
  const json = parseJsonWithComments(text);
  if ('problem' in json) return { problems: [json.problem] };
  try {
    return { template: serverServicePolicies().codec.parseTemplate(json.value, basename(file).replace(/\.json$/i, ''), file) };
  } catch (error) {
    if (!(error instanceof InvalidServiceDefinitionError)) throw error;
    return { problems: error.problems.map(({ field, problem }) => `${field}: ${problem}`) };
  }
}
