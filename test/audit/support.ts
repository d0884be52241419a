import { expect } from 'chai';

/** One line of the audit trail, parsed. */
export type AuditLine = Record<string, unknown>;

export function parsed(lines: readonly string[]): AuditLine[] {
  return lines.map((line) => JSON.parse(line) as AuditLine);
}

/** Reads the lines an action adds to `trail`: call it, act, then call what it returned. */
export function linesAfter(trail: readonly string[]): () => AuditLine[] {
  const seen = trail.length;
  return () => parsed(trail.slice(seen));
}

/** The fields every record has: when, where from, which request, and which node wrote it. */
export function expectEnvelope(line: AuditLine | undefined, address = '127.0.0.1'): void {
  expect(line, 'an audit line').to.not.equal(undefined);
  expect(line!['time']).to.be.a('string').and.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(Math.abs(Date.parse(line!['time'] as string) - Date.now())).to.be.below(60_000);
  expect(line!['address']).to.equal(address);
  expect(line!['requestId']).to.be.a('string').with.length.above(8);
  expect(line!['node']).to.equal('e2e');
}

/** The part of a ticket id that makes it a bearer secret: what no audit line may contain. */
export function secretPart(id: string): string {
  return id.replace(/^(TGT|ST)-\d+-/, '').replace(/-e2e$/, '');
}
