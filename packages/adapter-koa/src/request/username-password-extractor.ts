import { usernamePasswordCredential } from '@tessera/core';
import { credentialExtractor, USERNAME } from './credentials.js';
import { optionalText } from './parameter-schemas.js';

/** `username` and `password`, both non-blank → one credential; otherwise none. */
export const usernamePasswordExtractor = credentialExtractor(
  { parameters: { username: USERNAME, password: optionalText('Their password.') } },
  ({ parameters: { username, password } }) => (username && password ? [usernamePasswordCredential(username, password)] : []),
);
