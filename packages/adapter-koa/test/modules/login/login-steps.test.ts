import { hash } from 'node:crypto';
import { AuthenticationFailedError } from '@tessera/core';
import { expect } from 'chai';
import request from 'supertest';
import { z } from 'zod';
import { loginPromptPart, type LoginPromptPart } from '../../../src/index.js';
import type { SessionPrompt } from '@tessera/core';
import { html } from '../../../src/pages/html.js';
import { loginWith } from './support.js';
import { APP, QUIET_APP, testServer, type ServerSetup } from '../../harness.js';

/** The fixture step's one script: hashed into its page's CSP. */
const FOCUS = 'document.getElementById("pin").focus();';
const PIN = '2468';

/** A prompt of a test module: a PIN for staff members logging in to APP, which adds `pin` to the authentication's attributes. */
const pinPrompt: SessionPrompt<never, unknown> = {
  phase: 'session',
  name: 'pin',
  needed: ({ authentication, service }) => Promise.resolve(service?.serviceId.includes('app') === true && (authentication.principal.attributes['memberOf'] ?? []).includes('staff')),
  complete: ({ authentication }, pin) => {
    if (pin !== PIN) return Promise.reject(new AuthenticationFailedError(['wrong PIN']));
    return Promise.resolve({ proceed: true, authentication: { ...authentication, attributes: { ...authentication.attributes, pin: ['checked'] } } });
  },
};

/** Its page. */
const pinStep: LoginPromptPart = loginPromptPart(pinPrompt, {
  parameters: { pin: z.string().optional().meta({ description: 'The PIN.' }) },
  page: (language, { authentication }) => ({
    heading: `PIN (${language})`,
    content: html`<p>PIN for ${authentication.principal.id}</p><input id="pin" name="pin">`,
    submit: 'Go on',
    refused: 'Wrong PIN.',
    script: FOCUS,
  }),
  read: (parameters) => parameters['pin'],
});



const withSteps = (setup: ServerSetup = {}) => testServer({ ...setup, modules: (parts) => loginWith(parts, [{ name: 'pin', extensions: () => ({ loginPrompts: [pinStep] }) }]) });

type Agent = ReturnType<typeof request.agent>;

const hidden = (body: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1];

/** The login form for `service`, then its credentials posted: the answer. */
async function logIn(browser: Agent, service: string, username = 'casuser', password = 'Mellon') {
  const form = await browser.get(`/cas/login?service=${encodeURIComponent(service)}`);
  expect(form.status).to.equal(200);
  return browser.post('/cas/login').type('form').send({ formToken: hidden(form.text, 'formToken'), service, username, password });
}

/** What the step's page posts, with `pin`. */
function postStep(browser: Agent, page: string, pin: string, overrides: Record<string, string> = {}) {
  return browser
    .post('/cas/login/step')
    .type('form')
    .send({ formToken: hidden(page, 'formToken'), pending: hidden(page, 'pending'), username: hidden(page, 'username'), pin, ...overrides });
}

const hasSessionCookie = (response: request.Response) => (response.headers['set-cookie'] as unknown as string[] | undefined)?.some((cookie) => cookie.startsWith('TGC=') && !cookie.startsWith('TGC=;')) ?? false;

