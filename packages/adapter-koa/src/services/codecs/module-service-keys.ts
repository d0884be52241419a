import {
  UnknownServiceDataError,
  type InvalidServiceDefinitionError,
  type KeyWarning,
  type RegisteredService,
  type ServiceDataKey,
  type ServiceDefinitionProblem,
  type ServiceType,
} from '@tessera/core';
import type { z } from 'zod';
import { isClass, isRecord, type KeyRules } from './cas-service-keys.js';

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

/**
 * Keys of a service definition a module reads into its own data on the service (`moduleData`, under
 * its `data` key): the keys of a service class it brings (ServiceTypeCodec) or keys any service may
 * carry (ServiceSectionCodec). The central codec checks them with every other key, fails closed on
 * those it does not know as ever, and hands the module its own.
 */
interface ModuleServiceKeys<Data> {
  /** Where its data lives on the service: the module's typed key (core's serviceDataKey). */
  readonly data: ServiceDataKey<Data>;
  /** Its keys: those read, those accepted and dropped, CAS's it refuses with what to write instead, and those only a sibling class reads. */
  readonly keys: KeyRules;
  /** Problems within the value of a key it reads, for keys that hold objects; none when omitted. */
  keyProblemsInside?(key: string, value: unknown, field: string): ServiceDefinitionProblem[];
  /** Its keys as the registration API documents them (POST /v1/services' schema), each with its description; what is not documented is still read. */
  readonly documented?: Readonly<Record<string, z.ZodType>>;
  /** What is said, never refused, about its data (refused in strict mode), each by the key it is about. */
  warnings?(data: Data): KeyWarning[];
}

/**
 * A service class a module brings (Apereo's OidcRegisteredService, SamlRegisteredService): core's
 * ServiceType (its classes, whether CAS service URLs find its services) and its wire side in the
 * service JSON. A module declares it in `serviceTypes`; it is known whether or not the module is on.
 */
export interface ServiceTypeCodec<Data = unknown> extends ServiceType, ModuleServiceKeys<Data> {
  /** Classes near it that are refused, by simple name, each with why (CAS 4's own OAuth callback service). */
  readonly refusedClasses?: Readonly<Record<string, string>>;
  /** The names a definition's `supportedProtocols` may give its protocol (`OIDC`), beside the validation protocols. */
  readonly protocols?: readonly string[];
  /** Its data from the whole definition (its keys already checked), defaults filled in; every problem through `fail`, at once. */
  parse(json: Readonly<Record<string, unknown>>, fail: Fail): Data;
  /** Its keys as CAS writes them, options only when not their default: parse(render(d)) equals d. */
  render(data: Data): Record<string, unknown>;
}

/**
 * Keys any service may carry that a module reads (Apereo's `acceptableUsagePolicy`, say): a module
 * declares them in `serviceSections`, known whether or not it is on, and a definition of any class
 * may write them.
 */
export interface ServiceSectionCodec<Data = unknown> extends ModuleServiceKeys<Data> {
  /**
   * Keys it reads inside `accessStrategy` (Apereo's `delegatedAuthenticationPolicy` lives there), with
   * every class of strategy; `parse` finds them in the definition's `accessStrategy`, `render` writes
   * them under `accessStrategy`, and `keyProblemsInside` is asked of them as of its own keys.
   */
  readonly accessStrategyKeys?: readonly string[];
  /** Its data from the whole definition (its keys already checked); undefined when the definition writes none of its keys: nothing is kept. */
  parse(json: Readonly<Record<string, unknown>>, fail: Fail): Data | undefined;
  /** Its keys as CAS writes them: parse(render(d)) equals d. */
  render(data: Data): Record<string, unknown>;
}

/** Reads one part of a definition, its problems collected; `keys` are those it reads: a part whose keys are at fault is not read. */
export type PartReader = <T>(keys: readonly string[], read: () => T) => T | undefined;

/**
 * The service classes and the sections every listed module declares, as the service codec reads and
 * writes them beside CAS's own keys (`casKeys`). Nothing here knows a module: each part is found by
 * its class, its keys or its data key.
 */
