import { expect } from 'chai';
import { runTessera } from '../support/built-server.js';
import { configFile } from './support.js';

// docs/protocol.md §8 — no silent open registration
describe('services module start-up', () => {
  it('refuses to start without the required attribute: exit 2 naming both settings', () => {
    const { code, stderr } = runTessera(['--config', configFile({ modules: ['rest', 'services'], server: { port: 0 } })]);
    expect(code).to.equal(2);
    expect(stderr).to.include('registration.requiredAttribute.name: is required when the services module is on');
    expect(stderr).to.include('registration.requiredAttribute.valuePattern: is required when the services module is on');
  });

  it('refuses the services module without rest, naming modules', () => {
    const registration = { requiredAttribute: { name: 'memberOf', valuePattern: 'admins' } };
    const { code, stderr } = runTessera(['--config', configFile({ modules: ['services'], registration })]);
    expect(code).to.equal(2);
    expect(stderr).to.include('modules[0]: module "services" needs module "rest", which is not enabled');
  });
});
