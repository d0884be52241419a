import { expect } from 'chai';
import request from 'supertest';
import type { AfterLogout } from '../../../src/index.js';
import { APP, testServer } from '../../harness.js';
import { loginWith } from './support.js';

type Agent = ReturnType<typeof request.agent>;

const ELSEWHERE = 'https://upstream.example.org/logout';

/** A test server whose one other module takes part in /logout as `afterLogout`. */
function withAfterLogout(afterLogout: AfterLogout) {
  return testServer({ modules: (parts) => loginWith(parts, [{ name: 'elsewhere', extensions: () => ({ afterLogout }) }]) });
}

/** Logs in through the form: the browser then holds a session (its TGC). */
async function logIn(browser: Agent): Promise<void> {
  const form = await browser.get(`/cas/login?service=${encodeURIComponent(APP)}`);
  const formToken = /name="formToken" value="([^"]*)"/.exec(form.text)?.[1] ?? '';
  const answer = await browser.post('/cas/login').type('form').send({ formToken, service: APP, username: 'casuser', password: 'Mellon' });
  expect(answer.status, answer.text).to.equal(302);
}

/** Whether the browser's session still signs it on: a ticket without the form. */
async function signsOn(browser: Agent): Promise<boolean> {
  const answer = await browser.get(`/cas/login?service=${encodeURIComponent(APP)}`);
  return answer.status === 302 && String(answer.headers['location']).includes('ticket=');
}

// docs/adding-a-module.md: a module taking the browser on after /logout (afterLogout), asked while the session lives, acting once it has ended.
describe('/logout with a module that takes part (afterLogout)', () => {
  it('ends the session first, then sends the browser where the module says', async () => {
    const asked: string[] = [];
    const server = withAfterLogout({ before: (_ctx, tgtId) => Promise.resolve(asked.push(tgtId) > 0 ? () => Promise.resolve(ELSEWHERE) : undefined) });
    const browser = request.agent(server.app.callback());
    await logIn(browser);
    expect(await signsOn(browser)).to.equal(true);
    const out = await browser.get('/cas/logout');
    expect(out.status).to.equal(302);
    expect(out.headers['location']).to.equal(ELSEWHERE);
    expect(asked).to.have.length(1);
    expect(await signsOn(browser)).to.equal(false);
  });

  it('ends the session even when the module breaks its word and throws: the logout is done before the error is answered', async () => {
    const server = withAfterLogout({ before: () => Promise.reject(new Error('a module that throws')) });
    const browser = request.agent(server.app.callback());
    await logIn(browser);
    const out = await browser.get('/cas/logout');
    expect(out.status).to.equal(500);
    expect(await signsOn(browser)).to.equal(false);
  });
});
