import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildContainer, CENTRAL_PARAMETERS, createLogger, declaredParameters, knownModuleNames, parseConfig, secretParameterNames, KEYS } from '@tessera/cli-server';
import { cryptoRandomSource } from '@tessera/core';
import { generateOidcKeySet } from '@tessera/core/modules/oidc';
import { generateTokenKeys } from '@tessera/core/modules/tokens';
import { TestPki } from '@tessera/testkit/pki';
import { configProblems as problems } from './config-problems.js';

/** The x509 module reading the form field `cert`, its trust anchor a file that is never read by the schema. */
const X509_FORM = { sources: ['form'], trustAnchors: ['ca.pem'], trustedProxies: ['127.0.0.1'] };

type Document = { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } }>> };

/** Every parameter name a route of the document reads: query parameters, and form and JSON body fields. */
function documentedParameters(document: Document): Set<string> {
  const names = new Set<string>();
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) if (parameter.in === 'query') names.add(parameter.name);
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        if (type === 'application/x-www-form-urlencoded') for (const name of Object.keys(media.schema.properties ?? {})) names.add(name);
      }
    }
  }
  return names;
}

// docs/adding-a-module.md §2 — each module declares the request parameters it reads; checks and the log's redaction take them from there
describe('declared request parameters', () => {
  it('the central parts declare the username + password extractor and the validation endpoints; only the password is a secret', () => {
    expect(CENTRAL_PARAMETERS.filter((parameter) => parameter.credential === true).map((parameter) => parameter.name)).to.deep.equal(['username', 'password']);
    expect(CENTRAL_PARAMETERS.filter((parameter) => parameter.secret === true).map((parameter) => parameter.name)).to.deep.equal(['password']);
    expect(secretParameterNames(parseConfig({ modules: [] }))).to.deep.equal(['password']);
  });

  it('each enabled module adds its own, signed with its name, from its own settings; a module that is off adds none', () => {
    const config = parseConfig({ modules: ['rest', 'otp', 'x509'], otp: { parameter: 'pin' }, x509: X509_FORM });
    const declared = declaredParameters(config);
    expect(declared.filter((parameter) => parameter.readBy === 'otp')).to.deep.equal([{ name: 'pin', secret: true, credential: true, readBy: 'otp' }]);
    expect(declared.filter((parameter) => parameter.readBy === 'x509')).to.deep.equal([{ name: 'cert', credential: true, readBy: 'x509' }]);
    expect(declared.some((parameter) => parameter.readBy === 'login')).to.equal(false);
    expect(secretParameterNames(config)).to.deep.equal(['password', 'pin']);
    // The header source reads a header, not a parameter; the earlier registration form only when served.
    expect(declaredParameters(parseConfig({ modules: ['x509'], x509: { ...X509_FORM, sources: ['header'] } })).some((parameter) => parameter.readBy === 'x509')).to.equal(false);
    const registration = { requiredAttribute: { name: 'memberOf', valuePattern: 'staff' } };
    expect(declaredParameters(parseConfig({ modules: ['services'], registration })).filter((parameter) => parameter.readBy === 'services')).to.deep.equal([]);
    expect(declaredParameters(parseConfig({ modules: ['services'], registration: { ...registration, earlier: true } })).filter((parameter) => parameter.readBy === 'services')).to.have.length(6);
  });

  it("the otp code's parameter may be no other declared parameter, naming who reads it; one no enabled module reads is free", () => {
    expect(problems({ modules: ['otp', 'x509'], x509: X509_FORM, otp: { parameter: 'cert' } })).to.deep.equal(['otp.parameter: expected a name other than "cert", which the x509 module reads already']);
    expect(problems({ modules: ['otp', 'proxy'], otp: { parameter: 'pgtUrl' } })).to.deep.equal(['otp.parameter: expected a name other than "pgtUrl", which the proxy module reads already']);
    expect(problems({ modules: ['otp'], otp: { parameter: 'password' } })).to.deep.equal(['otp.parameter: expected a name other than "password", which tessera reads already']);
    expect(parseConfig({ modules: ['otp', 'x509'], x509: { ...X509_FORM, sources: ['header'] }, otp: { parameter: 'cert' } }).otp.parameter).to.equal('cert');
    expect(parseConfig({ modules: ['otp'], otp: { parameter: 'pgtUrl' } }).otp.parameter).to.equal('pgtUrl');
  });

  it('a user who requires a one-time password needs the otp module, said by the otp module when it is off', () => {
    const user = { username: 'a', password: 'p', otpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEH', requireOtp: true };
    expect(problems({ modules: ['login'], users: [{ username: 'b', password: 'p' }, user] })).to.deep.equal(['users[1].requireOtp: needs module "otp", which is not enabled']);
    expect(parseConfig({ modules: ['otp', 'login'], users: [user] }).users).to.have.length(1);
  });

  describe('with every module on', () => {
    let document: Document;
    let config: ReturnType<typeof parseConfig>;
    before(async () => {
      const folder = mkdtempSync(join(tmpdir(), 'tessera-parameters-'));
      const anchor = join(folder, 'ca.pem');
      writeFileSync(anchor, (await new TestPki(Date.now()).rootAuthority()).certificate.pem);
      const { signingKey, encryptionKey } = generateTokenKeys('A128CBC-HS256', cryptoRandomSource);
      config = parseConfig({
        modules: knownModuleNames(),
        x509: { ...X509_FORM, trustAnchors: [anchor] },
        tokens: { signingKey, encryptionKey },
        registration: { earlier: true, requiredAttribute: { name: 'memberOf', valuePattern: 'staff' } },
        otp: { parameter: 'pin' },
        // localhost, not 127.0.0.1: the webauthn module takes a domain only.
        server: { publicUrl: 'http://localhost' },
        webauthn: { selfRegistration: true },
        oidc: { keys: JSON.stringify(generateOidcKeySet(cryptoRandomSource)) },
      });
      const app = buildContainer({ config, logger: createLogger('silent') }).get(KEYS.HttpApp);
      const server = createServer(app.callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        document = (await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/cas/openapi.json`)).json()) as Document;
      } finally {
        server.close();
      }
    });

    it('every parameter a route of the composed server reads is declared, and every declared one is read by a route', () => {
      const read = documentedParameters(document);
      const declared = new Set(declaredParameters(config).filter((parameter) => parameter.mounted !== true).map((parameter) => parameter.name));
      expect([...read].filter((name) => !declared.has(name)), 'read but not declared').to.deep.equal([]);
      expect([...declared].filter((name) => !read.has(name)), 'declared but read by no route').to.deep.equal([]);
    });
  });
});
