import type { Config } from '../config/schema.js';
import type { SettingProblem } from './module.js';
import { loginModule } from './login/index.js';
import { oidcModule } from './oidc/index.js';
import { otpModule } from './otp/index.js';
import { proxyModule } from './proxy/index.js';
import { restModule } from './rest/index.js';
import { servicesModule } from './services/index.js';
import { throttleModule } from './throttle/index.js';
import { tokensModule } from './tokens/index.js';
import { x509Module } from './x509/index.js';

/**
 * The one module list (docs/adding-a-module.md): adding a module is adding its folders and one entry here.
 * Dependencies come before their dependants; modules register in this order.
 */
export const MODULES = [restModule, tokensModule, servicesModule, otpModule, throttleModule, x509Module, loginModule, proxyModule, oidcModule] as const;

export function knownModuleNames(): string[] {
  return MODULES.map((module) => module.name);
}

/** The `modules` setting's default: the modules that are on unless the configuration says otherwise. */
export function defaultModuleNames(): string[] {
  return MODULES.filter((module) => module.onByDefault === true).map((module) => module.name);
}

export interface ModuleListProblem {
  readonly index: number;
  readonly problem: string;
}

/** What is wrong with a `modules` list: unknown names, repeats, dependencies that are off. */
export function moduleListProblems(names: readonly string[]): ModuleListProblem[] {
  const problems: ModuleListProblem[] = [];
  names.forEach((name, index) => {
    const module = MODULES.find((candidate) => candidate.name === name);
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
export function enabledModules(names: readonly string[]): (typeof MODULES)[number][] {
  return MODULES.filter((module) => names.includes(module.name));
}

/** The cross-setting problems of every enabled module. */
export function enabledModuleProblems(config: Config): SettingProblem[] {
  return enabledModules(config.modules).flatMap((module) => module.problems?.(config) ?? []);
}
