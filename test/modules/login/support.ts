import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseConfig, startTessera, type Tessera } from '../../support/tessera.js';
import type { Browser, Visit } from '../../support/browser.js';

export const OTHER = 'https://other.example.org/start';

/** A second app, for single sign-on without the form, releasing every attribute. */
export const OTHER_SERVICE = {
  '@class': 'org.apereo.cas.services.CasRegisteredService',
  id: 5,
  name: 'Other',
  serviceId: '^https://other\\.example\\.org/.*',
  attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
};

/** The base configuration's services, and more. */
/** The login module's branding in the picture of the login page that README.md and docs/modules/login.md show (its captions name these settings). */
export const SCREENSHOT_BRANDING = { title: 'Example University', text: 'Use your university account. Forgotten your password? Ask the IT desk.' } as const;

export function servicesWith(...more: readonly Record<string, unknown>[]): unknown[] {
  return [...(baseConfig()['services'] as unknown[]), ...more];
}

/** Tessera with the login module, its secret in a key file of its own; `options` as startTessera's (a clock of the test's own). */
export function startLogin(overrides: Record<string, unknown> = {}, options: Parameters<typeof startTessera>[1] = {}): Promise<Tessera> {
  const { login, ...rest } = overrides;
  const keyFile = join(mkdtempSync(join(tmpdir(), 'tessera-login-')), 'login-key.json');
  return startTessera({ modules: ['rest', 'login'], services: servicesWith(OTHER_SERVICE), ...rest, login: { keyFile, ...(login as object) } }, options);
}

/** The user's steps: open /login for the service, submit the form with these credentials. */
export async function logIn(browser: Browser, base: string, service: string | undefined, username = 'casuser', password = 'Mellon'): Promise<Visit> {
  const page = await browser.get(`${base}/login${service === undefined ? '' : `?service=${encodeURIComponent(service)}`}`);
  if (page.status !== 200) throw new Error(`GET /login: ${page.status}\n${page.body}`);
  return browser.submit(page, { username, password });
}

export interface Validation {
  readonly user?: string;
  readonly attributes?: Record<string, unknown>;
  readonly code?: string;
}

/** /p3/serviceValidate in JSON: whom the ticket speaks for, or the failure code. */
export async function validate(base: string, service: string, ticket: string): Promise<Validation> {
  const response = await fetch(`${base}/p3/serviceValidate?format=JSON&service=${encodeURIComponent(service)}&ticket=${encodeURIComponent(ticket)}`);
  const { serviceResponse } = (await response.json()) as {
    serviceResponse: { authenticationSuccess?: { user: string; attributes?: Record<string, unknown> }; authenticationFailure?: { code: string } };
  };
  const success = serviceResponse.authenticationSuccess;
  if (success) return { user: success.user, ...(success.attributes && { attributes: success.attributes }) };
  return { code: serviceResponse.authenticationFailure?.code ?? 'none' };
}
