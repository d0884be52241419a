import Mocha from 'mocha';
import { coverage, leaks, rememberAnswer, rememberRequest } from './log-canary.js';

/**
 * Root hooks of the whole mocha run (.mocharc `require`): every request made with fetch teaches the
 * canary its secrets and the ticket ids of its answer, and a suite added after every other one
 * checks that no line any server under test wrote holds one of them.
 */
export const mochaHooks = {
  beforeAll(this: Mocha.Context): void {
    const unwrapped = globalThis.fetch;
    globalThis.fetch = async function fetchTeachingTheCanary(input: string | URL | Request, init?: RequestInit): Promise<Response> {
      await learnFrom(input, init);
      const response = await unwrapped(input, init);
      rememberAnswer(await response.clone().text().catch(() => ''), response.headers.get('location'));
      return response;
    };
    // The runner reads the root's suites as it goes: one added now runs after all the others.
    const root = this.test!.parent!;
    const canary = Mocha.Suite.create(root, 'log canary (after every other test)');
    canary.addTest(new Mocha.Test('no line a server under test wrote holds a password, OTP code, Authorization value, ticket id or JWT the suite used', checkLines()));
  },
};

function checkLines(): Mocha.Func {
  return function (this: Mocha.Context) {
    const { sources, lines, secrets } = coverage();
    if (sources > 0 && (lines === 0 || secrets === 0)) throw new Error(`log canary: servers ran, yet ${lines} lines and ${secrets} secrets were captured`);
    const found = leaks();
    if (found.length > 0) {
      const shown = found.slice(0, 20).map(({ source, what, excerpt }) => `  ${source}: ${what} in ${excerpt}`);
      throw new Error(`log canary: ${found.length} secret(s) found in lines the servers under test wrote:\n${shown.join('\n')}`);
    }
    this.test!.title += ` (${lines} lines of ${sources} sources, ${secrets} secrets)`;
  };
}

/** A request fetch itself would refuse is left for fetch to refuse. */
async function learnFrom(input: string | URL | Request, init: RequestInit | undefined): Promise<void> {
  let request: Request;
  try {
    request = new Request(input instanceof Request ? input.clone() : input, init);
  } catch {
    return;
  }
  rememberRequest(request.url, request.headers, await request.text().catch(() => undefined));
}
