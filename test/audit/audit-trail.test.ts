import { expect } from 'chai';
import { ticketFingerprint } from '@tessera/core';
import { APP, form, login, serviceTicket, startTessera, type Tessera } from '../support/tessera.js';
import { addService, basic, postService, REGISTRATION } from '../services/support.js';
import { expectEnvelope, linesAfter, parsed, secretPart } from './support.js';

const NEW = { '@class': 'org.apereo.cas.services.CasRegisteredService', name: 'Audited app', serviceId: '^https://audited\\.example\\.org/.*' };
const SOAP = (ticket: string) =>
  '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>' +
  '<samlp:Request xmlns:samlp="urn:oasis:names:tc:SAML:1.0:protocol" MajorVersion="1" MinorVersion="1" RequestID="_1" IssueInstant="2026-11-22T00:00:00Z">' +
  `<samlp:AssertionArtifact>${ticket}</samlp:AssertionArtifact></samlp:Request></SOAP-ENV:Body></SOAP-ENV:Envelope>`;

// docs/architecture.md §6 — the audit trail over real HTTP: one line per action with who, what, address, outcome and time
describe('audit trail: one line per action (docs/architecture.md §6)', () => {
  let tessera: Tessera;
  const secrets: string[] = ['Mellon', 'Wr0ng-Guess'];
  before(async () => {
    tessera = await startTessera({ modules: ['rest', 'services', 'throttle'], registration: REGISTRATION, throttle: { failure: { threshold: 3 } } });
  });
  after(() => tessera.close());

  const validate = (path: string, ticket: string, service = APP) => fetch(`${tessera.url}${path}?${new URLSearchParams({ service, ticket }).toString()}`);

  it('a bad then a good password: authentication.failed, then authentication.succeeded and the TGT', async () => {
    const read = linesAfter(tessera.audit);
    expect((await fetch(`${tessera.url}/v1/tickets`, form({ username: 'casuser', password: 'Wr0ng-Guess' }))).status).to.equal(401);
    const tgt = await login(tessera.url);
    secrets.push(tgt);
    const [failed, succeeded, created, ...rest] = read();
    expect(rest).to.deep.equal([]);
    for (const line of [failed, succeeded, created]) expectEnvelope(line);
    expect(failed).to.deep.include({ level: 'warn', audit: 'authentication', action: 'authentication.failed', outcome: 'failure', who: 'casuser', endpoint: 'POST /cas/v1/tickets' });
    expect(failed!['reasons']).to.deep.equal(['Invalid credentials. Please verify and try again.']);
    expect(succeeded).to.deep.include({ level: 'info', audit: 'authentication', action: 'authentication.succeeded', outcome: 'success', who: 'casuser' });
    expect(created).to.deep.include({ audit: 'ticket', action: 'ticket.created', outcome: 'success', who: 'casuser', kind: 'TGT', ticket: ticketFingerprint(tgt) });
    expect(succeeded!['requestId']).to.equal(created!['requestId']).and.not.equal(failed!['requestId']);
  });

  it('an ST grant and its validation: ticket.created with the service, then ticket.validated', async () => {
    const tgt = await login(tessera.url);
    const read = linesAfter(tessera.audit);
    const st = await serviceTicket(tessera.url, tgt);
    secrets.push(tgt, st);
    expect((await validate('/p3/serviceValidate', st)).status).to.equal(200);
    const [created, validated] = read();
    expectEnvelope(created);
    expect(created).to.deep.include({ action: 'ticket.created', who: 'casuser', kind: 'ST', ticket: ticketFingerprint(st), service: APP, endpoint: 'POST /cas/v1/tickets/:tgt' });
    expectEnvelope(validated);
    expect(validated).to.deep.include({ audit: 'validation', action: 'ticket.validated', outcome: 'success', who: 'casuser', ticket: ticketFingerprint(st), service: APP, endpoint: 'GET /cas/p3/serviceValidate' });
  });

  it('failed validations at every endpoint, /samlValidate included, carry the CAS code and, once known, whose ticket it was', async () => {
    const tgt = await login(tessera.url);
    const tickets = await Promise.all([1, 2, 3].map(() => serviceTicket(tessera.url, tgt)));
    secrets.push(tgt, ...tickets);
    const read = linesAfter(tessera.audit);
    expect((await validate('/validate', tickets[0]!, 'https://app.example.org/elsewhere')).status).to.equal(400);
    expect((await validate('/serviceValidate', tickets[0]!)).status).to.equal(400);
    expect((await validate('/proxyValidate', 'ST-99-NotATicketAtAll-e2e')).status).to.equal(400);
    const saml = await fetch(`${tessera.url}/samlValidate?TARGET=${encodeURIComponent(APP)}`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: SOAP(tickets[1]!) });
    expect(saml.status).to.equal(200);
    const lines = read();
    expect(lines.map((line) => [line['action'], line['outcome'], line['code'], line['who'], line['endpoint']])).to.deep.equal([
      ['ticket.validation.failed', 'failure', 'INVALID_SERVICE', 'casuser', 'GET /cas/validate'],
      ['ticket.validation.failed', 'failure', 'INVALID_TICKET', undefined, 'GET /cas/serviceValidate'],
      ['ticket.validation.failed', 'failure', 'INVALID_TICKET', undefined, 'GET /cas/proxyValidate'],
      ['ticket.validated', 'success', undefined, 'casuser', 'POST /cas/samlValidate'],
    ]);
    for (const line of lines) expectEnvelope(line);
    expect(lines[0]).to.deep.include({ level: 'warn', ticket: ticketFingerprint(tickets[0]!), service: 'https://app.example.org/elsewhere' });
  });

  it('logout: ticket.destroyed names the principal and the STs that went with the TGT', async () => {
    const tgt = await login(tessera.url);
    await serviceTicket(tessera.url, tgt);
    secrets.push(tgt);
    const read = linesAfter(tessera.audit);
    expect((await fetch(`${tessera.url}/v1/tickets/${tgt}`, { method: 'DELETE' })).status).to.equal(200);
    const [destroyed, ...rest] = read();
    expect(rest).to.deep.equal([]);
    expectEnvelope(destroyed);
    expect(destroyed).to.deep.include({ audit: 'logout', action: 'ticket.destroyed', outcome: 'success', who: 'casuser', ticket: ticketFingerprint(tgt), descendants: 1, endpoint: 'DELETE /cas/v1/tickets/:id' });
  });

  it('service registration, both variants: service.saved names who registered it; a Basic auth failure is an authentication.failed', async () => {
    const read = linesAfter(tessera.audit);
    expect((await postService(tessera.url, NEW, basic('casuser', 'Wr0ng-Guess'))).status).to.equal(401);
    const saved = (await (await postService(tessera.url, NEW)).json()) as { id: number };
    const tgt = await login(tessera.url);
    secrets.push(tgt);
    const legacy = await addService(tessera.url, tgt, { serviceId: '^https://legacy\\.example\\.org/.*', name: 'Legacy', description: 'form' });
    expect(legacy.status).to.equal(200);
    const lines = read().filter((line) => line['audit'] !== 'ticket');
    expect(lines.map((line) => [line['action'], line['who'], line['endpoint']])).to.deep.equal([
      ['authentication.failed', 'casuser', 'POST /cas/v1/services'],
      ['authentication.succeeded', 'casuser', 'POST /cas/v1/services'],
      ['service.saved', 'casuser', 'POST /cas/v1/services'],
      ['authentication.succeeded', 'casuser', 'POST /cas/v1/tickets'],
      ['service.saved', 'casuser', 'POST /cas/v1/services/add/:tgt'],
    ]);
    expect(lines[2]).to.deep.include({ audit: 'service', outcome: 'success', serviceId: saved.id, name: 'Audited app', replaced: false });
    expect(lines[4]).to.deep.include({ serviceId: Number(await legacy.text()), name: 'Legacy' });
    for (const line of lines) expectEnvelope(line);
  });

  it('a throttle lock is recorded once, naming the username, apart from the failures that caused it', async () => {
    const read = linesAfter(tessera.audit);
    for (let i = 0; i < 4; i++) await fetch(`${tessera.url}/v1/users`, form({ username: 'Alice', password: 'Wr0ng-Guess' }));
    const lines = read();
    expect(lines.map((line) => line['action'])).to.deep.equal(['authentication.failed', 'authentication.failed', 'authentication.failed', 'authentication.throttled']);
    expectEnvelope(lines[3]);
    expect(lines[3]).to.deep.include({ audit: 'authentication', outcome: 'failure', who: 'alice', lockSeconds: 60, failures: 3, endpoint: 'POST /cas/v1/users' });
    expect(lines[3]).to.not.have.property('key');
  });

  it('no password and no whole ticket id appear anywhere in the trail, and nothing of it in the application log', () => {
    const text = tessera.audit.join('\n');
    for (const secret of secrets.flatMap((s) => (s.includes('-') ? [s, secretPart(s)] : [s]))) {
      expect(text, `the trail contains ${secret.slice(0, 8)}…`).to.not.include(secret);
    }
    expect(parsed(tessera.audit).every((line) => typeof line['audit'] === 'string')).to.equal(true);
    expect(tessera.logs.some((line) => line.includes('"audit":'))).to.equal(false);
  });
});
