import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { ErrorCode } from '@tessera/core';
import { z } from 'zod';
import { PARAMETER_ERRORS } from '../routes/route-input.js';
import type { ResponseDoc, Route, RouteErrors } from '../routes/route.js';

interface Answer {
  readonly descriptions: string[];
  readonly content: Map<string, z.ZodType[]>;
  readonly headers: z.ZodObject[];
}

/**
 * Every answer of a route by status: its successes, then what its steps, the parsing of its input and
 * its handler refuse, each core error at the status the route's renderer gives it. Answers sharing a
 * status are merged (with `validationFailureStatus: 200` a failure document is a 200 too).
 */
export function routeResponses(route: Route): Record<string, ResponseConfig> {
  const answers = new Map<number, Answer>();
  const add = (status: number, doc: ResponseDoc) => {
    const answer = answers.get(status) ?? { descriptions: [], content: new Map<string, z.ZodType[]>(), headers: [] };
    answers.set(status, answer);
    if (!answer.descriptions.includes(doc.description)) answer.descriptions.push(doc.description);
    for (const [type, schema] of Object.entries(doc.content ?? {})) {
      const schemas = answer.content.get(type) ?? [];
      if (!schemas.includes(schema)) answer.content.set(type, [...schemas, schema]);
    }
    if (doc.headers && !answer.headers.includes(doc.headers)) answer.headers.push(doc.headers);
  };
  for (const [status, doc] of Object.entries(route.responses)) add(Number(status), doc);
  const inputErrors = route.request.parameters ? PARAMETER_ERRORS : undefined;
  for (const errors of [...route.steps.map((step) => step.errors), inputErrors, route.errors]) {
    for (const [code, description] of errorEntries(errors)) add(route.failures.statusOf(code), { description, ...route.failures.response(code) });
  }
  return Object.fromEntries([...answers].sort(([a], [b]) => a - b).map(([status, answer]) => [String(status), responseConfig(answer)]));
}

function errorEntries(errors: RouteErrors | undefined): [ErrorCode, string][] {
  return Object.entries(errors ?? {}) as [ErrorCode, string][];
}

function responseConfig({ descriptions, content, headers }: Answer): ResponseConfig {
  const config: ResponseConfig = { description: descriptions.join(' ') };
  if (content.size > 0) {
    config.content = Object.fromEntries([...content].map(([type, schemas]) => [type, { schema: oneOf(schemas) }]));
  }
  if (headers.length > 0) config.headers = z.object(Object.assign({}, ...headers.map((header) => header.shape)) as z.ZodRawShape);
  return config;
}

function oneOf(schemas: z.ZodType[]): z.ZodType {
  const [first, second, ...rest] = schemas;
  return second === undefined ? first! : z.union([first!, second, ...rest]);
}
