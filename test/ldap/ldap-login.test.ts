import { expect } from 'chai';
import { describeWithSlapd } from '@tessera/testkit';
import { APP, serviceTicket } from '../support/tessera.js';
import type { Tessera } from '../support/tessera.js';
import { postForm, startWithLdap } from './ldap-support.js';

// logins against a real OpenLDAP through the composed server (docs/protocol.md §2–3)
describeWithSlapd('LDAP logins through the REST API', (slapd) => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startWithLdap(slapd(), ['ldap']);
  });
  after(async () => {
    await tessera?.close();
  });

  it('a directory user gets a TGT, and a service ticket releases their attributes, multi-valued kept', async () => {
    const created = await postForm(`${tessera.url}/v1/tickets`, { username: 'casuser', password: 'Mellon' });
    expect(created.status).to.equal(201);
    const st = await serviceTicket(tessera.url, created.body);
    const validated = await fetch(`${tessera.url}/p3/serviceValidate?service=${encodeURIComponent(APP)}&ticket=${st}&format=JSON`);
    const { serviceResponse } = (await validated.json()) as { serviceResponse: { authenticationSuccess: { user: string; attributes: Record<string, string[]> } } };
    expect(serviceResponse.authenticationSuccess.user).to.equal('casuser');
    expect(serviceResponse.authenticationSuccess.attributes['mail']).to.deep.equal(['casuser@example.org', 'cas.user@example.org']);
    expect(serviceResponse.authenticationSuccess.attributes['affiliation']).to.deep.equal(['staff', 'faculty']);
    expect(serviceResponse.authenticationSuccess.attributes['displayName']).to.deep.equal(['CAS User']);
  });

  it('/v1/users names the ldap handler as the one that accepted the password', async () => {
    const answer = await postForm(`${tessera.url}/v1/users`, { username: 'alice', password: 'secret' }, 'application/json');
    expect(answer.status).to.equal(200);
    const { authentication } = JSON.parse(answer.body) as { authentication: { principal: { id: string }; successes: Record<string, unknown> } };
    expect(authentication.principal.id).to.equal('alice');
    expect(Object.keys(authentication.successes)).to.deep.equal(['ldap']);
  });

  it('a wrong password and an unknown user are 401 with the same reason', async () => {
    for (const fields of [{ username: 'casuser', password: 'wrong' }, { username: 'nobody', password: 'Mellon' }]) {
      const answer = await postForm(`${tessera.url}/v1/tickets`, fields);
      expect(answer.status).to.equal(401);
      expect(JSON.parse(answer.body)).to.deep.equal({ authentication_exceptions: ['Invalid credentials. Please verify and try again.'] });
    }
  });

  it('filter injection in the username never logs anyone in', async () => {
    for (const username of ['*', ')(uid=*', 'casuser)(|(uid=*', 'cas*']) {
      const answer = await postForm(`${tessera.url}/v1/tickets`, { username, password: 'Mellon' });
      expect(answer.status, username).to.equal(401);
    }
  });

  it('an empty password is refused before the directory sees it', async () => {
    const answer = await postForm(`${tessera.url}/v1/tickets`, { username: 'casuser', password: '' });
    expect(answer.status).to.equal(400);
  });

  it('a locked account is 401 with a reason saying so', async () => {
    const answer = await postForm(`${tessera.url}/v1/tickets`, { username: 'locked', password: 'locked-secret' });
    expect(answer.status).to.equal(401);
    expect(JSON.parse(answer.body)).to.deep.equal({ authentication_exceptions: ['The account is locked. Please contact your administrator.'] });
  });
});
