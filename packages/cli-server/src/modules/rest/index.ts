import { z } from 'zod';
import { integerFrom, section } from '../../config/setting-schemas.js';
import type { Config } from '../../config/schema.js';
import type { SettingProblem, TesseraModule } from '../module.js';
import { authenticationSchema } from './authentication-config.js';
import { ldapProblems, ldapSchema } from './ldap-config.js';
import { registerRestModule } from './register.js';

const sections = {
  rest: section({
    revision: z
      .enum(['current', 'earlier'], { error: 'expected current or earlier' })
      .default('current')
      .describe('`earlier` answers bad credentials with 400 instead of 401, as CAS 4.x did.'),
    newLoginWindowSeconds: integerFrom(0, 3600)
      .default(30)
      .describe(
        "How long after `POST /v1/tickets` the TGT's first service ticket still counts as from a new login (`isFromNewLogin`, accepted by `renew=true` validation). Later ones, and any a browser gets by single sign-on, count only when granted with `renew` and credentials. 0: never.",
      ),
  }).prefault({}),
  authentication: authenticationSchema.prefault({}),
  ldap: ldapSchema.prefault({}),
};

/** `rest` (docs/protocol.md §3): the REST protocol, and the username + password handlers every login goes through. */
export const restModule: TesseraModule<typeof sections> = {
  name: 'rest',
  dependencies: [],
  onByDefault: true,
  sections,
  problems: restProblems,
  register: registerRestModule,
};

/** What the `rest` module checks across settings. */
function restProblems(config: Config): SettingProblem[] {
  const problems: SettingProblem[] = [];
  // ldap.* is only required of a deployment that uses the ldap handler.
  if (config.authentication.handlers.includes('ldap')) problems.push(...ldapProblems(config.ldap).map(({ path, message }) => ({ path: ['ldap', path], message })));
  // A user who requires a one-time password could never log in without the module that checks it.
  if (!config.modules.includes('otp')) {
    config.users.forEach((user, index) => {
      if (user.otp?.required) problems.push({ path: ['users', index, 'requireOtp'], message: 'needs module "otp", which is not enabled' });
    });
  }
  return problems;
}
