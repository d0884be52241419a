import { z } from 'zod';

/** Username + password handlers, by name. `mongo-users` joins when it exists. */
export const PASSWORD_HANDLER_NAMES = ['config-users', 'ldap'] as const;
export type PasswordHandlerName = (typeof PASSWORD_HANDLER_NAMES)[number];

const handlerName = z.enum(PASSWORD_HANDLER_NAMES, { error: `expected one of ${PASSWORD_HANDLER_NAMES.join(', ')}` });

export const authenticationSchema = z.strictObject(
  {
    handlers: z
      .array(handlerName, { error: 'expected a list of handler names' })
      .min(1, { error: `expected at least one handler (${PASSWORD_HANDLER_NAMES.join(', ')})` })
      .superRefine((names, context) => {
        names.forEach((name, index) => {
          if (names.indexOf(name) !== index) context.addIssue({ code: 'custom', path: [index], message: `handler "${name}" is listed twice`, input: name });
        });
      })
      .default(['config-users'])
      .describe(
        'Handlers a username + password is checked against, in order; the first that accepts it wins (`config-users`: the `users` list; `ldap`: the `ldap.*` directory).',
      ),
  },
  { error: 'expected a map of settings' },
);
export type AuthenticationConfig = z.output<typeof authenticationSchema>;
