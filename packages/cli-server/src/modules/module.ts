import type { z } from 'zod';
import type { Config } from '../config/schema.js';
import type { Binder } from '../di.js';
import type { ServicePolicyRegistrations } from '../service-policies.js';

/** A problem found across settings, naming the setting at fault by its path. */
export interface SettingProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** A file of secrets a module reads at start, written with new ones when it is missing (config/key-file.ts). */
export interface ModuleKeyFile {
  /** The setting naming it, e.g. `login.keyFile`. */
  readonly setting: string;
  readonly file: string;
  /** The configuration with fresh secrets in place of the file: `config check` composes that, writing nothing. */
  readonly inMemory: (config: Config) => Config;
}

/**
 * A capability of tessera, declared in one place (docs/adding-a-module.md): its name, the modules it
 * needs, its settings and what it adds to the container. Only the module list (modules/index.ts)
 * names it; the root schema and the composition root take what it declares.
 */
export interface TesseraModule<Sections extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string;
  /** Modules that must be on as well; each comes before this one in the module list. */
  readonly dependencies: readonly string[];
  /** On when the configuration has no `modules` list. */
  readonly onByDefault?: boolean;
  /** Switched on by demo mode too, when its dependencies are on. */
  readonly onInDemo?: boolean;
  /** Top-level settings sections this module owns, with their defaults; read (and checked) whether or not the module is on. */
  readonly sections: Sections;
  /** Checks across settings, made only when the module is on: what it still lacks to work. */
  readonly problems?: (config: Config) => SettingProblem[];
  /**
   * The key files the module reads at start, when it is on and its secrets are not all set otherwise:
   * checked for who may read them, kept in the demo's state folder in demo mode (config/demo.ts).
   */
  readonly keyFiles?: (config: Config) => readonly ModuleKeyFile[];
  /** Whether the HTTPS listener must ask clients for a certificate in the handshake. */
  readonly asksForClientCertificates?: (config: Config) => boolean;
  /**
   * Attribute release policies and username providers it adds, each by its Apereo class: known whether
   * or not the module is on, as service definitions are read before and without the configuration.
   */
  readonly servicePolicies?: ServicePolicyRegistrations;
  /** Binds what the module adds (routes, extractors, handlers, listeners, jobs); called only when it is on. */
  readonly register: (binder: Binder, config: Config) => void;
}

export type ModuleRegistration = TesseraModule['register'];
