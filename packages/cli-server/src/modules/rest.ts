import { restModule, usernamePasswordExtractor } from '@tessera/adapter-koa';
import { DirectoryPasswordHandler } from '@tessera/core';
import { TOKENS } from '../tokens.js';
import type { ModuleRegistration } from './registry.js';

/** `rest`: `/v1/tickets` and `/v1/users` with username + password, checked against the configured users. */
export const registerRestModule: ModuleRegistration = (binder) => {
  binder.resolved(TOKENS.HttpModule, [], () => restModule());
  binder.constant(TOKENS.CredentialExtractor, usernamePasswordExtractor);
  binder.resolved(
    TOKENS.CredentialHandler,
    [TOKENS.UserDirectory, TOKENS.PasswordHasher],
    (directory, hasher) => new DirectoryPasswordHandler('config-users', directory, hasher),
  );
};
