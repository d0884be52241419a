import { expect } from 'chai';
import type { TestServer } from './harness.js';

/** The parts of an OpenAPI 3.1 document the tests read. */
export interface Document {
  readonly openapi: string;
  readonly info: { readonly version: string };
  readonly servers: readonly { readonly url: string }[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>;
  readonly components: { readonly securitySchemes?: Readonly<Record<string, unknown>> };
}

export interface Operation {
  readonly operationId: string;
  readonly parameters?: readonly { readonly name: string; readonly in: string; readonly schema: JsonSchema }[];
  readonly requestBody?: { readonly content: Readonly<Record<string, { readonly schema: JsonSchema }>> };
  readonly responses: Readonly<Record<string, { readonly content?: Readonly<Record<string, unknown>>; readonly headers?: Readonly<Record<string, unknown>> }>>;
  readonly security?: readonly Readonly<Record<string, unknown>>[];
}

export interface JsonSchema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly additionalProperties?: JsonSchema | boolean;
}

export async function openApiOf(server: TestServer): Promise<Document> {
  const response = await server.http.get('/cas/openapi.json');
  expect(response.status, response.text).to.equal(200);
  expect(response.type).to.equal('application/json');
  return response.body as Document;
}

export function operation(document: Document, method: string, path: string): Operation {
  const found = document.paths[path]?.[method];
  expect(found, `${method.toUpperCase()} ${path}`).to.not.equal(undefined);
  return found!;
}

/** The schema of the parameters a route reads from a form or JSON body (the two are one). */
export function bodyParameters(document: Document, path: string): JsonSchema {
  const content = operation(document, 'post', path).requestBody?.content;
  expect(content?.['application/json']?.schema).to.deep.equal(content?.['application/x-www-form-urlencoded']?.schema);
  return content!['application/json']!.schema;
}

export function parameterNames(document: Document, path: string): string[] {
  return Object.keys(bodyParameters(document, path).properties ?? {});
}

export function headerNames(operation: Operation): string[] {
  return (operation.parameters ?? []).filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name);
}
