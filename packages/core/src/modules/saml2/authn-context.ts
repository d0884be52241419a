import { AUTHN_CONTEXT, STATUS } from './saml-names.js';
import { SamlRequestRefusedError } from './saml-requests.js';

/** The classes tessera knows how to compare, weakest first (a password over TLS is stronger than a bare one). */
const STRENGTH: readonly string[] = [AUTHN_CONTEXT.unspecified, AUTHN_CONTEXT.password, AUTHN_CONTEXT.passwordProtectedTransport, AUTHN_CONTEXT.x509, 'https://refeds.org/profile/mfa'];

/** A RequestedAuthnContext's classes and comparison (`exact` when the request names none). */
export interface RequestedAuthnContext {
  readonly classes: readonly string[];
  readonly comparison: string;
}

/**
 * Whether the class a login proved meets a RequestedAuthnContext (SAML Core §3.3.2.2.1): `exact`, one of
 * the classes named; `minimum`, at least as strong as one of them; `better`, stronger than one of
 * them; `maximum`, no stronger than one of them. A class whose strength tessera does not know meets
 * only by being named (never `better`).
 */
export function meetsRequestedAuthnContext(requested: RequestedAuthnContext | undefined, proved: string): boolean {
  if (requested === undefined || requested.classes.length === 0) return true;
  const { classes, comparison } = requested;
  const rank = STRENGTH.indexOf(proved);
  const ranks = classes.map((name) => STRENGTH.indexOf(name)).filter((at) => at >= 0);
  switch (comparison) {
    case 'minimum':
      return classes.includes(proved) || (rank >= 0 && ranks.some((at) => rank >= at));
    case 'better':
      return rank >= 0 && ranks.some((at) => rank > at);
    case 'maximum':
      return classes.includes(proved) || (rank >= 0 && ranks.some((at) => rank <= at));
    default:
      return classes.includes(proved);
  }
}

/** As meetsRequestedAuthnContext, refused with NoAuthnContext when the login does not meet it. */
export function checkRequestedAuthnContext(requested: RequestedAuthnContext | undefined, proved: string): void {
  if (meetsRequestedAuthnContext(requested, proved)) return;
  const { classes, comparison } = requested!;
  throw new SamlRequestRefusedError(`The request asks for an authentication context ${comparison} ${classes.join(' or ')}; this login proved ${proved}`, STATUS.requester, STATUS.noAuthnContext);
}

/**
 * The class the assertion names for a login: the SP definition's `requiredAuthenticationContextClass`
 * when it has one (Apereo's, whatever the login proved), else the class the login proved.
 */
export function authnContextClassFor(requiredByDefinition: string | undefined, proved: string): string {
  return requiredByDefinition ?? proved;
}

/** The classes a login meets, weakest first: a password over the login form, and with a second factor REFEDS MFA. */
export const REFEDS_MFA = 'https://refeds.org/profile/mfa';

export function classesMetBy(secondFactor: boolean): string[] {
  const password = [AUTHN_CONTEXT.unspecified, AUTHN_CONTEXT.password, AUTHN_CONTEXT.passwordProtectedTransport];
  return secondFactor ? [...password, REFEDS_MFA] : password;
}

/**
 * The class the assertion names for a login that meets `met` (weakest first), answering a
 * RequestedAuthnContext: for `exact`, the first class it names that the login meets (as Apereo CAS
 * names the requested class); for the comparisons, the strongest the login meets, when that meets the
 * request; without a request, the strongest. Refused with NoAuthnContext when none does.
 */
export function answeredAuthnContext(requested: RequestedAuthnContext | undefined, met: readonly string[]): string {
  const strongest = met[met.length - 1] ?? AUTHN_CONTEXT.unspecified;
  if (requested === undefined || requested.classes.length === 0) return strongest;
  if (requested.comparison === 'exact') {
    const named = requested.classes.find((name) => met.includes(name));
    if (named !== undefined) return named;
  } else if (meetsRequestedAuthnContext(requested, strongest)) {
    return strongest;
  }
  checkRequestedAuthnContext(requested, strongest);
  return strongest;
}
