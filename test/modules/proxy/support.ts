import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpsCallbackListener } from '@tessera/testkit/modules/proxy';
import { TestPki, type TestAuthority } from '@tessera/testkit/pki';
import { rememberSecret } from '../../support/log-canary.js';
import { baseConfig, form, login, startTessera, type Tessera } from '../../support/tessera.js';

/** The proxy: a portal that validates its tickets with a pgtUrl. */
export const PORTAL = 'https://portal.example.org/home';
/** A back end the portal calls on the user's behalf; it may proxy on, to its own callback. */
export const BACKEND = 'https://backend.example.org/api';

const CAS = 'org.apereo.cas.services';
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A service whose proxy policy admits exactly `callback` (and its query strings). */
export function proxyingService(id: number, name: string, url: string, callback: string): Record<string, unknown> {
  return {
    '@class': `${CAS}.CasRegisteredService`,
    id,
    name,
    serviceId: `^${escaped(new URL(url).origin)}/.*`,
    attributeReleasePolicy: { '@class': `${CAS}.ReturnAllAttributeReleasePolicy` },
    proxyPolicy: { '@class': `${CAS}.RegexMatchingRegisteredServiceProxyPolicy`, pattern: `^${escaped(callback)}(\\?.*)?$` },
  };
}

export interface ProxyWorld {
  readonly tessera: Tessera;
  /** The CA tessera trusts for callbacks (`proxy.callback.caFile`), and one it does not. */
  readonly authority: TestAuthority;
  readonly stranger: TestAuthority;
  /** The portal's and the back end's callbacks: `/pgtCallback` and `/backendCallback` on one listener. */
  readonly listener: HttpsCallbackListener;
  close(): Promise<void>;
}

/**
 * Tessera with the rest and proxy modules (and `modules` given), trusting a test CA for callbacks,
 * the portal and the back end registered as proxies to their callbacks on one HTTPS listener.
 */
export async function startProxyWorld(overrides: Record<string, unknown> = {}, extraServices: readonly Record<string, unknown>[] = []): Promise<ProxyWorld> {
  const pki = new TestPki();
  const authority = await pki.rootAuthority('CN=proxy e2e CA,O=tessera');
  const stranger = await pki.rootAuthority('CN=stranger CA,O=elsewhere');
  const listener = await HttpsCallbackListener.start(authority);
  const caFile = join(mkdtempSync(join(tmpdir(), 'tessera-proxy-e2e-')), 'ca.pem');
  writeFileSync(caFile, authority.certificate.pem);
  const services = [
    ...(baseConfig()['services'] as unknown[]),
    proxyingService(20, 'Portal', PORTAL, listener.url('/pgtCallback')),
    proxyingService(21, 'Back end', BACKEND, listener.url('/backendCallback')),
    ...extraServices,
  ];
  const tessera = await startTessera({ modules: ['rest', 'proxy'], services, proxy: { callback: { caFile, timeoutMs: 1000 } }, ...overrides });
  return {
    tessera,
    authority,
    stranger,
    listener,
    close: async () => {
      await tessera.close();
      await listener.close();
    },
  };
}

export interface Validation {
  readonly user?: string;
  readonly proxyGrantingTicket?: string;
  readonly proxies?: readonly string[];
  readonly code?: string;
}

/** A validation endpoint in JSON, with a pgtUrl when given. */
export async function validate(base: string, path: string, service: string, ticket: string, pgtUrl?: string): Promise<Validation> {
  const query = new URLSearchParams({ service, ticket, format: 'JSON', ...(pgtUrl !== undefined && { pgtUrl }) });
  const response = await fetch(`${base}${path}?${query.toString()}`);
  const { serviceResponse } = (await response.json()) as {
    serviceResponse: { authenticationSuccess?: { user: string; proxyGrantingTicket?: string; proxies?: string[] }; authenticationFailure?: { code: string } };
  };
  const success = serviceResponse.authenticationSuccess;
  if (success) return success;
  return { code: serviceResponse.authenticationFailure?.code ?? 'none' };
}

/** GET /proxy in JSON: the PT, or the failure code. */
export async function proxyTicket(base: string, pgt: string, targetService: string): Promise<{ readonly ticket?: string; readonly code?: string; readonly status: number }> {
  const response = await fetch(`${base}/proxy?${new URLSearchParams({ pgt, targetService, format: 'JSON' }).toString()}`);
  const { serviceResponse } = (await response.json()) as { serviceResponse: { proxySuccess?: { proxyTicket: string }; proxyFailure?: { code: string } } };
  if (serviceResponse.proxySuccess) return { ticket: serviceResponse.proxySuccess.proxyTicket, status: response.status };
  return { code: serviceResponse.proxyFailure?.code ?? 'none', status: response.status };
}

/** What the listener received last at `path`: the PGT and its IOU, each remembered by the log canary. */
export function delivered(listener: HttpsCallbackListener, path: string): { readonly pgtId: string; readonly pgtIou: string } | undefined {
  const call = listener.received.filter((url) => url.pathname === path).at(-1);
  const pgtId = call?.searchParams.get('pgtId');
  const pgtIou = call?.searchParams.get('pgtIou');
  if (!pgtId || !pgtIou) return undefined;
  rememberSecret(pgtId, 'a PGT delivered to a callback');
  return { pgtId, pgtIou };
}

/** Logs casuser in over REST and gets an ST for `service`. */
export async function freshTicket(base: string, service: string): Promise<{ readonly tgt: string; readonly st: string }> {
  const tgt = await login(base);
  const response = await fetch(`${base}/v1/tickets/${tgt}`, form({ service }));
  if (response.status !== 200) throw new Error(`ST grant failed: ${response.status} ${await response.text()}`);
  return { tgt, st: await response.text() };
}
