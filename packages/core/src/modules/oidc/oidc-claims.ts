import type { AttributeMap } from '../../domain/authentication/principal.js';

/** The claims of the standard scopes (OpenID Connect Core §5.4), each released from the attribute of the same name. */
export const STANDARD_SCOPE_CLAIMS: Readonly<Record<string, readonly string[]>> = {
  profile: [
    'name',
    'family_name',
    'given_name',
    'middle_name',
    'nickname',
    'preferred_username',
    'profile',
    'picture',
    'website',
    'gender',
    'birthdate',
    'zoneinfo',
    'locale',
    'updated_at',
  ],
  email: ['email', 'email_verified'],
  phone: ['phone_number', 'phone_number_verified'],
  address: ['address'],
};

const BOOLEAN_CLAIMS = new Set(['email_verified', 'phone_number_verified']);
const NUMBER_CLAIMS = new Set(['updated_at']);

export type ClaimValue = string | number | boolean | readonly string[];

/**
 * The claims of a principal from the attributes its client's release policy lets through: one value
 * as itself, several as a list; the `*_verified` claims as booleans and `updated_at` as a number, as
 * the specification types them. `sub` is the principal's id; the provider keeps only the claims of
 * the scopes granted.
 */
export function claimsOf(principalId: string, released: AttributeMap): Record<string, ClaimValue> {
  const claims: Record<string, ClaimValue> = {};
  for (const [name, values] of Object.entries(released)) {
    if (values.length === 0 || name === 'sub') continue;
    if (BOOLEAN_CLAIMS.has(name)) claims[name] = values[0]?.toLowerCase() === 'true';
    else if (NUMBER_CLAIMS.has(name) && /^\d+$/.test(values[0] ?? '')) claims[name] = Number(values[0]);
    else claims[name] = values.length === 1 ? (values[0] as string) : [...values];
  }
  claims['sub'] = principalId;
  return claims;
}
