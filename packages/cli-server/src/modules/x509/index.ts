import type { Config } from '../../config/schema.js';
import type { SettingProblem, TesseraModule } from '../module.js';
import { x509Problems, x509Schema } from './config.js';
import { registerX509Module } from './register.js';

const sections = { x509: x509Schema.prefault({}) };

/** `x509` (docs/protocol.md §7): client certificates as credentials. */
export const x509Module: TesseraModule<typeof sections> = {
  name: 'x509',
  // Needs rest: certificates are one more credential of /v1/tickets and /v1/users.
  dependencies: ['rest'],
  sections,
  problems: x509ModuleProblems,
  asksForClientCertificates: (config) => config.x509.sources.includes('tls'),
  register: registerX509Module,
};

function x509ModuleProblems(config: Config): SettingProblem[] {
  return x509Problems(config.x509, config.server.tls.cert !== undefined);
}
