import { randomUUID } from 'node:crypto';
import { AuthenticationFailedError, CAS_REGISTERED_SERVICE, RETURN_ALL_ATTRIBUTES, withSecondFactor, type CredentialsPrompt, type SecondFactorProvider, type SessionPrompt } from '@tessera/core';
import { expect } from 'chai';
import request from 'supertest';
import { loginPromptPart, type LoginPromptPart } from '../../../src/index.js';
import { html } from '../../../src/pages/html.js';
import { optionalText } from '../../../src/request/parameter-schemas.js';
import { APP, testServer } from '../../harness.js';
import { loginWith } from './support.js';

const MFA = 'https://mfa.example.org/home';

/**
 * A second factor of a test module: users in `holders` have it; its prompt prepares a fresh challenge
 * for every showing of its page, and takes `<answer>:<challenge>` (only the challenge shown last).
 */
function factor(id: string, type: string, description: string, holders: readonly string[]) {
  const provider: SecondFactorProvider = {
    id,
    description,
    available: (username) => Promise.resolve(holders.includes(username)),
    proved: (authentication) => (authentication.attributes['credentialType'] ?? []).includes(type),
  };
  const prompt: SessionPrompt<{ challenge: string }, unknown> = {
    phase: 'session',
    name: type,
    secondFactor: id,
    prepare: () => Promise.resolve({ challenge: randomUUID() }),
    complete: (context, input, _origin, prepared) => {
      if (prepared === undefined || input !== `${type}:${prepared.challenge}`) return Promise.reject(new AuthenticationFailedError([`wrong ${type}`]));
      const { authentication } = context;
      const added = { ...authentication, credentials: [{ id: authentication.principal.id, type }], successes: {}, attributes: { credentialType: [type], successfulAuthenticationHandlers: [] } };
      return Promise.resolve({ proceed: true, authentication: withSecondFactor(authentication, added) });
    },
  };
  const part = loginPromptPart(prompt, {
    parameters: { [type]: optionalText(`The ${type}.`) },
    page: (_language, _context, prepared) => ({ heading: `Your ${type}`, content: html`<p class="challenge">${prepared?.challenge}</p><input name="${type}">`, submit: 'Go on', refused: `Wrong ${type}.` }),
    read: (parameters) => parameters[type],
  });
  return { provider, part };
}

const CODES = factor('mfa-codes', 'code', 'a one-time code', ['casuser', 'bob']);
const KEYS = factor('mfa-keys', 'key', 'a security key', ['casuser', 'carol']);

/** A part of the login page that prepares a fresh value each time the page is shown (as a passkey's challenge), for every service but QUIET. */
const shownNonces: string[] = [];
const nonce: CredentialsPrompt<string> = {
  phase: 'credentials',
  name: 'nonce',
  needed: (context) => Promise.resolve(context.url === undefined || !context.url.includes('quiet')),
  prepare: () => {
    const value = randomUUID();
    shownNonces.push(value);
    return Promise.resolve(value);
  },
};
const noncePart: LoginPromptPart = loginPromptPart(nonce, { markup: (_language, prepared) => html`<p class="nonce">${prepared}</p>`, script: (prepared) => `window.nonce = '${prepared}';` });



/** Two second factors, both with a prompt, and a service accepting either. */
function withFactors(prompts: readonly LoginPromptPart[] = [CODES.part, KEYS.part]) {
  const server = testServer({
    users: { bob: { password: 'Builder', attributes: {} }, carol: { password: 'Carol', attributes: {} }, dave: { password: 'Dave', attributes: {} } },
    secondFactors: [CODES.provider, KEYS.provider],
    modules: (parts) => loginWith(parts, [{ name: 'factors', extensions: () => ({ loginPrompts: prompts }) }]),
  });
  void server.registry.save({
    id: 40,
    type: CAS_REGISTERED_SERVICE,
    name: 'mfa',
    serviceId: '^https://mfa\\.example\\.org/.*',
    evaluationOrder: 40,
    accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: {} },
    attributeRelease: { type: RETURN_ALL_ATTRIBUTES },
    properties: {},
    multifactorPolicy: { providers: ['mfa-codes', 'mfa-keys'], failureMode: 'CLOSED', bypassEnabled: false },
  });
  return server;
}

type Agent = ReturnType<typeof request.agent>;

const hidden = (body: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1];
const challengeOf = (body: string) => /<p class="challenge">([^<]*)<\/p>/.exec(body)?.[1];

