import { ServiceTypes } from '@tessera/core';
import type { z } from 'zod';
import type { ModuleCommand } from '../cli/command.js';
import type { CentralSettings } from '../config/central.js';
import type { Binder } from '../di.js';
import { CENTRAL_CREDENTIAL_KINDS, type CredentialKind } from '../credential-kinds.js';
import { ModuleEvents } from '../events/module-events.js';
import { CENTRAL_PARAMETERS, CENTRAL_READER, type DeclaredParameter } from '../request-parameters.js';
import type { ModuleContext, ModuleSettings, SettingProblem, TesseraModule } from './module.js';
import { consentModule } from './consent/index.js';
import { delegationModule } from './delegation/index.js';
import { loginModule } from './login/index.js';
import { oidcModule } from './oidc/index.js';
import { otpModule } from './otp/index.js';
import { proxyModule } from './proxy/index.js';
import { restModule } from './rest/index.js';
import { saml2Module } from './saml2/index.js';
import { servicesModule } from './services/index.js';
import { throttleModule } from './throttle/index.js';
import { tokensModule } from './tokens/index.js';
import { webauthnModule } from './webauthn/index.js';
import { x509Module } from './x509/index.js';

/**
 * The one module list (docs/adding-a-module.md): adding a module is adding its folders and one entry here.
 * Dependencies come before their dependants; modules register in this order.
 */
export const MODULES = [restModule, tokensModule, servicesModule, otpModule, throttleModule, x509Module, loginModule, webauthnModule, delegationModule, consentModule, proxyModule, oidcModule, saml2Module] as const;

/** The list as the code below walks it: each module's hooks take its own settings, whatever their shape. */
const LISTED: readonly TesseraModule[] = MODULES;

/**
 * The whole configuration as the list code reads it: the module list, the central settings, and
 * each module's sections by name, which only this file hands out, each to its own module.
 */
export type ModuleInputs = CentralSettings & { readonly modules: readonly string[] } & Readonly<Record<string, unknown>>;

export function knownModuleNames(): string[] {
  return LISTED.map((module) => module.name);
}

/** The `modules` setting's default: the modules that are on unless the configuration says otherwise. */
export function defaultModuleNames(): string[] {
  return LISTED.filter((module) => module.onByDefault === true).map((module) => module.name);
}

export interface ModuleListProblem {
  readonly index: number;
  readonly problem: string;
}

/** What is wrong with a `modules` list: unknown names, repeats, dependencies that are off. */
export function moduleListProblems(names: readonly string[]): ModuleListProblem[] {
  const problems: ModuleListProblem[] = [];
  names.forEach((name, index) => {
    const module = LISTED.find((candidate) => candidate.name === name);
    if (!module) {
      problems.push({ index, problem: `unknown module "${name}" (known: ${knownModuleNames().join(', ')})` });
    } else if (names.indexOf(name) !== index) {
      problems.push({ index, problem: `module "${name}" is listed twice` });
    } else {
      for (const dependency of module.dependencies.filter((needed) => !names.includes(needed))) {
        problems.push({ index, problem: `module "${name}" needs module "${dependency}", which is not enabled` });
      }
    }
  });
  return problems;
}

/** The enabled modules, in list order. Assumes a list that passed moduleListProblems. */
function enabledModules(names: readonly string[]): TesseraModule[] {
  return LISTED.filter((module) => names.includes(module.name));
}

/**
 * The events every known module declares, on or off: an event of a module that is off never comes,
 * and its counters are there (at 0) all the same, as the metrics always were.
 */
export function moduleEvents(): ModuleEvents {
  return new ModuleEvents(LISTED.flatMap((module) => module.events ?? []));
}

/** The commands every known module adds, on or off, in list order (cli/commands.ts places them in the help). */
export function moduleCommands(): ModuleCommand[] {
  return LISTED.flatMap((module) => module.commands ?? []);
}

/**
 * The service classes every listed module brings, with those of the enabled modules served: a
 * service of a type whose module is off behaves as an unregistered one.
 */
export function moduleServiceTypes(names: readonly string[]): ServiceTypes {
  return new ServiceTypes(
    LISTED.flatMap((module) => module.serviceTypes ?? []),
    enabledModules(names).flatMap((module) => module.serviceTypes ?? []),
  );
}

