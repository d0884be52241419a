import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { form, login, serviceTicket, startTessera, type Tessera } from '../support/tessera.js';

/** casuser (memberOf staff) may register; alice (students) may not. */
export const REGISTRATION = { earlier: true, requiredAttribute: { name: 'memberOf', valuePattern: 'STAFF' } };

export function startWithServices(registration: Record<string, unknown> = REGISTRATION): Promise<Tessera> {
  return startTessera({ modules: ['rest', 'services'], registration });
}

export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** POST /v1/services with a JSON body and, unless null, casuser's Basic credentials. */
export function postService(base: string, body: unknown, authorization: string | null = basic('casuser', 'Mellon'), type = 'application/json') {
  const headers: Record<string, string> = { 'content-type': type };
  if (authorization !== null) headers['authorization'] = authorization;
  return fetch(`${base}/v1/services`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

export function addService(base: string, tgt: string, fields: Record<string, string>) {
  return fetch(`${base}/v1/services/add/${tgt}`, form(fields));
}

/** Status of an ST request for `service` by a fresh casuser login. */
export async function grantStatus(base: string, service: string): Promise<number> {
  const response = await fetch(`${base}/v1/tickets/${await login(base)}`, form({ service }));
  return response.status;
}

/** Logs in, gets an ST for `service` and validates it; the `cas:user` of the answer or the failure code. */
export async function validatedUser(base: string, service: string): Promise<string> {
  const ticket = await serviceTicket(base, await login(base), service);
  const query = new URLSearchParams({ service, ticket, format: 'JSON' });
  const body = (await (await fetch(`${base}/p3/serviceValidate?${query.toString()}`)).json()) as {
    serviceResponse: { authenticationSuccess?: { user: string }; authenticationFailure?: { code: string } };
  };
  return body.serviceResponse.authenticationSuccess?.user ?? body.serviceResponse.authenticationFailure?.code ?? 'none';
}

export function configFile(settings: Record<string, unknown>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tessera-services-')), 'tessera.json');
  writeFileSync(file, JSON.stringify(settings));
  return file;
}
