import {
  DEFAULT_ATTRIBUTE_RELEASE,
  DEFAULT_USERNAME_PROVIDER_TYPE,
  UnknownServicePolicyError,
  type InvalidServiceDefinitionError,
  type SecondFactorDeclaration,
  type ServiceDefinitionProblem,
  type ServicePolicy,
} from '@tessera/core';
import { CAS_SERVICE_CLASSES, isClass, isRecord, keyProblems, PRINCIPAL_ID, SERVICE_KEYS } from './cas-service-keys.js';
import { ModuleServiceParts } from './module-service-keys.js';
import { refusedReleasePolicyClass } from './refused-policy-classes.js';
import type { PolicyKeyChecks, PolicyParsing, PolicyRendering, ServiceCodecParts, ServicePolicyCodec } from './policy-codec.js';

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

/**
 * The two keys of a service definition that hold a policy, `attributeReleasePolicy` and
 * `usernameAttributeProvider`, each read and written through the codec part of the policy's class
 * (and so are the policies a policy holds). Central here is only what each key means when absent and
 * how an unknown class is refused.
 */
export class PolicySlots {
  private readonly release: Slot;
  private readonly username: Slot;
  private readonly checks: PolicyKeyChecks = {
    releasePolicy: (json, field) => this.releasePolicyKeyProblems(json, field),
    usernameProvider: (json, field) => this.usernameProviderKeyProblems(json, field),
  };
  private readonly rendering: PolicyRendering = {
    releasePolicy: (policy) => this.renderReleasePolicy(policy),
    usernameProvider: (policy) => this.renderUsernameProvider(policy),
  };

  /** The second-factor providers a `multifactorPolicy` may name: every listed module's, on or off. */
  readonly secondFactors: readonly SecondFactorDeclaration[];
  /** The service classes and sections modules bring: every listed module's, on or off. */
  readonly modules: ModuleServiceParts;

  constructor({ releasePolicies, usernameProviders, secondFactors = [], serviceTypes = [], serviceSections = [] }: ServiceCodecParts) {
    this.secondFactors = secondFactors;
    this.modules = new ModuleServiceParts(serviceTypes, serviceSections, SERVICE_KEYS, CAS_SERVICE_CLASSES);
    this.release = new Slot(releasePolicies, 'an attribute release policy');
    this.username = new Slot(usernameProviders, 'a username provider');
  }

  /** Problems with the keys of a release policy; a class no codec part reads is left to parseReleasePolicy, which refuses it. */
  releasePolicyKeyProblems(json: unknown, field: string): ServiceDefinitionProblem[] {
    if (!isRecord(json)) return [];
    const codec = this.release.find(json['@class']);
    return codec ? this.keyProblemsOf(codec, json, field) : [];
  }

  /**
   * Problems with a username provider: a class no codec part reads is refused here, among the other
   * keys' problems, as a CAS key tessera does not support unless it is written as one it reads.
   */
  usernameProviderKeyProblems(json: unknown, field: string): ServiceDefinitionProblem[] {
    if (json === null || json === undefined) return [];
    const codec = isRecord(json) ? this.username.find(json['@class']) : undefined;
    if (!codec || !isRecord(json)) {
      return [{ field, problem: `not supported by tessera: ${PRINCIPAL_ID}; accepted only as ${orList(this.username.codecs.map((each) => each.accepted ?? each.type))}` }];
    }
    return this.keyProblemsOf(codec, json, field);
  }

  /**
   * `attributeReleasePolicy`: absent, Apereo CAS's default (no principal attribute, the authentication's
   * attributes), whichever way the definition came: a file, the configuration or the registration API.
   */
  parseReleasePolicy(json: unknown, fail: Fail): ServicePolicy {
    if (json === undefined || json === null) return DEFAULT_ATTRIBUTE_RELEASE;
    if (!isRecord(json)) throw fail('(policy)', 'must be an object');
    const codec = this.release.find(json['@class']);
    if (!codec) throw fail('@class', `${refusedReleasePolicyClass(json['@class']) ?? 'must be'} ${this.release.simpleNames()}`);
    return this.parseWith(codec, json, fail);
  }

