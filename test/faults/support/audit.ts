import { existsSync, readFileSync } from 'node:fs';
import type { Answer } from './load.js';

/**
 * The audit records each answered request must have left (docs/monitoring.md, audit trail), by node
 * and record: a login answered 201 wrote `authentication.succeeded` and `ticket.created` (TGT), an ST
 * answered 200 `ticket.created` (ST), a validation answered other than 503 `ticket.validated` or, refused (`INVALID_TICKET`, 400), `ticket.validation.failed`.
 * A 503 or no answer promises no record (the request may have got as far as checking the password).
 */
function expectedRecords(answers: readonly Answer[]): Map<string, number> {
  const expected = new Map<string, number>();
  const add = (node: string, record: string) => expected.set(`${node} ${record}`, (expected.get(`${node} ${record}`) ?? 0) + 1);
  for (const { step, node, status, code } of answers) {
    if (step === 'login' && status === 201) {
      add(node, 'authentication.succeeded');
      add(node, 'ticket.created TGT');
    } else if (step === 'st' && status === 200) {
      add(node, 'ticket.created ST');
    } else if ((step === 'validation' || step === 'revalidation') && status !== 0 && status !== 503) {
      add(node, code === undefined ? 'ticket.validated' : 'ticket.validation.failed');
    }
  }
  return expected;
}

/** The records in the audit files, counted the same way (a ticket.created by its kind). */
function foundRecords(files: readonly string[]): Map<string, number> {
  const found = new Map<string, number>();
  for (const file of files) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line === '') continue;
      const record = JSON.parse(line) as { node: string; action: string; kind?: string };
      const key = `${record.node} ${record.action}${record.action === 'ticket.created' ? ` ${record.kind}` : ''}`;
      found.set(key, (found.get(key) ?? 0) + 1);
    }
  }
  return found;
}

/** Audit records the answers promise and the files lack: their number, and which (`node-a ticket.validated: 3 of 40 missing`). */
export function lostAuditRecords(answers: readonly Answer[], files: readonly string[]): { count: number; missing: string[] } {
  const found = foundRecords(files);
  let count = 0;
  const missing: string[] = [];
  for (const [key, expected] of expectedRecords(answers)) {
    const lost = expected - (found.get(key) ?? 0);
    if (lost <= 0) continue;
    count += lost;
    missing.push(`${key}: ${lost} of ${expected} missing`);
  }
  return { count, missing };
}
