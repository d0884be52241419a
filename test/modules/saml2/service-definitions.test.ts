import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTessera } from '../../support/built-server.js';
import { configFile } from '../../services/support.js';

const SAML = 'org.apereo.cas.support.saml.services.SamlRegisteredService';
const SP = { '@class': SAML, id: 40, name: 'Shibboleth SP', serviceId: 'https://sp.example.org/shibboleth', metadataLocation: '/etc/tessera/sp-metadata.xml', signAssertions: 'TRUE' };

function folder(files: Record<string, unknown>): string {
  const directory = mkdtempSync(join(tmpdir(), 'tessera-saml2-services-'));
  for (const [name, json] of Object.entries(files)) writeFileSync(join(directory, name), JSON.stringify(json));
  return directory;
}

// docs/services.md (SAML 2.0 service providers): SamlRegisteredService in service files, the services setting and `tessera services`.
describe('saml2: SamlRegisteredService in service files, the services setting and tessera services', function () {
  this.timeout(30_000);

  it('validate: an SP loads whether or not the module is on; every refusal names the file, the key and why', () => {
    const directory = folder({
      'sp.json': SP,
      'bad.json': { ...SP, id: 41, name: 'Bad SP', metadataLocation: 'http://sp.example.org/metadata', signingSignatureAlgorithms: ['http://www.w3.org/2000/09/xmldsig#rsa-sha1'] },
    });
    const result = runTessera(['services', 'validate', directory]);
    expect(result.code).to.equal(1);
    expect(result.stdout).to.equal('');
    const bad = join(directory, 'bad.json');
    expect(result.stderr.trim().split('\n')).to.deep.equal([
      `${bad}: metadataLocation: is a plain http URL, which anyone on the way could change: use https, or save the metadata as a file (service "Bad SP", id 41)`,
      `${bad}: signingSignatureAlgorithms: holds http://www.w3.org/2000/09/xmldsig#rsa-sha1; tessera signs with http://www.w3.org/2001/04/xmldsig-more#rsa-sha256, http://www.w3.org/2001/04/xmldsig-more#rsa-sha512 (SHA-1 is broken for signatures) (service "Bad SP", id 41)`,
      `2 problem(s) in 2 file(s) of ${directory}; nothing was imported.`,
    ]);
    const good = runTessera(['services', 'validate', join(directory, 'sp.json')]);
    expect(good.code, good.stderr).to.equal(0);
    expect(good.stdout).to.include(`${join(directory, 'sp.json')}: valid, "Shibboleth SP" as id 40`);
  });

  it('import and list: the SP from a folder beside the services setting, an unknown key refused', () => {
    const config = configFile({ services: [{ ...SP, id: 42, name: 'Configured SP', serviceId: 'https://configured.example.org/sp' }] });
    const listed = runTessera(['services', 'list', '--config', config]);
    expect(listed.code, listed.stderr).to.equal(0);
    expect(listed.stdout).to.include('Configured SP');
    const imported = runTessera(['services', 'import', folder({ 'sp.json': SP }), '--config', config]);
    expect(imported.code, imported.stderr).to.equal(0);
    expect(imported.stdout).to.include('valid, would load "Shibboleth SP" as id 40');
    const refused = runTessera(['services', 'list', '--config', configFile({ services: [{ ...SP, encryptionOptional: true }] })]);
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.include('tessera: invalid configuration').and.include('services[0].encryptionOptional: not supported by tessera: an SP asking for encryption without an encryption certificate is refused, never answered in the clear; accepted only as false');
  });
});
