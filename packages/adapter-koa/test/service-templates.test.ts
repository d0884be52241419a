import { expect } from 'chai';
import { ServiceTemplates, withServiceTemplates } from '../src/index.js';
import { BUILT_IN_CODEC, refusalOf } from './built-in-codec.js';

const CAS = 'org.apereo.cas.services';
const SERVICE = `${CAS}.CasRegisteredService`;
const STRATEGY = `${CAS}.DefaultRegisteredServiceAccessStrategy`;
const ALLOWED = `${CAS}.ReturnAllowedAttributeReleasePolicy`;
const BASE = { '@class': SERVICE, id: 7, name: 'Intranet', serviceId: '^https://intranet\\.example\\.org/.*' };

const ADMINS_ONLY = {
  '@class': SERVICE,
  templateName: 'AdminsOnly',
  description: 'For administrators',
  accessStrategy: { '@class': STRATEGY, requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['admins']] } },
};
const RELEASES_MAIL = {
  '@class': SERVICE,
  templateName: 'ReleasesMail',
  description: 'Releases mail',
  evaluationOrder: 40,
  attributeReleasePolicy: { '@class': ALLOWED, allowedAttributes: ['java.util.ArrayList', ['mail']] },
};

const template = (json: Record<string, unknown>) => BUILT_IN_CODEC.parseTemplate(json, String(json['templateName']), `/templates/${String(json['templateName'])}.json`);
const TEMPLATES = new ServiceTemplates([template(ADMINS_ONLY), template(RELEASES_MAIL)]);
const codec = withServiceTemplates(BUILT_IN_CODEC, TEMPLATES);

