import type { Credential } from '@tessera/core';
import type { Socket } from 'node:net';
import type { z } from 'zod';
import { optionalText } from './parameter-schemas.js';

/** What an extractor may look at: its own parameters and headers, parsed through its schemas. */
export interface CredentialRequest<Parameters = Readonly<Record<string, unknown>>, Headers = Readonly<Record<string, unknown>>> {
  readonly parameters: Parameters;
  readonly headers: Headers;
  /** A TLSSocket on an HTTPS listener (client certificates). */
  readonly socket: Socket;
}

/**
 * Request → credentials (CAS's REST credential factories); credential → principal is core's handlers'
 * job. Every credential-taking route reads and documents the parameters and headers of every installed
 * extractor, so a module that is off adds none.
 */
export interface CredentialExtractor {
  readonly parameters: z.ZodRawShape;
  /** By lower-case header name. */
  readonly headers: z.ZodRawShape;
  extract(request: CredentialRequest): Credential[];
}

/** An extractor whose `extract` sees its parameters and headers typed by their schemas. */
export function credentialExtractor<P extends z.ZodRawShape, H extends z.ZodRawShape = Record<never, never>>(
  schemas: { readonly parameters: P; readonly headers?: H },
  extract: (request: CredentialRequest<z.output<z.ZodObject<P>>, z.output<z.ZodObject<H>>>) => Credential[],
): CredentialExtractor {
  return {
    parameters: schemas.parameters,
    headers: schemas.headers ?? {},
    // The route parsed every extractor's parameters and headers through these same schemas.
    extract: (request) => extract(request as CredentialRequest<z.output<z.ZodObject<P>>, z.output<z.ZodObject<H>>>),
  };
}

/** Shared by every extractor that reads it, so the merged schemas agree on it. */
export const USERNAME = optionalText('The user logging in.');

/** Runs every extractor and collects all they find (CAS's chaining factory: it never stops at the first). */
export function extractCredentials(request: CredentialRequest, extractors: readonly CredentialExtractor[]): Credential[] {
  return extractors.flatMap((extractor) => extractor.extract(request));
}

/** Schemas of several sources (extractors, a route) together; a name two of them read must be one schema. */
export function mergeShapes(shapes: readonly z.ZodRawShape[], what: string): z.ZodRawShape {
  const merged: Record<string, z.ZodRawShape[string]> = {};
  for (const shape of shapes) {
    for (const [name, schema] of Object.entries(shape)) {
      if (merged[name] && merged[name] !== schema) throw new Error(`The ${what} '${name}' is read with two different schemas`);
      merged[name] = schema;
    }
  }
  return merged;
}
