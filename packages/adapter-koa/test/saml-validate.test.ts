import { expect } from 'chai';
import { APP, createTgt, grantSt, QUIET_APP, testServer, UNREGISTERED } from './harness.js';
import { child, parseSamlResponse, samlAttributes, samlRequest, text, type XmlNode } from './saml-documents.js';
import { samlValidate, targetSt } from './saml-exchange.js';

const LOGIN_TIME = '2026-11-21T10:00:00.000Z';

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
  });
});
