import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SOAP, samlResponse, soapRequest, type Node } from '../support/saml.js';
import { APP, form, login, startTessera, type Tessera } from '../support/tessera.js';

// Apereo CAS protocol §4: SAML 1.1 — STs requested with TARGET, validated by SOAP at /samlValidate
describe('SAML 1.1 validation (TARGET and /samlValidate) over HTTP', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera();
  });
  after(() => tessera.close());

  async function targetTicket(target = APP): Promise<string> {
    const response = await fetch(`${tessera.url}/v1/tickets/${await login(tessera.url)}`, form({ TARGET: target }));
    expect(response.status).to.equal(200);
    return response.text();
  }
  const samlValidate = (target: string, body: string) =>
    fetch(`${tessera.url}/samlValidate?TARGET=${encodeURIComponent(target)}`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml', soapaction: 'http://www.oasis-open.org/committees/security' },
      body,
    });

  it('validates a TARGET-granted ticket once, with the name identifier and multi-valued attributes', async () => {
    const st = await targetTicket();
    const response = await samlValidate(APP, soapRequest(st));
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/xml; charset=utf-8');
    const saml = samlResponse(await response.text());
    expect((saml['Status'] as { StatusCode: Node }).StatusCode['@_Value']).to.equal('samlp:Success');
    const assertion = saml['Assertion'] as Node;
    expect((assertion['Conditions'] as { AudienceRestrictionCondition: Node }).AudienceRestrictionCondition['Audience']).to.equal(APP);
    const statement = assertion['AuthenticationStatement'] as { Subject: Node };
    expect(statement.Subject['NameIdentifier']).to.equal('casuser');
    // As the central authentication's credential kind declares it.
    expect(statement).to.include({ '@_AuthenticationMethod': 'urn:oasis:names:tc:SAML:1.0:am:password' });
    const attributes = (assertion['AttributeStatement'] as { Attribute: Node[] }).Attribute;
    const memberOf = attributes.find((attribute) => attribute['@_AttributeName'] === 'memberOf');
    expect(memberOf?.['AttributeValue']).to.deep.equal(['staff', 'faculty']);

    const replay = samlResponse(await (await samlValidate(APP, soapRequest(st))).text());
    expect((replay['Status'] as { StatusCode: Node }).StatusCode['@_Value']).to.equal('samlp:Requester');
    expect(replay).not.to.have.property('Assertion');
  });

  it('refuses a ticket presented with another TARGET, and it is gone afterwards', async () => {
    const st = await targetTicket();
    const wrong = await samlValidate('https://app.example.org/elsewhere', soapRequest(st));
    expect(wrong.status).to.equal(400);
    expect((samlResponse(await wrong.text())['Status'] as Node)['StatusMessage']).to.include('does not match supplied service');
    expect((await samlValidate(APP, soapRequest(st))).status).to.equal(400);
  });

  it('answers 400 to malformed SOAP and to an XXE attempt, reading no file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tessera-e2e-xxe-'));
    try {
      const secret = `secret-${randomUUID()}`;
      const file = join(dir, 'secret');
      await writeFile(file, secret);
      const st = await targetTicket();
      expect((await samlValidate(APP, `<SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP}"><SOAP-ENV:Body>`)).status).to.equal(400);
      for (const target of [pathToFileURL(file).href, 'file:///etc/hostname']) {
        const xxe = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "${target}">]>${soapRequest('&x;')}`;
        const response = await samlValidate(APP, xxe);
        expect(response.status).to.equal(400);
        expect(await response.text()).not.to.include(secret);
      }
      expect((await samlValidate(APP, soapRequest(st))).status, 'the ticket survived the bad requests').to.equal(200);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
