import type { ServiceDefinitionProblem } from '@tessera/core';
import { DELEGATION_POLICY, type DelegatedAuthenticationPolicy } from '@tessera/core/modules/delegation';
import { isClass, isRecord, keyProblems, type KeyRules } from '../../services/codecs/cas-service-keys.js';
import { javaList, stringList } from '../../services/codecs/java-collections.js';
import type { ServiceSectionCodec } from '../../services/codecs/module-service-keys.js';
import { optionalBoolean, partReader, throwAll } from '../../services/codecs/parse-parts.js';

/** Where Apereo CAS writes the policy: inside the service's access strategy. */
export const POLICY_KEY = 'delegatedAuthenticationPolicy';
export const POLICY_CLASS = 'org.apereo.cas.services.DefaultRegisteredServiceDelegatedAuthenticationPolicy';
const POLICY_SIMPLE_NAME = 'DefaultRegisteredServiceDelegatedAuthenticationPolicy';

const POLICY_KEYS: KeyRules = { read: ['@class', 'allowedProviders', 'permitUndefined', 'exclusive'] };

/**
 * `accessStrategy.delegatedAuthenticationPolicy` (DefaultRegisteredServiceDelegatedAuthenticationPolicy),
 * read with every class of service and of access strategy: `allowedProviders` (a list, plain or as CAS
 * writes one), `permitUndefined` (default true) and `exclusive` (default false). The provider ids are
 * not checked against the configured providers here: a definition means the same to every command,
 * and an id no provider has allows nothing.
 */
export const delegationPolicySection: ServiceSectionCodec<DelegatedAuthenticationPolicy> = {
  data: DELEGATION_POLICY,
  keys: { read: [] },
  accessStrategyKeys: [POLICY_KEY],
  keyProblemsInside: (key, value, field) => (key === POLICY_KEY && isRecord(value) ? keyProblems(value, POLICY_KEYS, `${field}.`) : []),
  parse(json, fail) {
    const strategy = json['accessStrategy'];
    const value = isRecord(strategy) ? strategy[POLICY_KEY] : undefined;
    if (value === undefined || value === null) return undefined;
    const at = (field: string, problem: string) => fail(`accessStrategy.${POLICY_KEY}.${field}`, problem);
    if (!isRecord(value)) throw fail(`accessStrategy.${POLICY_KEY}`, 'must be an object');
    const type = value['@class'];
    if (type !== undefined && !isClass(type, POLICY_SIMPLE_NAME)) throw at('@class', `must be ${POLICY_SIMPLE_NAME} (org.apereo.cas.services)`);
    const problems: ServiceDefinitionProblem[] = [];
    const part = partReader(problems);
    const allowedProviders = part(() => {
      const raw = value['allowedProviders'];
      if (raw === undefined || raw === null) return [];
      const list = stringList(raw);
      if (list === undefined) throw at('allowedProviders', 'must be a list of provider ids');
      return [...new Set(list.map((id) => id.trim()).filter((id) => id !== ''))];
    });
    const permitUndefined = part(() => optionalBoolean(value['permitUndefined'], true, () => at('permitUndefined', 'must be a boolean')));
    const exclusive = part(() => optionalBoolean(value['exclusive'], false, () => at('exclusive', 'must be a boolean')));
    throwAll(problems);
    return { allowedProviders: allowedProviders as string[], permitUndefined: permitUndefined as boolean, exclusive: exclusive as boolean };
  },
  render: (policy) => ({
    accessStrategy: {
      [POLICY_KEY]: {
        '@class': POLICY_CLASS,
        allowedProviders: javaList(policy.allowedProviders),
        permitUndefined: policy.permitUndefined,
        exclusive: policy.exclusive,
      },
    },
  }),
};
