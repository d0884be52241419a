import { z } from 'zod';

const attributeMap = z.record(z.string(), z.array(z.string()));
const epochMs = z.number().int();

const authentication = z.object({
  principal: z.object({ id: z.string(), attributes: attributeMap }),
  authenticatedAt: epochMs,
  credentials: z.array(z.object({ id: z.string(), type: z.string() })),
  successes: z.record(z.string(), z.object({ handlerName: z.string(), credentialType: z.string(), principalId: z.string() })),
  attributes: attributeMap,
});

/**
 * What a ticket hash's `data` field holds (JSON of the fields that never change), per kind. Reading
 * checks it against these, so a hash that something other than tessera wrote (or an older layout)
 * is a clear error naming what is wrong, never a ticket with fields missing. Unknown fields are dropped.
 */
export const TICKET_DATA = {
  TGT: z.object({ authentication, createdAt: epochMs, hardTimeout: z.literal(true).optional() }),
  ST: z.object({ tgtId: z.string(), service: z.string(), fromNewLogin: z.boolean(), authenticatedAt: epochMs, createdAt: epochMs }),
  PGT: z.object({ tgtId: z.string(), service: z.string(), proxies: z.array(z.string()), createdAt: epochMs }),
  PT: z.object({ tgtId: z.string(), grantedBy: z.string(), service: z.string(), proxies: z.array(z.string()), authenticatedAt: epochMs, createdAt: epochMs }),
} as const;

/** A field of the hash that holds an epoch-ms time or a count, as a number; a clear error for anything else. */
export function storedNumber(id: string, name: string, text: string | undefined): number {
  const value = Number(text);
  if (text === undefined || text === '' || !Number.isSafeInteger(value)) throw corrupt(id, `its ${name} is not a whole number`);
  return value;
}

/** The `data` field of a ticket of `kind`, checked; the error names the ticket by its first characters only and never shows the data. */
export function ticketData<Kind extends keyof typeof TICKET_DATA>(kind: Kind, id: string, data: string): z.output<(typeof TICKET_DATA)[Kind]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw corrupt(id, 'its data is not JSON');
  }
  const result = TICKET_DATA[kind].safeParse(parsed);
  if (!result.success) {
    const fields = [...new Set(result.error.issues.map((issue) => issue.path.join('.') || '(the whole)'))].join(', ');
    throw corrupt(id, `its data does not have a ${kind}'s shape (${fields})`);
  }
  return result.data as z.output<(typeof TICKET_DATA)[Kind]>;
}

function corrupt(id: string, what: string): Error {
  return new Error(`Ticket ${id.slice(0, 8)}… is stored in a shape tessera cannot read: ${what}. Something other than tessera wrote it, or it was damaged`);
}
