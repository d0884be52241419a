import type { Config } from '../config/schema.js';
import type { Binder } from '../di.js';
import { MODULE_CATALOG, type ModuleName } from './catalog.js';
import { registerRestModule } from './rest.js';
import { registerOtpModule } from './otp.js';
import { registerThrottleModule } from './throttle.js';
import { registerTokensModule } from './tokens.js';
import { registerServicesModule } from './services.js';
import { registerX509Module } from './x509.js';
import { registerLoginModule } from './login/register.js';
import { registerProxyModule } from './proxy/register.js';

/**
 * Adds a module's HTTP routes, credential extractors and credential handlers to the container's
 * multi-bound tokens. A module that is off registers nothing: its endpoints answer 404.
 */
export type ModuleRegistration = (binder: Binder, config: Config) => void;

/** One registration per catalogued module; the type makes a module without one a compile error. */
const REGISTRATIONS: Record<ModuleName, ModuleRegistration> = {
  rest: registerRestModule,
  tokens: registerTokensModule,
  services: registerServicesModule,
  otp: registerOtpModule,
  throttle: registerThrottleModule,
  x509: registerX509Module,
  login: registerLoginModule,
  proxy: registerProxyModule,
};

/** Registrations of the enabled modules in catalog order. Assumes a list that passed moduleListProblems. */
export function enabledModules(names: readonly string[]): ModuleRegistration[] {
  return MODULE_CATALOG.filter((module) => names.includes(module.name)).map((module) => REGISTRATIONS[module.name]);
}