export class ModuleServiceParts {
  private readonly typesByClass = new Map<string, ServiceTypeCodec>();

  constructor(
    readonly types: readonly ServiceTypeCodec[],
    readonly sections: readonly ServiceSectionCodec[],
    private readonly casKeys: KeyRules,
    casClasses: readonly string[],
  ) {
    for (const type of types) {
      for (const name of type.classes) {
        if (casClasses.includes(name) || this.typesByClass.has(name)) throw new Error(`the service class ${name} is declared twice`);
        this.typesByClass.set(name, type);
      }
    }
    // Types may share keys (a service is of one type); a section's are read with every type's.
    const sectionKeys = sections.flatMap((section) => section.keys.read);
    const typeKeys = types.flatMap((type) => type.keys.read);
    const taken = [...casKeys.read, ...(casKeys.descriptive ?? [])];
    const clash = [...sectionKeys, ...typeKeys].find((key) => taken.includes(key)) ?? sectionKeys.find((key, index) => sectionKeys.indexOf(key) !== index || typeKeys.includes(key));
    if (clash !== undefined) throw new Error(`the service key ${clash} is read twice`);
    const strategyKeys = this.accessStrategyKeys;
    const strategyClash = strategyKeys.find((key, index) => strategyKeys.indexOf(key) !== index);
    if (strategyClash !== undefined) throw new Error(`the access strategy key ${strategyClash} is read twice`);
    const sectionData = sections.map((section) => section.data.key);
    const dataClash = sectionData.find((key, index) => sectionData.indexOf(key) !== index || types.some((type) => type.data.key === key));
    if (dataClash !== undefined) throw new Error(`the service data key ${dataClash} is declared twice`);
  }

  /** The keys the sections read inside `accessStrategy`. */
  get accessStrategyKeys(): string[] {
    return this.sections.flatMap((section) => section.accessStrategyKeys ?? []);
  }

  /** The keys of an access strategy of these rules with the sections' own read (and no longer refused). */
  accessStrategyRules(rules: KeyRules): KeyRules {
    const read = this.accessStrategyKeys;
    if (read.length === 0) return rules;
    const unsupported = Object.fromEntries(Object.entries(rules.unsupported ?? {}).filter(([key]) => !read.includes(key)));
    return { ...rules, read: [...rules.read, ...read], unsupported };
  }

  /** Problems within the value of a key a section reads inside `accessStrategy`; undefined when none reads it. */
  accessStrategyKeyProblemsInside(key: string, value: unknown, field: string): ServiceDefinitionProblem[] | undefined {
    const owner = this.sections.find((section) => section.accessStrategyKeys?.includes(key));
    return owner === undefined ? undefined : (owner.keyProblemsInside?.(key, value, field) ?? []);
  }

  /** Every class the modules bring, as the codec accepts them by default. */
  get classes(): string[] {
    return [...this.typesByClass.keys()];
  }

  /** The names `supportedProtocols` may give a module's protocol. */
  get protocols(): string[] {
    return [...new Set(this.types.flatMap((type) => type.protocols ?? []))];
  }

  /** The type a class is of, if a module brings it. */
  typeOf(className: unknown): ServiceTypeCodec | undefined {
    return typeof className === 'string' ? this.typesByClass.get(className) : undefined;
  }

  /** Why a class a module refuses is refused (by its simple name), if one does. */
  refusedClass(className: string): string | undefined {
    for (const type of this.types) {
      const found = Object.entries(type.refusedClasses ?? {}).find(([simpleName]) => isClass(className, simpleName));
      if (found) return found[1];
    }
    return undefined;
  }

  /** Whether two classes are of one module type (its names across versions). */
  sameType(a: unknown, b: unknown): boolean {
    const type = this.typeOf(a);
    return type !== undefined && type === this.typeOf(b);
  }

