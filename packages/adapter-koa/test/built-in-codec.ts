import { BUILT_IN_RELEASE_POLICY_CODECS, BUILT_IN_USERNAME_PROVIDER_CODECS, serviceCodec } from '../src/index.js';

/** The service codec with the built-in policies only, as a server has it when no module adds one. */
export const BUILT_IN_CODEC = serviceCodec({ releasePolicies: BUILT_IN_RELEASE_POLICY_CODECS, usernameProviders: BUILT_IN_USERNAME_PROVIDER_CODECS });

export const { parse: parseServiceDefinition, render: toCasServiceJson, parseLegacyForm: legacyServiceDefinition } = BUILT_IN_CODEC;