describe('service templates (templateName), merged as Apereo CAS 7 merges them', () => {
  it("a service takes every key it does not set from its template: the template's access strategy and description", () => {
    const merged = codec.parse({ ...BASE, templateName: 'AdminsOnly' });
    expect(merged).to.deep.equal(BUILT_IN_CODEC.parse({ ...BASE, description: ADMINS_ONLY.description, accessStrategy: ADMINS_ONLY.accessStrategy }));
    expect(merged.accessStrategy.requiredAttributes).to.deep.equal({ memberOf: ['admins'] });
  });

  it('a key the service sets wins, whole: its own release policy replaces the template’s, never mixed with it', () => {
    const own = { '@class': ALLOWED, allowedAttributes: ['java.util.ArrayList', ['cn']] };
    const merged = codec.parse({ ...BASE, templateName: 'ReleasesMail', attributeReleasePolicy: own, description: 'Mine' });
    expect(merged).to.deep.equal(BUILT_IN_CODEC.parse({ ...BASE, attributeReleasePolicy: own, description: 'Mine', evaluationOrder: 40 }));
  });

  it('a key the service writes at its default (an access strategy that only says enabled) does not undo the template’s', () => {
    const merged = codec.parse({ ...BASE, templateName: 'AdminsOnly', accessStrategy: { '@class': STRATEGY, enabled: true, ssoEnabled: true }, evaluationOrder: '0' });
    expect(merged.accessStrategy.requiredAttributes).to.deep.equal({ memberOf: ['admins'] });
    const disabled = codec.parse({ ...BASE, templateName: 'AdminsOnly', accessStrategy: { '@class': STRATEGY, enabled: false } });
    expect(disabled.accessStrategy).to.deep.equal({ enabled: false, ssoEnabled: true, requiredAttributes: {} });
  });

  it('several templates, comma-separated and case ignored: the one named first wins a key both set', () => {
    const merged = codec.parse({ ...BASE, templateName: 'releasesmail, AdminsOnly' });
    expect(merged.description).to.equal('Releases mail');
    expect(merged.evaluationOrder).to.equal(40);
    expect(merged.accessStrategy.requiredAttributes).to.deep.equal({ memberOf: ['admins'] });
    expect(merged).to.deep.equal(BUILT_IN_CODEC.parse({ ...BASE, description: 'Releases mail', evaluationOrder: 40, accessStrategy: ADMINS_ONLY.accessStrategy, attributeReleasePolicy: RELEASES_MAIL.attributeReleasePolicy }));
    expect(codec.parse({ ...BASE, templateName: 'AdminsOnly,ReleasesMail' }).description).to.equal('For administrators');
  });

  it('the serviceId may come from the template; the merged definition no longer names its templates, and round-trips', () => {
    const withPattern = template({ '@class': SERVICE, templateName: 'Intranet', serviceId: '^https://intranet\\.example\\.org/.*' });
    const merged = BUILT_IN_CODEC.parse({ '@class': SERVICE, id: 8, name: 'Named', templateName: 'Intranet,AdminsOnly' }, { templates: new ServiceTemplates([withPattern, template(ADMINS_ONLY)]) });
    expect(merged.serviceId).to.equal('^https://intranet\\.example\\.org/.*');
    const rendered = BUILT_IN_CODEC.render({ ...merged, id: 8 });
    expect(rendered).not.to.have.property('templateName');
    expect(BUILT_IN_CODEC.parse(rendered)).to.deep.equal({ ...merged, id: 8 });
  });

  it('a name without a template is refused, naming it and the templates there are, with every other problem of the definition', () => {
    expect(refusalOf(() => codec.parse({ ...BASE, templateName: 'AdminsOnly,Staff,Nope', evaluationOrder: 'x' }, { path: 'services[1]' }))).to.deep.equal([
      'services[1].templateName: no service template is named "Staff" (templates: AdminsOnly, ReleasesMail)',
      'services[1].templateName: no service template is named "Nope" (templates: AdminsOnly, ReleasesMail)',
      'services[1].evaluationOrder: must be an integer',
    ]);
    expect(refusalOf(() => codec.parse({ ...BASE, templateName: ' , ' }))).to.deep.equal(['templateName: must name one or more service templates, separated by commas']);
  });

  it('a template of another service class does not apply', () => {
    const oauth = template({ '@class': SERVICE, templateName: 'Other' });
    const other = new ServiceTemplates([{ ...oauth, json: { ...oauth.json, '@class': `${CAS}.OidcRegisteredService` } }]);
    expect(refusalOf(() => BUILT_IN_CODEC.parse({ ...BASE, templateName: 'Other' }, { templates: other }))).to.deep.equal([
      `templateName: template "Other" (/templates/Other.json) is for ${CAS}.OidcRegisteredService services, not ${SERVICE}`,
    ]);
  });

  it('a problem in a key a template gave names the template and its file', () => {
    const broken = new ServiceTemplates([{ name: 'Broken', origin: '/t/Broken.json', json: { '@class': SERVICE, evaluationOrder: 'x' } }]);
    expect(refusalOf(() => BUILT_IN_CODEC.parse({ ...BASE, templateName: 'Broken' }, { templates: broken }))).to.deep.equal([
      'evaluationOrder: must be an integer (from template "Broken", /t/Broken.json)',
    ]);
  });

  it('a template file is checked on its own: its templateName is its file name, and its keys are those of a definition', () => {
    expect(refusalOf(() => BUILT_IN_CODEC.parseTemplate({ ...ADMINS_ONLY, evaluationOrder: 'x', accessStrateg: {} }, 'Admins', '/t/Admins.json'))).to.deep.equal([
      'templateName: must be the file name without .json ("Admins"): CAS finds a template by both',
      'accessStrateg: unknown key; did you mean accessStrategy?',
      'evaluationOrder: must be an integer',
    ]);
    expect(refusalOf(() => BUILT_IN_CODEC.parseTemplate({ '@class': SERVICE }, 'Bare', '/t/Bare.json'))).to.deep.equal([
      'templateName: is required in a template: its name, which is its file name without .json ("Bare")',
    ]);
    expect(template(RELEASES_MAIL)).to.deep.include({ name: 'ReleasesMail', origin: '/templates/ReleasesMail.json' });
  });
});
