import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { SAML } from '@node-saml/node-saml';
import { persistentId } from '@tessera/core';
import type { Tessera } from '../../support/tessera.js';
import { CAS, idpOf, scriptedSp, spEntityId, spKeys, SpreadBrowser, spService, startSaml, walk, writeSpMetadata, type Idp, type SpKeys, type Walk } from './support.js';

const SAML_SERVICES = 'org.apereo.cas.support.saml.services';
const SALT = 'a-salt-of-this-test';
const REFEDS_RS = 'http://refeds.org/category/research-and-scholarship';

/** The SP's metadata with the entity category it declares (Extensions/EntityAttributes), as a federation's metadata writes it. */
function declaringCategory(path: string, category: string): string {
  const xml = readFileSync(path, 'utf8');
  const extensions =
    '<md:Extensions xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"><mdattr:EntityAttributes xmlns:mdattr="urn:oasis:names:tc:SAML:metadata:attribute">' +
    '<saml:Attribute xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" Name="http://macedir.org/entity-category" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">' +
    `<saml:AttributeValue>${category}</saml:AttributeValue></saml:Attribute></mdattr:EntityAttributes></md:Extensions>`;
  const declared = xml.replace(/<([\w-]+:)?SPSSODescriptor/, (descriptor) => `${extensions}${descriptor}`);
  if (declared === xml) throw new Error('no SPSSODescriptor in the metadata');
  writeFileSync(path, declared);
  return path;
}

/** Apereo's saml2-idp-login-consent chain: the user's eduPersonTargetedID, and the R&S bundle to an SP of the category. */
const TARGETED_ID_AND_RS = {
  '@class': `${CAS}.ChainingAttributeReleasePolicy`,
  policies: [
    'java.util.ArrayList',
    [
      { '@class': `${SAML_SERVICES}.EduPersonTargetedIdAttributeReleasePolicy`, salt: SALT, attribute: 'uid' },
      { '@class': `${SAML_SERVICES}.RefedsRSAttributeReleasePolicy` },
    ],
  ],
};

// docs/modules/saml2.md (Release policies of SAML): what an SP configured with Apereo's SAML policies finds in its assertion.
describe("saml2: Apereo's SAML release policies, in the assertion an SP receives", () => {
  let tessera: Tessera;
  let keys: SpKeys;
  let idp: Idp;

  before(async function () {
    this.timeout(60_000);
    keys = await spKeys();
    const folder = mkdtempSync(join(tmpdir(), 'tessera-saml2-release-'));
    tessera = await startSaml(
      [
        spService(70, 'scholar', declaringCategory(writeSpMetadata(folder, 'scholar', keys), REFEDS_RS), { attributeReleasePolicy: TARGETED_ID_AND_RS }),
        spService(71, 'uncategorised', writeSpMetadata(folder, 'uncategorised', keys), { attributeReleasePolicy: TARGETED_ID_AND_RS }),
        spService(73, 'consenting', writeSpMetadata(folder, 'consenting', keys), {
          attributeReleasePolicy: {
            '@class': `${SAML_SERVICES}.EduPersonTargetedIdAttributeReleasePolicy`,
            salt: SALT,
            attribute: 'uid',
            consentPolicy: { '@class': `${CAS}.consent.DefaultRegisteredServiceConsentPolicy`, status: 'TRUE' },
          },
        }),
        spService(72, 'urns', declaringCategory(writeSpMetadata(folder, 'urns', keys), REFEDS_RS), {
          attributeReleasePolicy: { '@class': `${SAML_SERVICES}.RefedsRSAttributeReleasePolicy`, useUniformResourceName: true },
        }),
      ],
      {
        modules: ['rest', 'login', 'consent', 'saml2'],
        consent: { active: false },
        users: [
          {
            username: 'casuser',
            password: 'Mellon',
            attributes: { uid: ['u1001'], eduPersonPrincipalName: ['casuser@example.org'], mail: ['casuser@example.org'], displayName: ['Cas User'], givenName: ['Cas'], sn: ['User'], memberOf: ['staff'] },
          },
        ],
      },
    );
    idp = await idpOf(tessera.url);
  });
  after(() => tessera?.close());

  async function signedOn(name: string): Promise<{ walked: Walk; profile: Record<string, unknown> }> {
    const saml: SAML = scriptedSp(name, keys, idp);
    const through = new SpreadBrowser(tessera.url, [tessera]);
    const walked = await walk(through, await through.get(await saml.getAuthorizeUrlAsync('relay', undefined, {})), { user: ['casuser', 'Mellon'] });
    expect(walked.response, walked.page.body.slice(0, 400)).to.not.equal(undefined);
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: walked.response!.SAMLResponse, RelayState: 'relay' });
    return { walked, profile: profile as unknown as Record<string, unknown> };
  }

  it('an SP declaring the REFEDS R&S category gets its pairwise eduPersonTargetedID and the R&S attributes, nothing else', async () => {
    const { profile } = await signedOn('scholar');
    expect(profile['eduPersonTargetedID']).to.equal(persistentId('u1001', spEntityId('scholar'), SALT));
    expect(profile['eduPersonPrincipalName']).to.equal('casuser@example.org');
    expect(profile['mail']).to.equal('casuser@example.org');
    expect(profile['displayName']).to.equal('Cas User');
    expect(profile['givenName']).to.equal('Cas');
    expect(profile['sn']).to.equal('User');
    expect(profile['memberOf']).to.equal(undefined);
    expect(profile['uid']).to.equal(undefined);
  });

  it('an SP declaring no category gets its eduPersonTargetedID only, another id than the first SP gets', async () => {
    const { profile } = await signedOn('uncategorised');
    const targetedId = persistentId('u1001', spEntityId('uncategorised'), SALT);
    expect(targetedId).to.not.equal(persistentId('u1001', spEntityId('scholar'), SALT));
    expect(profile['eduPersonTargetedID']).to.equal(targetedId);
    for (const name of ['eduPersonPrincipalName', 'mail', 'displayName', 'givenName', 'sn', 'memberOf']) expect(profile[name], name).to.equal(undefined);
  });

  it('useUniformResourceName: the R&S attributes under their URNs', async () => {
    const { walked, profile } = await signedOn('urns');
    expect(profile['urn:oid:1.3.6.1.4.1.5923.1.1.1.6']).to.equal('casuser@example.org');
    expect(profile['urn:oid:2.5.4.4']).to.equal('User');
    expect(walked.response!.xml).to.not.contain('Name="eduPersonPrincipalName"');
  });

  it('the consent page shows the eduPersonTargetedID the SP then receives in its signed assertion: both computed over its entity id', async () => {
    const saml: SAML = scriptedSp('consenting', keys, idp);
    const through = new SpreadBrowser(tessera.url, [tessera]);
    const asked = await walk(through, await through.get(await saml.getAuthorizeUrlAsync('relay', undefined, {})), { user: ['casuser', 'Mellon'] });
    expect(asked.shown).to.deep.equal(['Log in', 'Share your information?']);
    const shown = /<dt>eduPersonTargetedID<\/dt><dd>([^<]+)<\/dd><\/dl>/.exec(asked.page.body)?.[1];
    expect(shown, asked.page.body.slice(0, 600)).to.equal(persistentId('u1001', spEntityId('consenting'), SALT));
    const answered = await walk(through, await through.submit(asked.page, { decision: 'allow' }));
    expect(answered.response, answered.page.body.slice(0, 400)).to.not.equal(undefined);
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: answered.response!.SAMLResponse, RelayState: 'relay' });
    expect((profile as unknown as Record<string, unknown>)['eduPersonTargetedID']).to.equal(shown);
  });
});