  /**
   * The keys of a service of this `@class`: CAS's, every section's (read instead of refused), and its
   * type's when a module brings the class.
   */
  keysOf(className: unknown): KeyRules {
    const casKeys = this.casKeys;
    const parts: KeyRules[] = [...this.sections.map((section) => section.keys), ...this.ownType(className).map((type) => type.keys)];
    const read = parts.flatMap((part) => part.read);
    const unsupported = Object.fromEntries(
      [...Object.entries(casKeys.unsupported ?? {}), ...parts.flatMap((part) => Object.entries(part.unsupported ?? {}))].filter(([key]) => !read.includes(key)),
    );
    const elsewhere = Object.fromEntries([casKeys, ...parts].flatMap((part) => Object.entries(part.elsewhere ?? {})).filter(([key]) => !read.includes(key)));
    return {
      read: [...casKeys.read, ...read],
      descriptive: [...(casKeys.descriptive ?? []), ...parts.flatMap((part) => part.descriptive ?? [])],
      unsupported,
      ...(Object.keys(elsewhere).length > 0 && { elsewhere }),
    };
  }

  /** Problems within the value of a key a module part of this class reads; undefined when no module part reads it. */
  keyProblemsInside(className: unknown, key: string, value: unknown, field: string): ServiceDefinitionProblem[] | undefined {
    const owner = [...this.ownType(className), ...this.sections].find((part) => part.keys.read.includes(key));
    return owner === undefined ? undefined : (owner.keyProblemsInside?.(key, value, field) ?? []);
  }

  /** The modules' data a definition of this class carries (its type's, and every section it writes), kept only when there is some. */
  parse(json: Readonly<Record<string, unknown>>, className: string, fail: Fail, read: PartReader): { moduleData?: Readonly<Record<string, unknown>> } {
    const moduleData: Record<string, unknown> = {};
    for (const type of this.ownType(className)) {
      const data = read(type.keys.read, () => type.parse(json, fail));
      if (data !== undefined) moduleData[type.data.key] = data;
    }
    for (const section of this.sections) {
      const keys = [...section.keys.read, ...(section.accessStrategyKeys ?? []).map((key) => `accessStrategy.${key}`)];
      const data = read(keys, () => section.parse(json, fail));
      if (data !== undefined) moduleData[section.data.key] = data;
    }
    return Object.keys(moduleData).length === 0 ? {} : { moduleData };
  }

  /** The keys of the modules' data on the service, as CAS writes them; data no part of its class reads is refused (UnknownServiceDataError). */
  render(service: Pick<RegisteredService, 'type' | 'moduleData'>): Record<string, unknown> {
    const parts = [...this.ownType(service.type), ...this.sections];
    const rendered: Record<string, unknown> = {};
    for (const [key, data] of Object.entries(service.moduleData ?? {})) {
      const owner = parts.find((part) => part.data.key === key);
      if (owner === undefined) throw new UnknownServiceDataError(key, parts.map((part) => part.data.key));
      const { accessStrategy, ...keys } = owner.render(data);
      Object.assign(rendered, keys);
      // Keys a section writes inside the access strategy, beside the strategy's own (cas-service-render.ts).
      if (isRecord(accessStrategy)) rendered['accessStrategy'] = { ...(isRecord(rendered['accessStrategy']) ? rendered['accessStrategy'] : {}), ...accessStrategy };
    }
    return rendered;
  }

  /** What the parts of the service's type and sections say of their data on it. */
  warnings(service: Pick<RegisteredService, 'type' | 'moduleData'>): KeyWarning[] {
    const parts = [...this.ownType(service.type), ...this.sections];
    return Object.entries(service.moduleData ?? {}).flatMap(([key, data]) => parts.find((part) => part.data.key === key)?.warnings?.(data) ?? []);
  }

  /** The keys the registration API documents: every type's and section's. */
  documented(): Record<string, z.ZodType> {
    return Object.assign({}, ...[...this.types, ...this.sections].map((part) => part.documented ?? {})) as Record<string, z.ZodType>;
  }

  private ownType(className: unknown): ServiceTypeCodec[] {
    const type = this.typeOf(className);
    return type === undefined ? [] : [type];
  }
}