/** A `modules` list with the modules demo mode shows (the browser login, proxy tickets) added, those whose dependencies are on. */
export function withDemoModules(names: readonly string[]): string[] {
  const added = LISTED.filter((module) => module.onInDemo === true && !names.includes(module.name) && module.dependencies.every((name) => names.includes(name)));
  return [...names, ...added.map((module) => module.name)];
}

/** The module's own sections out of the whole configuration: all it is ever handed of it. */
function ownSettings(module: TesseraModule, config: ModuleInputs): ModuleSettings<z.ZodRawShape> {
  return Object.fromEntries(Object.keys(module.sections).map((section) => [section, config[section]]));
}

function centralSettings({ server, protocol, tickets, users }: ModuleInputs): CentralSettings {
  return { server, protocol, tickets, users };
}

/** Every request parameter tessera reads with this configuration: the central parts', then each enabled module's. */
export function declaredParameters(config: ModuleInputs): DeclaredParameter[] {
  return [
    ...CENTRAL_PARAMETERS.map((parameter) => ({ ...parameter, readBy: CENTRAL_READER })),
    ...enabledModules(config.modules).flatMap((module) => (module.parameters?.(ownSettings(module, config)) ?? []).map((parameter) => ({ ...parameter, readBy: module.name }))),
  ];
}

/** The names of the parameters whose values no log line may hold (the log's redaction adds them to its secret keys). */
export function secretParameterNames(config: ModuleInputs): string[] {
  return [...new Set(declaredParameters(config).filter((parameter) => parameter.secret === true).map((parameter) => parameter.name))];
}

/** The credential kinds tessera reads with this configuration: the central one, then each enabled module's. */
export function credentialKinds(config: ModuleInputs): CredentialKind[] {
  return [...CENTRAL_CREDENTIAL_KINDS, ...enabledModules(config.modules).flatMap((module) => module.credentialKinds ?? [])];
}

function contextOf(module: TesseraModule, config: ModuleInputs, parameters: readonly DeclaredParameter[]): ModuleContext {
  return { ...centralSettings(config), parameters: parameters.filter((parameter) => parameter.readBy !== module.name), credentialKinds: credentialKinds(config) };
}

/**
 * The cross-setting problems of every enabled module, each given its own settings; then the central
 * settings that need a module that is off.
 */
export function moduleSettingProblems(config: ModuleInputs): SettingProblem[] {
  const parameters = declaredParameters(config);
  const enabled = enabledModules(config.modules);
  const central = centralSettings(config);
  return [
    ...enabled.flatMap((module) => module.problems?.(ownSettings(module, config), contextOf(module, config, parameters)) ?? []),
    ...LISTED.filter((module) => !enabled.includes(module)).flatMap((module) =>
      (module.neededBy?.(central) ?? []).map((path) => ({ path, message: `needs module "${module.name}", which is not enabled` })),
    ),
  ];
}

/** Each enabled module binds its part, in list order (the order extractors run and handlers are tried in), given its own settings. */
export function registerEnabledModules(binder: Binder, config: ModuleInputs): void {
  const parameters = declaredParameters(config);
  for (const module of enabledModules(config.modules)) module.register(binder, ownSettings(module, config), contextOf(module, config, parameters));
}

/** A module's key file, seen from the whole configuration. */
export interface KeyFile {
  readonly setting: string;
  readonly file: string;
  /** The configuration with fresh secrets in place of the file, for a check that writes nothing. */
  readonly inMemory: <Inputs extends ModuleInputs>(config: Inputs) => Inputs;
}

/** The key files of the modules that are on (login, tokens), where their secrets are not all set otherwise. */
export function moduleKeyFiles(config: ModuleInputs): KeyFile[] {
  return enabledModules(config.modules).flatMap((module) =>
    (module.keyFiles?.(ownSettings(module, config)) ?? []).map(({ setting, file, inMemory }) => ({
      setting,
      file,
      inMemory: <Inputs extends ModuleInputs>(whole: Inputs): Inputs => ({ ...whole, ...inMemory(ownSettings(module, whole)) }),
    })),
  );
}

/** Whether an enabled module needs the HTTPS listener to ask clients for a certificate. */
export function modulesAskForClientCertificates(config: ModuleInputs): boolean {
  return enabledModules(config.modules).some((module) => module.asksForClientCertificates?.(ownSettings(module, config)) === true);
}
