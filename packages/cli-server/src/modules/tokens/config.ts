import { z } from 'zod';
import { CONTENT_ENCRYPTION_ALGORITHMS, REQUEST_PARAMETERS_CLAIM, encryptionKeyProblem, signingKeyProblem } from '@tessera/core/modules/tokens';

const key = (what: string) => z.string({ error: `expected ${what}` }).min(1, { error: `expected ${what}` });

/**
 * Settings of the `tokens` module (docs/protocol.md §6). Configured keys are size-checked here, so a bad
 * one stops the start with its setting named; keys from the key file are checked when it is read.
 */
export const tokensSchema = z
  .strictObject(
    {
      encryptionAlgorithm: z
        .enum(CONTENT_ENCRYPTION_ALGORITHMS, { error: `expected ${CONTENT_ENCRYPTION_ALGORITHMS.join(', ')}` })
        .default('A128CBC-HS256')
        .describe('Content encryption of the JWE inside each JWT (key management is always `dir`), as CAS `cas.authn.token.crypto.alg`.'),
      signingKey: key('the HS512 signing key')
        .optional()
        .describe('HS512 key of the outer JWS; its UTF-8 bytes are the key (at least 64). Unset: taken from `tokens.keyFile`.'),
      encryptionKey: key('the encryption key')
        .optional()
        .describe('JWE key as base64url (an `oct` JWK `k`): 32 bytes for A128CBC-HS256 and A256GCM, 64 for A256CBC-HS512. Unset: taken from `tokens.keyFile`.'),
      keyFile: key('a file path')
        .default('tessera-token-keys.json')
        .meta({ defaultText: '`tessera-token-keys.json` (in demo mode: in `~/.local/state/tessera`, or `$XDG_STATE_HOME/tessera`)' })
        .describe('Where keys not configured are kept: read if it exists, else generated on first start and written with mode 0600. Share it between nodes; a warning at start names it when group or others may read it.'),
      issuer: z
        .url({ error: 'expected an absolute URL such as https://cas.example.org/cas' })
        .optional()
        .meta({ defaultText: '`server.publicUrl` + `server.basePath`, else the server URL as each request reached it' })
        .describe('`iss` of every JWT and `aud` of TGT JWTs (CAS `cas.server.prefix`), e.g. `https://cas.example.org/cas`. With `server.publicUrl` set it may only repeat that URL and the base path; leave it unset.'),
      requestParameters: z
        .array(z.string({ error: 'expected a parameter name' }).regex(/^[A-Za-z][A-Za-z0-9._-]*$/, { error: 'expected a parameter name: a letter, then letters, digits, ., _ or -' }), {
          error: 'expected a list of parameter names',
        })
        .refine((names) => new Set(names).size === names.length, { error: 'lists a parameter twice' })
        .default([])
        .describe(
          `Parameters of \`POST /v1/tickets\` copied, when sent, into one claim \`${REQUEST_PARAMETERS_CLAIM}\` of the TGT JWT (an object of name → value), which never replaces an attribute or a registered claim. Credential parameters are refused. Empty: no request parameter reaches a token.`,
        ),
    },
    { error: 'expected a map of settings' },
  )
  .superRefine((tokens, context) => {
    const signing = tokens.signingKey === undefined ? undefined : signingKeyProblem(tokens.signingKey);
    if (signing) context.addIssue({ code: 'custom', path: ['signingKey'], message: signing, input: '(secret)' });
    const encryption = tokens.encryptionKey === undefined ? undefined : encryptionKeyProblem(tokens.encryptionKey, tokens.encryptionAlgorithm);
    if (encryption) context.addIssue({ code: 'custom', path: ['encryptionKey'], message: encryption, input: '(secret)' });
  });

export type TokensConfig = z.output<typeof tokensSchema>;

export const tokensSections = { tokens: tokensSchema.prefault({}) };
