import { z } from 'zod';
import { authenticationProblems, authenticationSections } from '../authentication/authentication.js';
import { defaultModuleNames, moduleSettingProblems, knownModuleNames, moduleListProblems, MODULES } from '../modules/index.js';
import { centralSections, publicUrlProblems } from './central.js';
import { adminSchema, healthSchema, metricsSchema } from './operability.js';
import { servicesSchema } from './services.js';
import { flag, section } from './setting-schemas.js';
import { usersSchema } from './users.js';

const modules = z
  .array(z.string({ error: 'expected a module name' }), { error: 'expected a list of module names' })
  .superRefine((names, context) => {
    for (const { index, problem } of moduleListProblems(names)) context.addIssue({ code: 'custom', path: [index], message: problem, input: names[index] });
  });

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
  error: 'expected fatal, error, warn, info, debug, trace or silent',
});

type Sections = (typeof MODULES)[number]['sections'];
type Intersection<U> = (U extends unknown ? (whole: U) => void : never) extends (whole: infer I) => void ? I : never;

/** Every module's sections, in module-list order; a module's settings are read (and checked) whether or not it is on. */
function moduleSections(): Intersection<Sections> {
  return Object.assign({}, ...MODULES.map((module) => module.sections)) as Intersection<Sections>;
}

const settings = section({
  modules: modules
    .default(defaultModuleNames())
    .describe(`Enabled modules, by name (known: ${knownModuleNames().join(', ')}). A module that is off adds no route, extractor or handler.`),
  server: centralSections.server.prefault({}),
  protocol: centralSections.protocol.prefault({}),
  ...authenticationSections,
  ...moduleSections(),
  tickets: centralSections.tickets.prefault({}),
  storage: centralSections.storage.prefault({}),
  users: usersSchema
    .default([])
    .meta({ defaultText: '`[]` (with `demo`: the demo user)' })
    .describe('Users who can log in, checked by the `config-users` handler of `authentication.handlers`.'),
  services: servicesSchema
    .default([])
    .meta({ defaultText: '`[]` (with `demo`: the demo service)', typeText: 'list of maps' })
    .describe('Registered services, each in Apereo CAS JSON format (`@class`, `id`, `name`, `serviceId`, `evaluationOrder`, `accessStrategy`, `attributeReleasePolicy`).'),
  servicesDirectory: z
    .string()
    .min(1, { error: 'expected a folder path' })
    .optional()
    .describe('Folder of Apereo CAS service files (`*.json`, one service each), loaded at start.'),
  serviceTemplatesDirectory: z
    .string()
    .min(1, { error: 'expected a folder path' })
    .optional()
    .describe(
      'Folder of Apereo CAS service templates (`*.json` in it and its subfolders, each named by its `templateName` and its file name), read at start. A service naming templates in `templateName` takes each key it does not set from them, as CAS 7 merges them; a name without a template is refused. Applies to `services`, `servicesDirectory`, `tessera services import` and `POST /v1/services`.',
    ),
  strictServices: flag()
    .default(false)
    .describe(
      'Refuse a service definition tessera would load with a warning (a client secret under 16 characters, a serviceId or proxy pattern whose host is not pinned, no name, a setting that changes nothing here), wherever it comes from: `services`, `servicesDirectory`, `tessera services import` and `POST /v1/services`. Off, as in Apereo CAS, each is loaded and the warning logged. Turn it on in production.',
    ),
  logging: section({
    level: logLevel.default('info').describe('Least severe level written to the JSON log on stdout.'),
  }).prefault({}),
  admin: adminSchema.prefault({}),
  health: healthSchema.prefault({}),
  metrics: metricsSchema.prefault({}),
  audit: section({
    destination: z
      .string({ error: 'expected off, stdout, stderr or a file path' })
      .min(1, { error: 'expected off, stdout, stderr or a file path' })
      .default('stderr')
      .describe('Where the audit trail goes, one JSON line per action: `off`, `stdout`, `stderr` (apart from the application log) or a file path, appended to, created with mode 0600 and reopened on SIGHUP.'),
  }).prefault({}),
  demo: flag()
    .default(false)
    .describe('Adds the demo user `casuser` (password `Mellon`) and a demo service accepting any http(s) URL and any https proxy callback, with a loud warning. On by itself when tessera starts without a config file. Only with `storage.type: memory`.'),
}).superRefine((settings, context) => {
  // Upserted at start, the demo service would stay in a shared store after the demo is switched off.
  if (settings.demo && settings.storage.type !== 'memory') {
    context.addIssue({
      code: 'custom',
      path: ['demo'],
      message: `cannot be used with storage.type ${settings.storage.type}: the demo service would be written into the shared store; configure users and services instead`,
      input: true,
    });
  }
  for (const { path, message } of [...publicUrlProblems(settings.server), ...authenticationProblems(settings)]) context.addIssue({ code: 'custom', path: [...path], message, input: undefined });
  // Each module's checks across its settings, made only when it is on; and the central settings that need a module that is off.
  if (moduleListProblems(settings.modules).length > 0) return;
  for (const { path, message } of moduleSettingProblems(settings)) context.addIssue({ code: 'custom', path: [...path], message, input: undefined });
});

/** The one schema of tessera's settings: defaults, validation and the reference of docs/configuration.md come from it. */
export const configSchema = settings;

/** Settings as read: the shape of the config file, every default filled in. */
export type Config = z.output<typeof configSchema>;