// docs/modules/login.md: a module's step comes between the credentials and the session.
describe('login steps: a module adds a page between the credentials and the session', () => {
  it('shows the step after the credentials, makes no session until it is passed, then goes on to the service', async () => {
    const server = withSteps();
    const browser = request.agent(server.app.callback());
    const step = await logIn(browser, APP);
    expect(step.status).to.equal(200);
    expect(step.text).to.include('<h1>PIN (en)</h1>').and.include('<p>PIN for casuser</p>').and.include('action="/cas/login/step"');
    expect(hasSessionCookie(step), 'no session before the step').to.equal(false);
    expect(step.headers['content-security-policy']).to.include(`script-src 'sha256-${hash('sha256', FOCUS, 'base64')}';`).and.not.include('unsafe-inline');
    expect(step.text).to.include(`<script>${FOCUS}</script>`);

    const stillForm = await browser.get(`/cas/login?service=${encodeURIComponent(APP)}`);
    expect(stillForm.text, 'no single sign-on before the step').to.include('name="password"');

    const done = await postStep(browser, step.text, PIN);
    expect(done.status, done.text).to.equal(302);
    expect(done.headers['location']).to.match(/^https:\/\/app\.example\.org\/home\?ticket=ST-/);
    expect(hasSessionCookie(done)).to.equal(true);
    const tgt = (await server.tickets.get(new URL(done.headers['location'] as string).searchParams.get('ticket')!))?.kind === 'ST';
    expect(tgt).to.equal(true);
    const sso = await browser.get(`/cas/login?service=${encodeURIComponent(APP)}`);
    expect(sso.status, 'single sign-on once the session is made').to.equal(302);
  });

  it('keeps the session the step made: its authentication carries what the step added', async () => {
    const server = withSteps();
    const browser = request.agent(server.app.callback());
    const step = await logIn(browser, APP);
    const done = await postStep(browser, step.text, PIN);
    const st = await server.tickets.get(new URL(done.headers['location'] as string).searchParams.get('ticket')!);
    const tgt = st?.kind === 'ST' ? await server.tickets.get(st.tgtId) : undefined;
    expect(tgt?.kind === 'TGT' && tgt.authentication.attributes['pin']).to.deep.equal(['checked']);
  });

  it('a refused step shows its page again (401) with its message, and the login may still pass it', async () => {
    const server = withSteps();
    const browser = request.agent(server.app.callback());
    const step = await logIn(browser, APP);
    const refused = await postStep(browser, step.text, '0000');
    expect(refused.status).to.equal(401);
    expect(refused.text).to.include('role="alert">Wrong PIN.</p>').and.include('<h1>PIN (en)</h1>');
    expect(hasSessionCookie(refused)).to.equal(false);
    expect(hidden(refused.text, 'pending')).to.equal(hidden(step.text, 'pending'));
    expect((await postStep(browser, refused.text, PIN)).status).to.equal(302);
  });

  it('a step page works once: its token, and the held login once passed', async () => {
    const server = withSteps();
    const browser = request.agent(server.app.callback());
    const step = await logIn(browser, APP);
    expect((await postStep(browser, step.text, PIN)).status).to.equal(302);
    const replay = await postStep(browser, step.text, PIN);
    expect(replay.status).to.equal(403);
    expect(replay.text).to.include('The login form expired or was sent twice.').and.include('name="password"');
    const fresh = await browser.get('/cas/login');
    const passedAgain = await postStep(browser, step.text, PIN, { formToken: hidden(fresh.text, 'formToken')! });
    expect(passedAgain.status, 'the held login ended with its session').to.equal(403);
    expect(hasSessionCookie(passedAgain)).to.equal(false);
  });

  it("another browser cannot pass a browser's step, nor name another user", async () => {
    const server = withSteps();
    const browser = request.agent(server.app.callback());
    const step = await logIn(browser, APP);
    const other = request.agent(server.app.callback());
    const otherForm = await other.get('/cas/login');
    const stolen = await postStep(other, step.text, PIN, { formToken: hidden(otherForm.text, 'formToken')! });
    expect(stolen.status).to.equal(403);
    expect(hasSessionCookie(stolen)).to.equal(false);
    const renamed = await postStep(browser, step.text, PIN, { username: 'someone' });
    expect(renamed.status).to.equal(403);
    expect((await postStep(browser, (await browser.get('/cas/login')).text, PIN, { pending: hidden(step.text, 'pending')!, username: 'casuser' })).status, 'the held login is untouched').to.equal(302);
  });

  it('a login the step does not need goes on at once, as without steps', async () => {
    const server = withSteps();
    const browser = request.agent(server.app.callback());
    const direct = await logIn(browser, QUIET_APP);
    expect(direct.status).to.equal(302);
    expect(hasSessionCookie(direct)).to.equal(true);
  });

  it('the throttle counts refused steps against the user and locks them', async () => {
    const server = withSteps({ throttle: { threshold: 2, rangeSeconds: 60, lockSeconds: 60, maxLockSeconds: 900 } });
    const browser = request.agent(server.app.callback());
    let page = (await logIn(browser, APP)).text;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const refused = await postStep(browser, page, '0000');
      expect(refused.status).to.equal(401);
      page = refused.text;
    }
    const locked = await postStep(browser, page, PIN);
    expect(locked.status).to.equal(423);
    expect(locked.headers['retry-after']).to.match(/^\d+$/);
    expect(locked.text).to.include('Too many failed attempts.').and.include('<h1>PIN (en)</h1>');
    expect(hasSessionCookie(locked)).to.equal(false);
  });

  it('documents POST /login/step with the steps’ parameters; without a step there is no such route', async () => {
    const server = withSteps();
    const document = (await server.http.get('/cas/openapi.json')).body as { paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: { properties: object } }> } } }> };
    const schema = document.paths['/login/step']?.post?.requestBody?.content['application/x-www-form-urlencoded']?.schema;
    expect(schema?.properties).to.have.all.keys('formToken', 'pending', 'username', 'pin');
    const without = testServer({ modules: (parts) => loginWith(parts) });
    expect((await without.http.post('/cas/login/step').type('form').send({})).status).to.equal(404);
  });
});
