import { expect } from 'chai';
import { ExplodingTicketStore } from './fakes.js';
import { APP, createTgt, grantSt, QUIET_APP, testServer, UNREGISTERED, type TestServer } from './harness.js';
import { child, parseSamlResponse, samlAttributes, samlRequest, text, type XmlNode } from './saml-documents.js';

const LOGIN_TIME = '2026-11-21T10:00:00.000Z';

/** An ST requested the SAML 1.1 way: the service named `TARGET`. */
async function targetSt(server: TestServer, target = APP): Promise<string> {
  const tgt = await createTgt(server);
  const response = await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ TARGET: target });
  expect(response.status, response.text).to.equal(200);
  return response.text;
}

function samlValidate(server: TestServer, target: string | undefined, body: string) {
  return server.http
    .post('/cas/samlValidate')
    .query(target === undefined ? {} : { TARGET: target })
    .set('Content-Type', 'text/xml')
    .set('SOAPAction', 'http://www.oasis-open.org/committees/security')
    .send(body);
}

function assertionOf(xml: string): XmlNode {
  const { status, response } = parseSamlResponse(xml);
  expect(child(status, 'samlp:StatusCode')['@_Value']).to.equal('samlp:Success');
  const assertions = response['saml:Assertion'] as XmlNode[];
  expect(assertions).to.have.length(1);
  return assertions[0]!;
}

