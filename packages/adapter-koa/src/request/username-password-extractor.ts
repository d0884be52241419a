import { credentialExtractor, USERNAME } from './credentials.js';
import { optionalText } from './parameter-schemas.js';

/** `username` and `password`, both non-blank → one credential; otherwise none. */
export const usernamePasswordExtractor = credentialExtractor(
  { parameters: { username: USERNAME, password: optionalText('Their password.') } },
  ({ parameters: { username, password } }) => (username && password ? [{ type: 'usernamePassword', username, password }] : []),
);
