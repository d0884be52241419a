import type { Clock } from '@tessera/core';
import { createServer } from 'node:net';
import { OTHER_SERVICE, servicesWith, startLogin } from '../login/support.js';
import type { Tessera } from '../../support/tessera.js';

/** A service whose multifactorPolicy asks a security key. */
export const MFA = 'https://mfa.example.org/home';
/** A service asking a security key or a one-time code, in that order. */
export const EITHER = 'https://either.example.org/home';

export const mfaService = (id: number, host: string, providers: readonly string[]) => ({
  '@class': 'org.apereo.cas.services.CasRegisteredService',
  id,
  name: host,
  serviceId: `^https://${host.replaceAll('.', '\\.')}/.*`,
  multifactorPolicy: { '@class': 'org.apereo.cas.services.DefaultRegisteredServiceMultifactorPolicy', multifactorAuthenticationProviders: ['java.util.LinkedHashSet', [...providers]] },
  attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
});

/** A clock that runs with the machine's, moved on by the test. */
export class MovableClock implements Clock {
  private offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
  advanceSeconds(seconds: number): void {
    this.offset += seconds * 1000;
  }
}

export interface WebAuthnServer {
  readonly tessera: Tessera;
  /** `http://localhost:<port>`: the public URL, the RP's origin (its id `localhost`). */
  readonly origin: string;
}

/** Tessera with the webauthn module on, its public URL on localhost (WebAuthn's secure context without TLS), self-registration on. */
export async function startWebAuthn(overrides: Record<string, unknown> = {}, options: { readonly clock?: Clock } = {}): Promise<WebAuthnServer> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const { webauthn, ...rest } = overrides;
  const tessera = await startLogin(
    {
      server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: origin },
      modules: ['rest', 'otp', 'login', 'webauthn'],
      services: servicesWith(OTHER_SERVICE, mfaService(30, 'mfa.example.org', ['mfa-webauthn']), mfaService(31, 'either.example.org', ['mfa-webauthn', 'mfa-gauth'])),
      webauthn: { selfRegistration: true, ...(webauthn as object) },
      users: [
        { username: 'casuser', password: 'Mellon', attributes: { mail: ['casuser@example.org'], memberOf: ['staff', 'faculty'] } },
        { username: 'alice', password: 'secret', attributes: { memberOf: ['students'] } },
        { username: 'bob', password: 'Builder' },
      ],
      ...rest,
    },
    options.clock === undefined ? {} : { clock: options.clock },
  );
  return { tessera, origin };
}

/** The WebAuthn options a page holds for its script (the `data-options` attribute), parsed. */
export function optionsOf(body: string): { challenge: string; rpId?: string; rp?: { id?: string }; user?: { id: string }; allowCredentials?: { id: string }[] } {
  const found = /data-options="([^"]*)"/.exec(body)?.[1];
  if (found === undefined) throw new Error(`no WebAuthn options in the page:\n${body}`);
  return JSON.parse(found.replace(/&(amp|lt|gt|quot|#39);/g, (_, entity: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[entity] ?? _)) as ReturnType<typeof optionsOf>;
}

/** A loopback port free now: the public URL names it before the server starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}
