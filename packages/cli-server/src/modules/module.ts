import type { ServiceSectionCodec, ServiceTypeCodec } from '@tessera/adapter-koa';
import type { SecondFactorDeclaration } from '@tessera/core';
import type { z } from 'zod';
import type { ModuleCommand } from '../cli/command.js';
import type { CentralSettings } from '../config/central.js';
import type { CredentialKind } from '../credential-kinds.js';
import type { Binder } from '../di.js';
import type { ModuleEventDeclaration } from '../events/module-events.js';
import type { DeclaredParameter, RequestParameter } from '../request-parameters.js';
import type { ServicePolicyRegistrations } from '../service-policies.js';

/** A problem found across settings, naming the setting at fault by its path. */
export interface SettingProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/**
 * A file of secrets a module reads at start, written with new ones when it is missing (config/key-file.ts).
 * `Settings` are the module's own settings.
 */
export interface ModuleKeyFile<Settings> {
  /** The setting naming it, e.g. `login.keyFile`. */
  readonly setting: string;
  readonly file: string;
  /** The module's settings with fresh secrets in place of the file: `config check` composes that, writing nothing. */
  inMemory(this: void, settings: Settings): Settings;
}

/** A module's own settings: each of its sections by name, defaults filled in. */
export type ModuleSettings<Sections extends z.ZodRawShape> = { readonly [Name in keyof Sections]: z.output<Sections[Name]> };

/**
 * What a module is given beside its own settings: the central settings it may read, and what the
 * other enabled modules declared. Never another module's section, never the module list: what a
 * module needs of another comes through a declared dependency and what that module binds.
 */
export interface ModuleContext extends CentralSettings {
  /** The request parameters the central parts and every other enabled module read (not the module's own). */
  readonly parameters: readonly DeclaredParameter[];
  /** The credential kinds of the central authentication and of every enabled module, its own included. */
  readonly credentialKinds: readonly CredentialKind[];
}

/**
 * A capability of tessera, declared in one place (docs/adding-a-module.md): its name, the modules it
 * needs, its settings, the request parameters it reads and what it adds to the container. Only the
 * module list (modules/index.ts) names it; the root schema and the composition root take what it
 * declares, and hand each hook the module's own settings only.
 */
export interface TesseraModule<Sections extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string;
  /** Modules that must be on as well; each comes before this one in the module list. */
  readonly dependencies: readonly string[];
  /** On when the configuration has no `modules` list. */
  readonly onByDefault?: boolean;
  /** Switched on by demo mode too, when its dependencies are on. */
  readonly onInDemo?: boolean;
  /**
   * The rows of README.md's comparison table ("What it does, next to the servers it replaces") this
   * module makes true, each by its first cell exactly as written there. test/docs/comparison.test.ts
   * holds the table to them: a row where tessera says yes needs a module (or central code) naming it,
   * a "not yet" row must have none, and every name here must be a row.
   */
  readonly comparisonRows?: readonly string[];
  /** Top-level settings sections this module owns, with their defaults; read (and checked) whether or not the module is on. */
  readonly sections: Sections;
  /**
   * The request parameters its routes, extractors and extensions read, with those that are secrets
   * or credentials said so: the log never holds a secret one, other modules' checks see them all.
   */
  parameters?(settings: ModuleSettings<Sections>): readonly RequestParameter[];
  /**
   * The events the module emits (their types live in its core folder), each with its log level, audit
   * record and counters: the log, the audit trail and the metrics take them from here.
   */
  readonly events?: readonly ModuleEventDeclaration[];
  /** The kinds of credential it adds (its type in its core folder, its extractor and handler): what other modules need to know of them. */
  readonly credentialKinds?: readonly CredentialKind[];
  /**
   * The second-factor providers it brings (`mfa-gauth`), each its id and what the user gives: known to
   * the service codec whether or not the module is on, so a `multifactorPolicy` naming one always
   * loads, and is a factor nobody has while the module is off. Its `register` binds each as a
   * `KEYS.SecondFactorProvider` of the same id.
   */
  readonly secondFactors?: readonly SecondFactorDeclaration[];
  /** Checks across settings, made only when the module is on: what it still lacks to work. */
  problems?(settings: ModuleSettings<Sections>, context: ModuleContext): SettingProblem[];
  /**
   * The key files the module reads at start, when it is on and its secrets are not all set otherwise:
   * checked for who may read them, kept in the demo's state folder in demo mode (config/demo.ts).
   */
  keyFiles?(settings: ModuleSettings<Sections>): readonly ModuleKeyFile<ModuleSettings<Sections>>[];
  /**
   * Central settings that mean something only with this module on (a user's `requireOtp`): while it
   * is off, each is a problem naming the module, so nobody is let in on a rule nothing enforces.
   */
  neededBy?(central: CentralSettings): readonly SettingProblem['path'][];
  /** Whether the HTTPS listener must ask clients for a certificate in the handshake. */
  asksForClientCertificates?(settings: ModuleSettings<Sections>): boolean;
  /**
   * Attribute release policies and username providers it adds, each by its Apereo class: known whether
   * or not the module is on, as service definitions are read before and without the configuration.
   */
  readonly servicePolicies?: ServicePolicyRegistrations;
  /**
   * The service classes it brings (its clients, its service providers), each its Apereo classes, its
   * keys with the codec part that makes them its data on the service, and whether CAS service URLs find
   * such services: known to the service codec whether or not the module is on; while it is off, a
   * service of its type behaves as an unregistered one.
   */
  readonly serviceTypes?: readonly ServiceTypeCodec[];
  /** Keys any service may carry that it reads, with the codec part that makes them its data on the service: known whether or not it is on. */
  readonly serviceSections?: readonly ServiceSectionCodec[];
  /**
   * The `tessera` commands it adds (its key material, a user's secret): listed by `tessera --help`
   * and run whether or not the module is on, as they read none of its settings.
   */
  readonly commands?: readonly ModuleCommand[];
  /** Binds what the module adds (routes, extractors, handlers, listeners, jobs); called only when it is on. */
  register(binder: Binder, settings: ModuleSettings<Sections>, context: ModuleContext): void;
}

/** A module's `register`, typed by its sections: `ModuleRegistration<typeof sections>`. */
export type ModuleRegistration<Sections extends z.ZodRawShape> = TesseraModule<Sections>['register'];