  /**
   * `usernameAttributeProvider`: absent, or the default provider with nothing set, is no provider of the
   * service's own (its user is the principal id), so a definition that spells the default out is kept
   * and answered as one that leaves it out. Nested in another policy it is what that policy holds, so it is kept.
   */
  parseUsernameProvider(json: unknown, fail: Fail, nested = false): ServicePolicy | undefined {
    if (json === undefined || json === null) return undefined;
    if (!isRecord(json)) throw fail('(provider)', 'must be an object');
    const codec = this.username.find(json['@class']);
    if (!codec) throw fail('@class', `must be ${this.username.simpleNames()}`);
    const provider = this.parseWith(codec, json, fail);
    return !nested && provider.type === DEFAULT_USERNAME_PROVIDER_TYPE && Object.keys(provider).length === 1 ? undefined : provider;
  }

  renderReleasePolicy(policy: ServicePolicy): Record<string, unknown> {
    const codec = this.release.get(policy.type);
    return { '@class': codec.type, ...codec.render(policy, this.rendering) };
  }

  renderUsernameProvider(provider: ServicePolicy): Record<string, unknown> {
    const codec = this.username.get(provider.type);
    return { '@class': codec.type, ...codec.render(provider, this.rendering) };
  }

  private keyProblemsOf(codec: ServicePolicyCodec, json: Readonly<Record<string, unknown>>, field: string): ServiceDefinitionProblem[] {
    return keyProblems(json, codec.keys, `${field}.`, (key, value, inner) => codec.keyProblemsInside?.(key, value, inner, this.checks) ?? []);
  }

  private parseWith(codec: ServicePolicyCodec, json: Readonly<Record<string, unknown>>, fail: Fail): ServicePolicy {
    const within = (field: string): Fail => (inner, problem) => fail(`${field}.${inner}`, problem);
    const parsing: PolicyParsing = {
      fail,
      releasePolicy: (nested, field) => {
        if (nested === undefined || nested === null) throw fail(field, 'is required');
        return this.parseReleasePolicy(nested, within(field));
      },
      usernameProvider: (nested, field) => this.parseUsernameProvider(nested, within(field), true) ?? this.absent(fail, field),
    };
    return { ...codec.parse(json, parsing), type: codec.type };
  }

  private absent(fail: Fail, field: string): never {
    throw fail(field, 'is required');
  }
}

/** The codec parts of one key, found by the class a definition writes, or by the class a policy holds. */
class Slot {
  private readonly byType: ReadonlyMap<string, ServicePolicyCodec>;

  constructor(
    readonly codecs: readonly ServicePolicyCodec[],
    private readonly kind: string,
  ) {
    const byType = new Map<string, ServicePolicyCodec>();
    for (const codec of codecs) {
      if (byType.has(codec.type)) throw new Error(`${codec.type} has two codec parts as ${kind}`);
      byType.set(codec.type, codec);
    }
    this.byType = byType;
  }

  /** The codec part of a written `@class`: the class itself, or its simple name in any package, as CAS's older packages wrote it. */
  find(written: unknown): ServicePolicyCodec | undefined {
    if (typeof written !== 'string') return undefined;
    return this.byType.get(written) ?? this.codecs.find((codec) => isClass(written, simpleName(codec.type)));
  }

  /** The codec part of the class a policy holds (one a codec part parsed, or a store kept). */
  get(type: string): ServicePolicyCodec {
    const codec = this.byType.get(type);
    if (!codec) throw new UnknownServicePolicyError(this.kind, type, [...this.byType.keys()]);
    return codec;
  }

  /** `A, B or C`, the classes' simple names. */
  simpleNames(): string {
    return orList(this.codecs.map((codec) => simpleName(codec.type)));
  }
}

function simpleName(type: string): string {
  return type.slice(type.lastIndexOf('.') + 1);
}

/** `A`, `A or B`, `A, B or C`. */
function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? 'nothing') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}
