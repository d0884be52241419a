import { expect } from 'chai';
import { InvalidServiceDefinitionError } from '@tessera/core';
import { TOTP_SECOND_FACTOR } from '@tessera/core/modules/otp';
import { BUILT_IN_RELEASE_POLICY_CODECS, BUILT_IN_USERNAME_PROVIDER_CODECS, serviceCodec } from '../src/index.js';
import { oauthClientType, oidcClientType } from '../src/modules/oidc/index.js';

/**
 * The service codec with the built-in policies only, as a server has it when no module adds one, and
 * the otp module's second factor (`mfa-gauth`), which the tests' multifactor policies name.
 */
export const BUILT_IN_CODEC = serviceCodec({ releasePolicies: BUILT_IN_RELEASE_POLICY_CODECS, usernameProviders: BUILT_IN_USERNAME_PROVIDER_CODECS, secondFactors: [TOTP_SECOND_FACTOR] });

export const { parse: parseServiceDefinition, render: toCasServiceJson, parseLegacyForm: legacyServiceDefinition } = BUILT_IN_CODEC;

/** The built-in codec with the oidc module's service types, its clients (OidcRegisteredService, OAuthRegisteredService), as a server has it. */
export const OIDC_CLIENTS_CODEC = serviceCodec({
  releasePolicies: BUILT_IN_RELEASE_POLICY_CODECS,
  usernameProviders: BUILT_IN_USERNAME_PROVIDER_CODECS,
  secondFactors: [TOTP_SECOND_FACTOR],
  serviceTypes: [oidcClientType, oauthClientType],
});

/** The problems a refused definition names, as `field: problem`; the test fails when `read` is accepted. */
export function refusalOf(read: () => unknown): string[] {
  try {
    read();
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidServiceDefinitionError);
    return (error as InvalidServiceDefinitionError).problems.map(({ field, problem }) => `${field}: ${problem}`);
  }
  return expect.fail('expected the definition to be refused');
}