async function logIn(browser: Agent, service: string, username = 'casuser', password = 'Mellon') {
  const form = await browser.get(`/cas/login?service=${encodeURIComponent(service)}`);
  expect(form.status).to.equal(200);
  return browser.post('/cas/login').type('form').send({ formToken: hidden(form.text, 'formToken'), service, username, password });
}

function post(browser: Agent, page: string, fields: Record<string, string>) {
  return browser
    .post('/cas/login/step')
    .type('form')
    .send({ formToken: hidden(page, 'formToken'), pending: hidden(page, 'pending'), username: hidden(page, 'username'), ...fields });
}

/** The factor's answer to the challenge its page shows. */
const answer = (page: string, type: string) => ({ [type]: `${type}:${challengeOf(page)}` });

const ticketOf = (location: unknown) => new URL(String(location)).searchParams.get('ticket') ?? '';

// docs/adding-a-module.md §4: the browser login as prompts in core; a second factor by id, a choice among several.
describe('login prompts: second factors by id, the choice among them, pages prepared in core', () => {
  it('a user with two of the factors a service accepts chooses one after the password, proves it, and the service is told which', async () => {
    const server = withFactors();
    const browser = request.agent(server.app.callback());
    const choice = await logIn(browser, MFA);
    expect(choice.status).to.equal(200);
    expect(choice.text).to.include('<h1>Confirm it is you</h1>');
    expect(choice.text).to.include('name="factor" value="mfa-codes"').and.include('>A one-time code</label>').and.include('name="factor" value="mfa-keys"').and.include('>A security key</label>');
    const keyPage = await post(browser, choice.text, { factor: 'mfa-keys' });
    expect(keyPage.status, keyPage.text).to.equal(200);
    expect(keyPage.text).to.include('<h1>Your key</h1>');
    const landing = await post(browser, keyPage.text, answer(keyPage.text, 'key'));
    expect(landing.status, landing.text).to.equal(302);
    const validated = await server.http.get(`/cas/p3/serviceValidate?service=${encodeURIComponent(MFA)}&ticket=${ticketOf(landing.headers['location'])}`);
    expect(validated.text).to.include('<cas:user>casuser</cas:user>').and.include('<cas:authnContextClass>mfa-keys</cas:authnContextClass>');
  });

  it('a user with one of them is asked it at once; a user with none is refused (CLOSED)', async () => {
    const server = withFactors();
    const bob = request.agent(server.app.callback());
    const codePage = await logIn(bob, MFA, 'bob', 'Builder');
    expect(codePage.text).to.include('<h1>Your code</h1>').and.not.include('name="factor"');
    expect((await post(bob, codePage.text, answer(codePage.text, 'code'))).status).to.equal(302);
    const dave = request.agent(server.app.callback());
    expect((await logIn(dave, MFA, 'dave', 'Dave')).status).to.equal(403);
  });

  it('a refused answer shows the page again with a fresh challenge: the one tried is no good any more', async () => {
    const server = withFactors();
    const browser = request.agent(server.app.callback());
    const first = await logIn(browser, MFA, 'bob', 'Builder');
    const refused = await post(browser, first.text, { code: 'code:wrong' });
    expect(refused.status).to.equal(401);
    expect(refused.text).to.include('role="alert">Wrong code.</p>');
    expect(challengeOf(refused.text)).to.be.a('string').and.not.equal(challengeOf(first.text));
    expect(hidden(refused.text, 'pending'), 'the same held login').to.equal(hidden(first.text, 'pending'));
    expect((await post(browser, refused.text, answer(first.text, 'code'))).status, 'the earlier challenge').to.equal(401);
    const again = await browser.post('/cas/login/step').type('form').send({ formToken: hidden(refused.text, 'formToken'), pending: hidden(refused.text, 'pending'), username: 'bob', code: 'x' });
    expect(again.status).to.equal(403);
  });

  it('single sign-on to the service asks the session the choice and the factor (step-up); the session keeps it', async () => {
    const server = withFactors();
    const browser = request.agent(server.app.callback());
    expect((await logIn(browser, APP)).status).to.equal(302);
    const choice = await browser.get(`/cas/login?service=${encodeURIComponent(MFA)}`);
    expect(choice.status).to.equal(200);
    expect(choice.text).to.include('name="factor"');
    const codePage = await post(browser, choice.text, { factor: 'mfa-codes' });
    const landing = await post(browser, codePage.text, answer(codePage.text, 'code'));
    expect(landing.status, landing.text).to.equal(302);
    expect((await browser.get(`/cas/login?service=${encodeURIComponent(MFA)}`)).status, 'the session has the factor now').to.equal(302);
  });

  it('a step-up keeps the user’s preference to be warned before single sign-on (CASPRIVACY)', async () => {
    const server = withFactors();
    const browser = request.agent(server.app.callback());
    const form = await browser.get(`/cas/login?service=${encodeURIComponent(APP)}`);
    const warned = await browser.post('/cas/login').type('form').send({ formToken: hidden(form.text, 'formToken'), service: APP, username: 'bob', password: 'Builder', warn: 'true' });
    expect(String(warned.headers['set-cookie'])).to.include('CASPRIVACY=true');
    const confirm = await browser.get(`/cas/login?service=${encodeURIComponent(MFA)}`);
    expect(confirm.text, 'asked before single sign-on').to.include('name="confirmed"');
    const codePage = await browser.post('/cas/login').type('form').send({ formToken: hidden(confirm.text, 'formToken'), service: MFA, confirmed: 'true' });
    expect(codePage.text).to.include('<h1>Your code</h1>');
    const landing = await post(browser, codePage.text, answer(codePage.text, 'code'));
    expect(landing.status).to.equal(302);
    expect(String(landing.headers['set-cookie']), 'the session cookie again, the preference untouched').to.include('TGC=').and.not.include('CASPRIVACY=');
  });

  it('only a factor offered may be chosen: another is refused (400) and the login stays held', async () => {
    const server = withFactors();
    const browser = request.agent(server.app.callback());
    const choice = await logIn(browser, MFA, 'casuser', 'Mellon');
    const refused = await post(browser, choice.text, { factor: 'mfa-duo' });
    expect(refused.status).to.equal(400);
    const fresh = await browser.get('/cas/login');
    const chosen = await post(browser, choice.text, { factor: 'mfa-codes', formToken: hidden(fresh.text, 'formToken')! });
    expect(chosen.text).to.include('<h1>Your code</h1>');
  });

  it('a factor without a prompt of its own is not offered in the browser; POST /login/step documents the choice with the factors’ prompts', async () => {
    const server = withFactors([CODES.part]);
    const browser = request.agent(server.app.callback());
    const codePage = await logIn(browser, MFA);
    expect(codePage.text, 'the keys have no page: the codes are the only choice').to.include('<h1>Your code</h1>');
    const document = (await server.http.get('/cas/openapi.json')).body as { paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: { properties: object } }> } } }> };
    const schema = (path: string, of: typeof document) => of.paths[path]?.post?.requestBody?.content['application/x-www-form-urlencoded']?.schema.properties;
    expect(schema('/login/step', document)).to.have.all.keys('formToken', 'pending', 'username', 'code', 'factor');
    const both = (await withFactors().http.get('/cas/openapi.json')).body as typeof document;
    expect(schema('/login/step', both)).to.have.all.keys('formToken', 'pending', 'username', 'code', 'key', 'factor');
  });

  it('a part of the login page prepares what it shows each time the page is shown, and says when it is needed', async () => {
    const server = withFactors([noncePart]);
    const browser = request.agent(server.app.callback());
    const form = await browser.get(`/cas/login?service=${encodeURIComponent(APP)}`);
    const shown = /<p class="nonce">([^<]*)<\/p>/.exec(form.text)?.[1];
    expect(shown).to.equal(shownNonces.at(-1));
    expect(form.headers['content-security-policy']).to.include("'sha256-");
    expect(form.text.indexOf('name="password"'), 'after the password').to.be.below(form.text.indexOf('class="nonce"'));
    const refused = await browser.post('/cas/login').type('form').send({ formToken: hidden(form.text, 'formToken'), service: APP, username: 'casuser', password: 'wrong' });
    expect(refused.status).to.equal(401);
    const again = /<p class="nonce">([^<]*)<\/p>/.exec(refused.text)?.[1];
    expect(again, 'a fresh value on the form shown again').to.be.a('string').and.not.equal(shown);
    const quiet = await browser.get(`/cas/login?service=${encodeURIComponent('https://quiet.example.org/')}`);
    expect(quiet.text, 'not needed for this service').to.not.include('class="nonce"');
  });
});