describe('Apereo CAS protocol §4 — SAML 1.1: TARGET and /samlValidate', () => {
  describe('POST /v1/tickets/{tgt} with TARGET', () => {
    it('grants an ST bound to the TARGET service, as `service` would', async () => {
      const server = testServer();
      const st = await targetSt(server);
      expect(st).to.match(/^ST-/);
      expect(await server.tickets.get(st)).to.include({ kind: 'ST', service: APP });
    });

    it('applies the same checks: an unregistered TARGET is 403, no service at all is 400; `service` wins when both are sent', async () => {
      const server = testServer();
      const tgt = await createTgt(server);
      expect((await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ TARGET: UNREGISTERED })).status).to.equal(403);
      expect((await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ TARGET: ' ' })).status).to.equal(400);
      const both = await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: QUIET_APP, TARGET: APP });
      expect(await server.tickets.get(both.text)).to.include({ service: QUIET_APP });
    });
  });

  describe('POST /samlValidate', () => {
    it('answers a SOAP envelope with a SAML 1.1 success assertion, text/xml', async () => {
      const server = testServer();
      const st = await targetSt(server);
      server.clock.advanceSeconds(2);
      const response = await samlValidate(server, APP, samlRequest(st, '_request-42'));
      expect(response.status, response.text).to.equal(200);
      expect(response.headers['content-type']).to.equal('text/xml; charset=utf-8');

      const { response: samlResponse } = parseSamlResponse(response.text);
      expect(samlResponse).to.include({ '@_InResponseTo': '_request-42', '@_IssueInstant': '2026-11-21T10:00:02.000Z' });
      expect(samlResponse['@_ResponseID']).to.match(/^_[0-9a-f]{32}$/);
      const assertion = assertionOf(response.text);
      expect(assertion).to.include({ '@_Issuer': '127.0.0.1', '@_IssueInstant': '2026-11-21T10:00:02.000Z', '@_MajorVersion': '1', '@_MinorVersion': '1' });
      expect(assertion['@_AssertionID']).to.match(/^_[0-9a-f]{32}$/);

      const conditions = child(assertion, 'saml:Conditions');
      expect(conditions).to.include({ '@_NotBefore': '2026-11-21T10:00:02.000Z', '@_NotOnOrAfter': '2026-11-21T10:00:32.000Z' });
      expect(text(child(conditions, 'saml:AudienceRestrictionCondition'), 'saml:Audience')).to.equal(APP);

      const statement = child(assertion, 'saml:AuthenticationStatement');
      expect(statement).to.include({ '@_AuthenticationMethod': 'urn:oasis:names:tc:SAML:1.0:am:password', '@_AuthenticationInstant': LOGIN_TIME });
      expect(text(child(statement, 'saml:Subject'), 'saml:NameIdentifier')).to.equal('casuser');

      const attributeStatement = (assertion['saml:AttributeStatement'] as XmlNode[])[0]!;
      expect(text(child(attributeStatement, 'saml:Subject'), 'saml:NameIdentifier')).to.equal('casuser');
      expect(samlAttributes(assertion)).to.deep.equal({
        memberOf: ['staff', 'faculty'],
        isFromNewLogin: ['true'],
        authenticationDate: ['2026-11-21T10:00:00Z'],
      });
    });

    it('omits the attribute statement when the service releases nothing', async () => {
      const server = testServer();
      const response = await samlValidate(server, QUIET_APP, samlRequest(await targetSt(server, QUIET_APP)));
      const assertion = assertionOf(response.text);
      expect(assertion).not.to.have.property('saml:AttributeStatement');
      expect(text(child(child(assertion, 'saml:AuthenticationStatement'), 'saml:Subject'), 'saml:NameIdentifier')).to.equal('casuser');
    });

    it('escapes every user-controlled text: names, values and the audience round-trip exactly', async () => {
      const tricky = `o"brien <&> 'x'`;
      const server = testServer({ users: { [tricky]: { password: 'pw', attributes: { 'a"b<c': ['1 < 2 & "3"', 'line\nbreak'] } } } });
      const tgt = await createTgt(server, { username: tricky, password: 'pw' });
      const target = `${APP}?a="1"&b=<2>`;
      const st = await grantSt(server, tgt, target);
      const response = await samlValidate(server, target, samlRequest(st));
      const assertion = assertionOf(response.text);
      expect(text(child(child(assertion, 'saml:AuthenticationStatement'), 'saml:Subject'), 'saml:NameIdentifier')).to.equal(tricky);
      expect(text(child(child(assertion, 'saml:Conditions'), 'saml:AudienceRestrictionCondition'), 'saml:Audience')).to.equal(target);
      expect(samlAttributes(assertion)['a"b<c']).to.deep.equal(['1 < 2 & "3"', 'line\nbreak']);
    });

    it('refuses a replayed, expired, unknown or renew-failing ticket with samlp:Requester / samlp:RequestDenied', async () => {
      const server = testServer();
      const st = await targetSt(server);
      expect((await samlValidate(server, APP, samlRequest(st))).status).to.equal(200);
      const replay = await samlValidate(server, APP, samlRequest(st, '_again'));
      expect(replay.status).to.equal(400);
      expect(replay.headers['content-type']).to.equal('text/xml; charset=utf-8');
      expectDenied(replay.text, `Ticket '${st}' not recognized`);
      expect(parseSamlResponse(replay.text).response['@_InResponseTo']).to.equal('_again');

      const expired = await targetSt(server);
      server.clock.advanceSeconds(11);
      expectDenied((await samlValidate(server, APP, samlRequest(expired))).text, 'not recognized');
      expectDenied((await samlValidate(server, APP, samlRequest('ST-1-unknown'))).text, "Ticket 'ST-1-unknown' not recognized");

      const tgt = await createTgt(server);
      await grantSt(server, tgt);
      const notFresh = await grantSt(server, tgt);
      const renew = await server.http.post('/cas/samlValidate').query({ TARGET: APP, renew: 'true' }).type('text/xml').send(samlRequest(notFresh));
      expectDenied(renew.text, 'renew');
    });

    it('refuses a wrong TARGET (INVALID_SERVICE) and burns the ticket', async () => {
      const server = testServer();
      const st = await targetSt(server);
      const wrong = await samlValidate(server, 'https://app.example.org/other', samlRequest(st));
      expect(wrong.status).to.equal(400);
      expectDenied(wrong.text, 'does not match supplied service');
      expectDenied((await samlValidate(server, APP, samlRequest(st))).text, 'not recognized');
    });

    it('without TARGET: samlp:Requester, and the ticket is left alone', async () => {
      const server = testServer();
      const st = await targetSt(server);
      const response = await samlValidate(server, undefined, samlRequest(st));
      expect(response.status).to.equal(400);
      const { status } = parseSamlResponse(response.text);
      expect(child(status, 'samlp:StatusCode')).to.deep.equal({ '@_Value': 'samlp:Requester' });
      expect(text(status, 'samlp:StatusMessage')).to.equal("The 'TARGET' parameter is required");
      expect(await server.tickets.get(st)).not.to.equal(undefined);
    });

    it('answers 200 for a refused ticket when validationFailureStatus is 200', async () => {
      const server = testServer({ options: { validationFailureStatus: 200 } });
      const response = await samlValidate(server, APP, samlRequest('ST-1-unknown'));
      expect(response.status).to.equal(200);
      expectDenied(response.text, 'not recognized');
    });

    it('a broken ticket store is the responder\'s fault: 500 with samlp:Responder, nothing echoed, reported', async () => {
      const server = testServer({ tickets: new ExplodingTicketStore() });
      const response = await samlValidate(server, APP, samlRequest('ST-1-x'));
      expect(response.status).to.equal(500);
      const { status } = parseSamlResponse(response.text);
      expect(child(status, 'samlp:StatusCode')).to.deep.equal({ '@_Value': 'samlp:Responder' });
      expect(text(status, 'samlp:StatusMessage')).to.equal('The server could not validate the ticket');
      expect(server.events.ofType('server.error')).to.have.length(1);
    });

    it('takes only POST (405, Allow: POST) and only an XML body (415), up to maxBodyBytes (413)', async () => {
      const server = testServer();
      const st = await targetSt(server);
      const get = await server.http.get('/cas/samlValidate').query({ TARGET: APP });
      expect(get.status).to.equal(405);
      expect(get.headers.allow).to.equal('POST');
      expect(child(parseSamlResponse(get.text).status, 'samlp:StatusCode')['@_Value']).to.equal('samlp:Requester');
      const form = await server.http.post('/cas/samlValidate').query({ TARGET: APP }).type('form').send({ ticket: st });
      expect(form.status).to.equal(415);
      const huge = await samlValidate(server, APP, samlRequest(st).replace('<SOAP-ENV:Header/>', `<SOAP-ENV:Header>${'x'.repeat(5000)}</SOAP-ENV:Header>`));
      expect(huge.status).to.equal(413);
      expect(await server.tickets.get(st)).not.to.equal(undefined);
      expect((await server.http.post('/cas/samlValidate').query({ TARGET: APP }).type('application/xml').send(samlRequest(st))).status).to.equal(200);
    });
  });
});

function expectDenied(xml: string, message: string): void {
  const { status, response } = parseSamlResponse(xml);
  expect(response).not.to.have.property('saml:Assertion');
  expect(child(status, 'samlp:StatusCode')).to.deep.equal({ '@_Value': 'samlp:Requester', 'samlp:StatusCode': { '@_Value': 'samlp:RequestDenied' } });
  expect(text(status, 'samlp:StatusMessage')).to.include(message);
  expect(xml).not.to.include('NameIdentifier');
}
