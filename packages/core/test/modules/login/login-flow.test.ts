import { expect } from 'chai';
import { cryptoRandomSource, type JsonValue, type LoginPrompt, type PromptContext, type SessionPrompt, type TicketPrompt } from '@tessera/core';
import { BrowserLogin, LoginFlow, PendingLogins, type LoginProgress } from '@tessera/core/modules/login';
import { MapRecordStores } from '@tessera/testkit';
import { password, service } from '../../fakes.js';
import { APP, coreWithFakes } from '../../harness.js';

const BROWSER = 'browser-1';
const ORIGIN = { clientAddress: '192.0.2.1', requestId: 'r-1', route: '/login' };

/** A session prompt of a test that records what it was asked about; `keep` is what its answer keeps. */
function prompt(name: string, asked: string[], options: { needed?: (context: PromptContext) => boolean; keep?: JsonValue } = {}): SessionPrompt<JsonValue, unknown> {
  return {
    phase: 'session',
    name,
    needed: (context) => {
      asked.push(`${name} needed`);
      return Promise.resolve(options.needed?.(context) ?? true);
    },
    prepare: () => Promise.resolve(`${name} page`),
    complete: (context, input, _origin, prepared) => {
      asked.push(`${name} ${String(input)} ${JSON.stringify(prepared)} kept ${JSON.stringify(context.kept)}`);
      return Promise.resolve({ proceed: true, ...(options.keep !== undefined && { keep: options.keep }) });
    },
  };
}

function setUp(prompts: readonly LoginPrompt[]) {
  const fakes = coreWithFakes([service({ serviceId: '^https://app\\.example\\.org/.*' })]);
  const pending = new PendingLogins(new MapRecordStores(fakes.clock).namespace('login.pending'), fakes.clock, cryptoRandomSource, 1800);
  const flow = new LoginFlow(new BrowserLogin(fakes.core, fakes.tickets, fakes.events), pending, fakes.core.secondFactor, prompts);
  const logIn = () => flow.logIn({ service: APP, renew: false, gateway: false, warn: false, method: 'GET', origin: ORIGIN, credentials: [password('casuser', 'Mellon')] }, () => BROWSER);
  /** Answers the prompt a progress shows, as its page's post would. */
  const answer = async (progress: LoginProgress, input: unknown) => {
    if (progress.kind !== 'prompt') return expect.fail(`expected a prompt, got ${progress.kind}`);
    const held = await flow.held(progress.shown.pending, BROWSER, ORIGIN);
    if (held === undefined) return expect.fail('the login is held');
    return flow.answer(held, input, ORIGIN, () => BROWSER);
  };
  return { flow, logIn, answer, ...fakes };
}

// docs/adding-a-module.md §4.1: the browser login as prompts in core, run by the login module's flow.
describe('LoginFlow: the browser login as an ordered list of prompts', () => {
  it('asks the session prompts in order, each when needed, decided again after every answer; what one keeps the later ones read', async () => {
    const asked: string[] = [];
    const first = prompt('first', asked, { keep: { colour: 'blue' } });
    const skipped = prompt('skipped', asked, { needed: (context) => context.kept['first'] === undefined });
    const last = prompt('last', asked);
    const { logIn, answer } = setUp([first, skipped, last]);
    const shown = await logIn();
    expect(shown.kind === 'prompt' && shown.shown.prompt.name).to.equal('first');
    expect(shown.kind === 'prompt' && shown.shown.prepared, 'what it prepared, for its view').to.equal('first page');
    expect(asked, 'the first needed is shown; the others are asked once it is answered').to.deep.equal(['first needed']);
    const next = await answer(shown, 'one');
    expect(next.kind === 'prompt' && next.shown.prompt.name, 'skipped: what the first kept says so now').to.equal('last');
    const done = await answer(next as LoginProgress, 'two');
    expect(done).to.deep.include({ kind: 'outcome' });
    expect(done.kind === 'outcome' && done.outcome.kind).to.equal('redirect');
    expect(done.kind !== 'gone' && done.madeSession?.authentication.principal.id, 'the session is made after the last').to.equal('casuser');
    expect(asked).to.deep.equal(['first needed', 'first one "first page" kept {}', 'skipped needed', 'last needed', 'last two "last page" kept {"first":{"colour":"blue"}}']);
  });

  it('a held login is answered once: a second answer of the same page finds it gone', async () => {
    const { logIn, flow } = setUp([prompt('only', [])]);
    const shown = await logIn();
    if (shown.kind !== 'prompt') return expect.fail('expected a prompt');
    const held = await flow.held(shown.shown.pending, BROWSER, ORIGIN);
    expect(await flow.held(shown.shown.pending, 'another-browser', ORIGIN), "another browser's post").to.equal(undefined);
    await flow.answer(held!, 'x', ORIGIN, () => BROWSER);
    expect(await flow.answer(held!, 'x', ORIGIN, () => BROWSER)).to.deep.include({ kind: 'gone' });
    expect(await flow.held(shown.shown.pending, BROWSER, ORIGIN)).to.equal(undefined);
  });

  it('a ticket prompt holds the ticket back until it lets it go, and may stop it: no ticket, the session stays', async () => {
    const decisions: unknown[] = [];
    const ask: TicketPrompt<JsonValue, unknown, string> = {
      phase: 'ticket',
      name: 'ask',
      needed: () => Promise.resolve(true),
      complete: (_ticket, input) => {
        decisions.push(input);
        return Promise.resolve(input === 'yes' ? { proceed: true } : { proceed: false, stop: 'refused' });
      },
    };
    const { logIn, answer } = setUp([ask]);
    const shown = await logIn();
    expect(shown.kind === 'prompt' && shown.shown.prompt.name).to.equal('ask');
    expect(shown.madeSession, 'the session is made before a ticket prompt').to.not.equal(undefined);
    const stopped = await answer(shown, 'no');
    expect(stopped).to.deep.include({ kind: 'stopped', stop: 'refused' });
    const again = await logIn();
    const granted = await answer(again, 'yes');
    expect(granted.kind === 'outcome' && granted.outcome).to.deep.include({ kind: 'redirect', service: APP });
    expect(decisions).to.deep.equal(['no', 'yes']);
  });

  it('refuses two prompts of one name, and two proving one second factor', () => {
    const { core, tickets, events, clock } = coreWithFakes();
    const pending = new PendingLogins(new MapRecordStores(clock).namespace('login.pending'), clock, cryptoRandomSource, 1800);
    const flow = (prompts: readonly LoginPrompt[]) => new LoginFlow(new BrowserLogin(core, tickets, events), pending, core.secondFactor, prompts);
    expect(() => flow([prompt('a', []), prompt('a', [])])).to.throw('two login prompts are named a');
    expect(() => flow([{ phase: 'credentials', name: 'password' }])).to.throw('two login prompts are named password');
    expect(() => flow([{ ...prompt('a', []), secondFactor: 'mfa-x' }, { ...prompt('b', []), secondFactor: 'mfa-x' }])).to.throw('two login prompts prove the second factor mfa-x');
  });
});
