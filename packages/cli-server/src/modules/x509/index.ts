import type { ModuleContext, ModuleSettings, SettingProblem, TesseraModule } from '../module.js';
import { x509Problems, x509Sections } from './config.js';
import { registerX509Module } from './register.js';
import { x509Events } from './events.js';

/** For tests (`@tessera/cli-server/modules/x509`): the CRLs as the module reads and reloads them. */
export { CrlFiles } from './certificate-files.js';

/** `x509` (docs/protocol.md §7): client certificates as credentials. */
export const x509Module: TesseraModule<typeof x509Sections> = {
  name: 'x509',
  comparisonRows: ['X.509 client certificates'],
  // No dependency: a certificate is one more credential wherever credentials are read (REST, the login form).
  dependencies: [],
  sections: x509Sections,
  events: x509Events,
  // A certificate's subject proves no username sent beside it.
  credentialKinds: [{ type: 'x509', provesUsername: false, samlAuthenticationMethod: 'urn:oasis:names:tc:SAML:1.0:am:X509-PKI', amr: 'swk' }],
  // The form source's field; the header source's is a header, the TLS source reads the handshake.
  parameters: ({ x509 }) => (x509.sources.includes('form') ? [{ name: 'cert', credential: true }] : []),
  problems: x509ModuleProblems,
  asksForClientCertificates: ({ x509 }) => x509.sources.includes('tls'),
  register: registerX509Module,
};

function x509ModuleProblems({ x509 }: ModuleSettings<typeof x509Sections>, { server }: ModuleContext): SettingProblem[] {
  return x509Problems(x509, server.tls.cert !== undefined);
}
