import { z } from 'zod';
import { type StoredPassword, argon2HashProblem } from '@tessera/core';

const attributeValues = z.union([z.string().transform((value) => [value]), z.array(z.string())], {
  error: 'expected a string or a list of strings',
});

const userSchema = z
  .strictObject({
    username: z.string({ error: 'expected a user name' }).min(1, { error: 'expected a user name' }).describe('Login name, matched exactly (case-sensitive).'),
    password: z.string().min(1, { error: 'expected a non-empty password' }).optional().describe('Plain password, for demos and tests only (logs a warning at start). Set exactly one of `password` and `passwordHash`.'),
    passwordHash: z
      .string()
      .regex(/^\$argon2(id|i|d)\$/, { error: 'expected an argon2 PHC string ($argon2id$…); make one with `tessera hash-password`' })
      .optional()
      .describe('argon2id PHC string from `tessera hash-password`; one argon2 cannot verify against stops the start.'),
    otpSecret: z
      .string({ error: 'expected a base32 secret' })
      .overwrite((secret) => secret.replace(/\s+/g, '').toUpperCase())
      .regex(/^[A-Z2-7]{26,}=*$/, { error: 'expected a base32 secret of at least 128 bits (26 characters); make one with `tessera otp new`' })
      .optional()
      .describe('TOTP secret (base32, RFC 6238) for the `otp` module, from `tessera otp new --user NAME`.'),
    requireOtp: z
      .boolean({ error: 'expected true or false' })
      .default(false)
      .describe('This user logs in only with a one-time password next to the password (needs `otpSecret` and the `otp` module).'),
    attributes: z
      .record(z.string(), attributeValues, { error: 'expected a map of attribute names to lists of values' })
      .default({})
      .meta({ defaultText: '`{}`' })
      .describe('Attribute name → values (a single string counts as a one-value list).'),
  })
  .superRefine((user, context) => {
    if ((user.password === undefined) === (user.passwordHash === undefined)) {
      context.addIssue({ code: 'custom', message: 'set exactly one of password or passwordHash' });
    }
    // A hash argon2 cannot read passes a prefix check, and its user could never log in.
    const hashProblem = user.passwordHash === undefined ? undefined : argon2HashProblem(user.passwordHash);
    if (hashProblem !== undefined) {
      context.addIssue({ code: 'custom', path: ['passwordHash'], message: `user "${user.username}": argon2 cannot verify against this hash (${hashProblem}); make one with \`tessera hash-password\``, input: '(hash)' });
    }
    if (user.requireOtp && user.otpSecret === undefined) {
      context.addIssue({ code: 'custom', path: ['requireOtp'], message: 'needs otpSecret' });
    }
  })
  .transform(({ username, password, passwordHash, otpSecret, requireOtp, attributes }) => ({
    username,
    password: storedPassword(password, passwordHash),
    attributes,
    ...(otpSecret !== undefined && { otp: { secret: otpSecret, required: requireOtp } }),
  }));

function storedPassword(password: string | undefined, passwordHash: string | undefined): StoredPassword {
  if (passwordHash !== undefined) return { kind: 'hash', phc: passwordHash };
  if (password !== undefined) return { kind: 'plain', value: password };
  throw new Error('unreachable: the schema requires password or passwordHash');
}

export const usersSchema = z.array(userSchema, { error: 'expected a list of users' }).superRefine((users, context) => {
  const seen = new Set<string>();
  users.forEach((user, index) => {
    if (seen.has(user.username)) context.addIssue({ code: 'custom', path: [index, 'username'], message: `duplicate username "${user.username}"` });
    seen.add(user.username);
  });
});

/** The configured users, as the `config-users` password handler and the storage read them. */
export type Users = z.output<typeof usersSchema>;
