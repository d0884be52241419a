import { oneTimePasswordCredential } from '@tessera/core/modules/otp';
import { credentialExtractor, USERNAME, type CredentialExtractor } from '../../request/credentials.js';
import { optionalText } from '../../request/parameter-schemas.js';

/**
 * The otp module's extractor: the code in `parameter` (default `otp`) for the username of the same
 * request. Without both, none: a code is only ever checked against the user who sent it.
 */
export function otpExtractor(parameter: string): CredentialExtractor {
  const code = optionalText('A TOTP code (RFC 6238) of the user named by `username`.');
  return credentialExtractor({ parameters: { username: USERNAME, [parameter]: code } }, ({ parameters }) => {
    const { username } = parameters;
    const value = parameters[parameter];
    return username && typeof value === 'string' ? [oneTimePasswordCredential(username, value.trim())] : [];
  });
}

