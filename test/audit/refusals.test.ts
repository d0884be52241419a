import { expect } from 'chai';
import { ticketFingerprint } from '@tessera/core';
import { APP, form, login, startTessera, type Tessera } from '../support/tessera.js';
import { addService, basic, postService, REGISTRATION } from '../services/support.js';
import { expectEnvelope, linesAfter, parsed, secretPart, type AuditLine } from './support.js';

const UNKNOWN_SERVICE = 'https://unknown.example.net/';
const STAFF = 'https://staff.example.org/wiki';
const NO_SSO = 'https://nosso.example.org/';
const DISABLED = 'https://disabled.example.org/';
const UNKNOWN_TGT = 'TGT-404-kM3tQ9zF8wXyLp2VbN7cR4sD1aE6gH0j-e2e';
const NEW = { '@class': 'org.apereo.cas.services.CasRegisteredService', name: 'Refused app', serviceId: '^https://refused\\.example\\.org/.*' };

interface Refusal {
  readonly status: number;
  /** The actions the request wrote, in order; the last is the refusal. */
  readonly actions: readonly string[];
  /** Fields the refusal's line must have besides the envelope. */
  readonly line: AuditLine;
}

// docs/architecture.md §6 — refusals after a successful authentication, or once a TGT was presented, are audited
describe('audit trail: refusals (docs/architecture.md §6)', () => {
  let tessera: Tessera;
  let casuserTgt: string;
  let aliceTgt: string;
  before(async () => {
    tessera = await startTessera({ modules: ['rest', 'services'], registration: REGISTRATION });
    casuserTgt = await login(tessera.url);
    aliceTgt = await login(tessera.url, 'alice', 'secret');
  });
  after(() => tessera.close());

  const post = (path: string, fields: Record<string, string>) => fetch(`${tessera.url}${path}`, form(fields));

  /** Sends the request, then checks its status and that its one refusal line says who, from where, what and why. */
  async function expectRefusal(send: () => Promise<Response>, expected: Refusal): Promise<AuditLine> {
    const read = linesAfter(tessera.audit);
    const response = await send();
    expect(response.status, await response.text()).to.equal(expected.status);
    const lines = read();
    expect(lines.map((line) => line['action'])).to.deep.equal(expected.actions);
    const refusal = lines.at(-1)!;
    expectEnvelope(refusal);
    expect(refusal).to.deep.include({ level: 'warn', outcome: 'failure', ...expected.line });
    expect(new Set(lines.map((line) => line['requestId'])).size, 'one request id').to.equal(1);
    return refusal;
  }

  describe('POST /v1/tickets with a service: authentication.succeeded, then ticket.refused', () => {
    for (const [url, status, reason] of [
      [UNKNOWN_SERVICE, 403, 'SERVICE_NOT_AUTHORIZED'],
      [DISABLED, 403, 'SERVICE_NOT_AUTHORIZED'],
    ] as const) {
      it(`${reason} for ${url}: ${status}`, async () => {
        await expectRefusal(() => post('/v1/tickets', { username: 'casuser', password: 'Mellon', service: url }), {
          status,
          actions: ['authentication.succeeded', 'ticket.refused'],
          line: { audit: 'ticket', action: 'ticket.refused', who: 'casuser', kind: 'TGT', reason, service: url, endpoint: 'POST /cas/v1/tickets' },
        });
      });
    }

    it("PRINCIPAL_NOT_ALLOWED when the principal lacks the service's required attributes: 401", async () => {
      await expectRefusal(() => post('/v1/tickets', { username: 'alice', password: 'secret', service: STAFF }), {
        status: 401,
        actions: ['authentication.succeeded', 'ticket.refused'],
        line: { audit: 'ticket', who: 'alice', kind: 'TGT', reason: 'PRINCIPAL_NOT_ALLOWED', service: STAFF },
      });
    });
  });

  describe('POST /v1/tickets/{tgt}: ticket.refused for the ST', () => {
    it('TGT_NOT_FOUND for an unknown TGT: 404, nobody named, the TGT as a fingerprint', async () => {
      const line = await expectRefusal(() => post(`/v1/tickets/${UNKNOWN_TGT}`, { service: APP }), {
        status: 404,
        actions: ['ticket.refused'],
        line: { audit: 'ticket', kind: 'ST', reason: 'TGT_NOT_FOUND', service: APP, tgt: ticketFingerprint(UNKNOWN_TGT), endpoint: 'POST /cas/v1/tickets/:tgt' },
      });
      expect(line).to.not.have.property('who');
    });

    it('SERVICE_NOT_AUTHORIZED (403) and PRINCIPAL_NOT_ALLOWED (401), naming whose TGT it is', async () => {
      await expectRefusal(() => post(`/v1/tickets/${casuserTgt}`, { service: UNKNOWN_SERVICE }), {
        status: 403,
        actions: ['ticket.refused'],
        line: { who: 'casuser', kind: 'ST', reason: 'SERVICE_NOT_AUTHORIZED', service: UNKNOWN_SERVICE, tgt: ticketFingerprint(casuserTgt) },
      });
      await expectRefusal(() => post(`/v1/tickets/${aliceTgt}`, { service: STAFF }), {
        status: 401,
        actions: ['ticket.refused'],
        line: { who: 'alice', kind: 'ST', reason: 'PRINCIPAL_NOT_ALLOWED', service: STAFF, tgt: ticketFingerprint(aliceTgt) },
      });
    });

    it('SSO_NOT_ALLOWED for a service with ssoEnabled: false, without renew: 401', async () => {
      await expectRefusal(() => post(`/v1/tickets/${casuserTgt}`, { service: NO_SSO }), {
        status: 401,
        actions: ['ticket.refused'],
        line: { who: 'casuser', kind: 'ST', reason: 'SSO_NOT_ALLOWED', service: NO_SSO },
      });
    });

    it("renew without credentials (400), or with another user's (401, after their authentication.succeeded)", async () => {
      await expectRefusal(() => post(`/v1/tickets/${casuserTgt}`, { service: APP, renew: 'true' }), {
        status: 400,
        actions: ['ticket.refused'],
        line: { who: 'casuser', reason: 'RENEW_WITHOUT_CREDENTIALS' },
      });
      await expectRefusal(() => post(`/v1/tickets/${casuserTgt}`, { service: APP, renew: 'true', username: 'alice', password: 'secret' }), {
        status: 401,
        actions: ['authentication.succeeded', 'ticket.refused'],
        line: { who: 'casuser', reason: 'RENEW_PRINCIPAL_MISMATCH' },
      });
    });
  });

  describe('POST /v1/users with a service: authentication.succeeded, then authentication.refused', () => {
    it('SERVICE_NOT_AUTHORIZED (403) and PRINCIPAL_NOT_ALLOWED (401)', async () => {
      await expectRefusal(() => post('/v1/users', { username: 'casuser', password: 'Mellon', service: DISABLED }), {
        status: 403,
        actions: ['authentication.succeeded', 'authentication.refused'],
        line: { audit: 'authentication', action: 'authentication.refused', who: 'casuser', reason: 'SERVICE_NOT_AUTHORIZED', service: DISABLED, endpoint: 'POST /cas/v1/users' },
      });
      await expectRefusal(() => post('/v1/users', { username: 'alice', password: 'secret', service: STAFF }), {
        status: 401,
        actions: ['authentication.succeeded', 'authentication.refused'],
        line: { audit: 'authentication', who: 'alice', reason: 'PRINCIPAL_NOT_ALLOWED', service: STAFF },
      });
    });
  });

  describe('service registration: service.refused', () => {
    it('MISSING_REQUIRED_ATTRIBUTE (403), with Basic credentials and with a TGT', async () => {
      await expectRefusal(() => postService(tessera.url, NEW, basic('alice', 'secret')), {
        status: 403,
        actions: ['authentication.succeeded', 'service.refused'],
        line: { audit: 'service', action: 'service.refused', who: 'alice', reason: 'MISSING_REQUIRED_ATTRIBUTE', endpoint: 'POST /cas/v1/services' },
      });
      await expectRefusal(() => addService(tessera.url, aliceTgt, { serviceId: '^https://x\\.example\\.org/.*', name: 'X', description: 'x' }), {
        status: 403,
        actions: ['service.refused'],
        line: { who: 'alice', reason: 'MISSING_REQUIRED_ATTRIBUTE', tgt: ticketFingerprint(aliceTgt), endpoint: 'POST /cas/v1/services/add/:tgt' },
      });
    });

    it('INVALID_SERVICE_DEFINITION (400) naming the field, in both variants; TGT_NOT_FOUND (404) for an unknown TGT', async () => {
      await expectRefusal(() => postService(tessera.url, { ...NEW, serviceId: '(' }), {
        status: 400,
        actions: ['authentication.succeeded', 'service.refused'],
        line: { who: 'casuser', reason: 'INVALID_SERVICE_DEFINITION', field: 'serviceId' },
      });
      await expectRefusal(() => addService(tessera.url, casuserTgt, { serviceId: '^https://x\\.example\\.org/.*', name: 'X' }), {
        status: 400,
        actions: ['service.refused'],
        line: { who: 'casuser', reason: 'INVALID_SERVICE_DEFINITION', field: 'description' },
      });
      const line = await expectRefusal(() => addService(tessera.url, UNKNOWN_TGT, { serviceId: '^https://x\\.example\\.org/.*', name: 'X', description: 'x' }), {
        status: 404,
        actions: ['service.refused'],
        line: { reason: 'TGT_NOT_FOUND', tgt: ticketFingerprint(UNKNOWN_TGT) },
      });
      expect(line).to.not.have.property('who');
    });
  });

  describe('correlation with the application log', () => {
    it("the application log's lines of a request carry the request id of its audit lines", async () => {
      const [audited, logged] = [tessera.audit.length, tessera.logs.length];
      expect((await post('/v1/tickets', { username: 'alice', password: 'secret', service: STAFF })).status).to.equal(401);
      const trail = parsed(tessera.audit.slice(audited));
      const log = parsed(tessera.logs.slice(logged)).filter((line) => typeof line['event'] === 'string');
      // Events of one turn share a line (memory storage: both); a store's round trip in between parts them (Redis).
      expect(log.flatMap((line) => (line['events'] as string[] | undefined) ?? [line['event']])).to.deep.equal(['authentication.succeeded', 'ticket.refused']);
      const requestId = trail[0]!['requestId'];
      expect(requestId).to.be.a('string');
      expect([...trail, ...log].map((line) => line['requestId'])).to.deep.equal([...trail, ...log].map(() => requestId));
      expect(log.at(-1)).to.deep.include({ level: 'warn', event: 'ticket.refused', reason: 'PRINCIPAL_NOT_ALLOWED', principal: 'alice' }).and.not.have.any.keys('address', 'clientAddress', 'endpoint');
    });
  });

  // Mocha runs a suite's own tests before its nested ones: this one, nested last, sees every line above.
  describe('afterwards', () => {
    it('no password and no whole ticket id appear in the trail or the log', () => {
      expect(parsed(tessera.audit).filter((line) => String(line['action']).endsWith('.refused'))).to.have.length(17);
      const secrets = ['Mellon', 'secret', ...[casuserTgt, aliceTgt, UNKNOWN_TGT].flatMap((id) => [id, secretPart(id)])];
      for (const [stream, text] of [['trail', tessera.audit.join('\n')], ['log', tessera.logs.join('\n')]] as const) {
        for (const secret of secrets) expect(text, `the ${stream} contains ${secret.slice(0, 8)}…`).to.not.include(secret);
      }
    });
  });
});
