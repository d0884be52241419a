import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildContainer, createLogger, knownModuleNames, parseConfig, KEYS, type HttpApp } from '@tessera/cli-server';
import { cryptoRandomSource } from '@tessera/core';
import { generateLoginSecret } from '@tessera/core/modules/login';
import { generateOidcKeySet } from '@tessera/core/modules/oidc';
import { generateTokenKeys } from '@tessera/core/modules/tokens';
import { TestPki } from '@tessera/testkit/pki';

/** A trust anchor file for the x509 module. */
async function trustAnchorFile(): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'tessera-openapi-')), 'ca.pem');
  writeFileSync(file, (await new TestPki(Date.now()).rootAuthority()).certificate.pem);
  return file;
}

/**
 * Every module tessera knows switched on, each with the settings it needs, a validation rate included.
 * x509 reads the form field and the proxy header (its TLS source adds no parameter, and needs server.tls).
 */
async function everyModuleConfig() {
  const { signingKey, encryptionKey } = generateTokenKeys('A128CBC-HS256', cryptoRandomSource);
  return parseConfig({
    x509: { trustAnchors: [await trustAnchorFile()], sources: ['form', 'header'], trustedProxies: ['127.0.0.1'] },
    modules: knownModuleNames(),
    // localhost, not 127.0.0.1: the webauthn module takes a domain only.
    server: { basePath: '/cas', publicUrl: 'http://localhost' },
    tokens: { signingKey, encryptionKey },
    oidc: { keys: JSON.stringify(generateOidcKeySet(cryptoRandomSource)) },
    // Configured secrets: no key file is written into the checkout.
    login: { key: generateLoginSecret(cryptoRandomSource) },
    registration: { earlier: true, requiredAttribute: { name: 'memberOf', valuePattern: 'staff' } },
    throttle: { validation: { requestsPerSecond: 10 } },
  });
}

interface RouterLayer {
  readonly path: string;
  readonly methods: readonly string[];
}

/** The layers of the app's router: what it really serves (Koa keeps the router on its routes() middleware). */
function routerLayers(app: HttpApp): RouterLayer[] {
  const { middleware } = app as unknown as { middleware: { router?: { stack: RouterLayer[] } }[] };
  const router = middleware.find((layer) => layer.router)?.router;
  expect(router, 'the router of the app').to.not.equal(undefined);
  return router!.stack;
}

async function served(app: HttpApp, path: string): Promise<Response> {
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
  } finally {
    server.close();
  }
}

type Operations = Record<string, Record<string, { operationId: string; parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>;

/** Every Schema Object of a document: under `schema` of parameters, headers and media types, and the components. */
function schemaObjects(node: unknown, found: unknown[] = []): unknown[] {
  if (Array.isArray(node)) node.forEach((item) => schemaObjects(item, found));
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'schema') found.push(value);
      else if (key === 'schemas') found.push(...Object.values(value as Record<string, unknown>));
      else schemaObjects(value, found);
    }
  }
  return found;
}

// docs/protocol.md §11 — the document describes exactly the routes the server serves, and is valid OpenAPI 3.1
describe('docs/protocol.md §11 OpenAPI document of the composed server', () => {
  let app: HttpApp;
  let document: { openapi: string; info: { version: string }; paths: Operations };
  before(async () => {
    const config = await everyModuleConfig();
    app = buildContainer({ config, logger: createLogger('silent') }).get(KEYS.HttpApp);
    const response = await served(app, '/cas/openapi.json');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    document = (await response.json()) as typeof document;
  });

  it('with every module on, each route of the router is in the document with its method, and nothing else', () => {
    const served = new Set<string>();
    for (const layer of routerLayers(app)) {
      const path = layer.path.replace(/^\/cas/, '').replace(/:(\w+)/g, '{$1}');
      const documented = Object.keys(document.paths[path] ?? {});
      const methods = layer.methods.filter((method) => method !== 'HEAD').map((method) => method.toLowerCase());
      if (methods.length > 2 && documented.length === 1) {
        // Routed for every method (the validation endpoints): one documented method, the others refused with 405.
        expect(methods, path).to.include(documented[0]);
        expect(document.paths[path]![documented[0]!]!.responses, path).to.have.property('405');
        served.add(`${documented[0]} ${path}`);
      } else {
        expect(documented, `${methods.join()} ${path}`).to.include.members(methods);
        methods.forEach((method) => served.add(`${method} ${path}`));
      }
    }
    const inDocument = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`));
    expect(inDocument).to.have.members([...served]);
    expect(inDocument).to.include.members(['post /v1/services', 'post /v1/services/add/{tgt}', 'get /openapi.json', 'post /samlValidate']);
  });

  it('is a valid OpenAPI 3.1 document: the official schema, JSON Schema 2020-12 schemas, declared path parameters, unique operation ids', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors, JSON.stringify(result.errors)).to.equal(undefined);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');

    const ajv = new Ajv2020({ strict: false });
    const schemas = schemaObjects(document);
    expect(schemas.length).to.be.above(20);
    for (const schema of schemas) expect(ajv.validateSchema(schema as object), JSON.stringify(schema)).to.equal(true);

    const ids: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      for (const operation of Object.values(operations)) {
        const inPath = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
        expect(inPath, path).to.deep.equal(templated);
        ids.push(operation.operationId);
      }
    }
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('documents the x509 inputs on every credential-taking route: the cert form field and the proxy header', () => {
    type Operation = { parameters?: { name: string; in: string }[]; requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } };
    const operations = document.paths as unknown as Record<string, Record<string, Operation>>;
    for (const [path, method] of [['/v1/tickets', 'post'], ['/v1/tickets/{tgt}', 'post'], ['/v1/users', 'post']] as const) {
      const operation = operations[path]![method]!;
      const form = operation.requestBody!.content['application/x-www-form-urlencoded']!.schema;
      expect(Object.keys(form.properties ?? {}), `${method} ${path}`).to.include.members(['username', 'password', 'otp', 'cert']);
      expect(operation.parameters!.filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name), `${method} ${path}`).to.include('ssl_client_cert');
    }
  });

  it("names this tessera's version", async () => {
    const { readFile } = await import('node:fs/promises');
    const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(document.info.version).to.equal(manifest.version);
  });
});
