import { isIP } from 'node:net';
import type { WebAuthnRelyingParty } from '@tessera/core/modules/webauthn';
import type { SettingProblem } from '../module.js';

/** The WebAuthn relying party of the server's public URL: its host is the RP id, its origin the one origin answers may come from. */
export function relyingPartyOf(publicUrl: string, name: string): WebAuthnRelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name };
}

/**
 * What keeps WebAuthn from working with the server's public URL: none at all (the RP id and origin come
 * from it, never from a request's Host), an IP address (browsers take only a domain as RP id), or plain
 * http other than on localhost (WebAuthn needs a secure context).
 */
export function publicUrlProblems(publicUrl: string | undefined): SettingProblem[] {
  const path = ['server', 'publicUrl'];
  if (publicUrl === undefined) return [{ path, message: 'is needed by the webauthn module: its relying party id and origin come from it (never from a request’s Host)' }];
  const { hostname, protocol } = new URL(publicUrl);
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return [{ path, message: `names an IP address (${host}); WebAuthn needs a domain name as the relying party id (localhost on this machine)` }];
  if (protocol !== 'https:' && host !== 'localhost' && !host.endsWith('.localhost')) {
    return [{ path, message: 'must be https for the webauthn module: browsers offer WebAuthn only to secure pages (plain http on localhost alone)' }];
  }
  return [];
}
