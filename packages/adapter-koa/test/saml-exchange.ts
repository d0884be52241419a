import { expect } from 'chai';
import { APP, createTgt, type TestServer } from './harness.js';
import { child, parseSamlResponse, text } from './saml-documents.js';

/** An ST requested the SAML 1.1 way: the service named `TARGET`. */
export async function targetSt(server: TestServer, target = APP): Promise<string> {
  const tgt = await createTgt(server);
  const response = await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ TARGET: target });
  expect(response.status, response.text).to.equal(200);
  return response.text;
}

export function samlValidate(server: TestServer, target: string | undefined, body: string) {
  return server.http
    .post('/cas/samlValidate')
    .query(target === undefined ? {} : { TARGET: target })
    .set('Content-Type', 'text/xml')
    .set('SOAPAction', 'http://www.oasis-open.org/committees/security')
    .send(body);
}

/** A refused ticket: Requester / RequestDenied with `message`, no assertion, no name identifier. */
export function expectDenied(xml: string, message: string): void {
  const { status, response } = parseSamlResponse(xml);
  expect(response).not.to.have.property('saml:Assertion');
  expect(child(status, 'samlp:StatusCode')).to.deep.equal({ '@_Value': 'samlp:Requester', 'samlp:StatusCode': { '@_Value': 'samlp:RequestDenied' } });
  expect(text(status, 'samlp:StatusMessage')).to.include(message);
  expect(xml).not.to.include('NameIdentifier');
}
