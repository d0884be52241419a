import { APP, form } from '../../support/tessera.js';
import { validate } from '../../storage/redis-nodes.js';

/** A tessera node the load reaches: its name (server.nodeName) and base URL. */
export interface Target {
  readonly name: string;
  readonly url: string;
}

export type Step = 'login' | 'st' | 'validation' | 'revalidation';

/** One request of the load and what came back: `status` 0 is no answer at all (refused, reset). */
export interface Answer {
  readonly step: Step;
  readonly node: string;
  readonly status: number;
  /** The CAS failure code of a validation, or the error of a request that got no answer. */
  readonly code?: string | undefined;
  readonly startedAt: number;
  /** When the flow of this request began (its login): tickets older than a fault may be gone with it. */
  readonly flowStartedAt: number;
  readonly ms: number;
  /** Why this answer breaks a promise; none when it keeps them. */
  readonly wrong?: string | undefined;
}

/** One login → ST → validation → second validation, as a CAS client and its user make them. */
export interface Flow {
  /** The node the login went to. */
  readonly node: string;
  readonly startedAt: number;
  readonly endedAt: number;
  /** Every step answered as it does when nothing is wrong. */
  readonly through: boolean;
}

export interface LoadOptions {
  /** Flows under way at once (each one request at a time). */
  readonly concurrency?: number;
  readonly username?: string;
  readonly password?: string;
  /**
   * Answers this scenario's promise allows besides success and 503 (a TGT lost with an emptied
   * store, a refused connection once the node stops): true keeps the answer from counting as wrong.
   * A 5xx other than 503 and a validation of the wrong user or of a consumed ticket are always wrong.
   */
  readonly tolerated?: (answer: Omit<Answer, 'wrong'>) => boolean;
  /** This load's user does not depend on what fails: every answer must be a success, a 503 too is wrong. */
  readonly unaffected?: boolean;
}

/**
 * A bounded load of login → ST → validation flows over the nodes, crossing them (login on one, the ST
 * on the next, validation back on the first), and every answer judged against the promises: success
 * or 503, never another 5xx, never a wrong user, never a second success for one ST.
 */
export class Load {
  readonly answers: Answer[] = [];
  readonly flows: Flow[] = [];
  private running = false;
  private workers: Promise<void>[] = [];
  private next = 0;
  private readonly concurrency: number;
  private readonly username: string;
  private readonly password: string;

  constructor(
    private readonly targets: readonly Target[],
    private readonly options: LoadOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 4;
    this.username = options.username ?? 'casuser';
    this.password = options.password ?? 'Mellon';
  }

  start(): this {
    this.running = true;
    this.workers = Array.from({ length: this.concurrency }, () => this.work());
    return this;
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  /** Answers counted by status, e.g. `{ '201': 40, '503': 3 }` (`0`: no answer). */
  byStatus(): Record<string, number> {
    return countByStatus(this.answers);
  }

  /** Waits until at least `count` flows have got through since the load started (or since `since`). */
  async untilThrough(count: number, since = 0, seconds = 30): Promise<void> {
    await until(() => this.flows.filter((flow) => flow.through && flow.startedAt >= since).length >= count, `${count} flows through`, seconds);
  }

  /**
   * Waits until a flow begun at `since` or later has got through with its login on every node: how
   * long after `since` the last of them ended. Fails, with the answers on the way, after `giveUpMs`.
   */
  async recoveredAfter(since: number, giveUpMs: number): Promise<number> {
    const firstThrough = () => this.targets.map(({ name }) => this.flows.find((flow) => flow.through && flow.node === name && flow.startedAt >= since));
    try {
      await until(() => firstThrough().every((flow) => flow !== undefined), 'a flow through on every node', giveUpMs / 1000);
    } catch {
      const since_ = this.answers.filter((answer) => answer.startedAt >= since).map((answer) => `${answer.node} ${answer.step} ${answer.status}${answer.code ? ` ${answer.code}` : ''}`);
      throw new Error(`no flow through on every node within ${giveUpMs} ms of the fault's end; answers since: ${since_.slice(-30).join(', ')}`);
    }
    return Math.max(...firstThrough().map((flow) => flow!.endedAt)) - since;
  }

  /** Sends one request as the load does and judges its answer; for the steps a scenario makes itself. */
  async login(target: Target): Promise<string | undefined> {
    const startedAt = Date.now();
    const response = await this.send(target, 'login', startedAt, startedAt, () =>
      fetch(`${target.url}/v1/tickets`, { ...form({ username: this.username, password: this.password }), headers: { ...form({}).headers, accept: 'text/plain' } }),
    );
    if (!response) return undefined;
    const body = await response.text();
    this.judge({ step: 'login', node: target.name, status: response.status, startedAt, flowStartedAt: startedAt, ms: Date.now() - startedAt });
    return response.status === 201 ? body : undefined;
  }

  /** `flowStartedAt`: when the TGT was made. */
  async serviceTicket(target: Target, tgt: string, flowStartedAt = Date.now()): Promise<string | undefined> {
    const startedAt = Date.now();
    const response = await this.send(target, 'st', startedAt, flowStartedAt, () => fetch(`${target.url}/v1/tickets/${tgt}`, form({ service: APP })));
    if (!response) return undefined;
    const body = await response.text();
    this.judge({ step: 'st', node: target.name, status: response.status, startedAt, flowStartedAt, ms: Date.now() - startedAt });
    return response.status === 200 ? body : undefined;
  }

  /** A validation; `again`: the ST was validated once already, so a success is a wrong answer. `flowStartedAt`: when its TGT was made. */
  async validate(target: Target, st: string, { again = false, flowStartedAt = Date.now() } = {}): Promise<Awaited<ReturnType<typeof validate>> | undefined> {
    const startedAt = Date.now();
    const step: Step = again ? 'revalidation' : 'validation';
    const validation = await this.send(target, step, startedAt, flowStartedAt, () => validate(target.url, st, APP));
    if (!validation) return undefined;
    this.judge({ step, node: target.name, status: validation.status, code: validation.user === undefined ? validation.code : undefined, startedAt, flowStartedAt, ms: Date.now() - startedAt }, validation.user);
    return validation;
  }

  private async work(): Promise<void> {
    while (this.running) {
      const turn = this.next++;
      const first = this.targets[turn % this.targets.length]!;
      const second = this.targets[(turn + 1) % this.targets.length]!;
      const startedAt = Date.now();
      const through = await this.flow(first, second, startedAt);
      this.flows.push({ node: first.name, startedAt, endedAt: Date.now(), through });
      // A flow that failed fast (503) waits a little before the next, so an outage is not a busy loop.
      if (!through) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private async flow(first: Target, second: Target, flowStartedAt: number): Promise<boolean> {
    const tgt = await this.login(first);
    if (tgt === undefined) return false;
    const st = await this.serviceTicket(second, tgt, flowStartedAt);
    if (st === undefined) return false;
    const validation = await this.validate(first, st, { flowStartedAt });
    if (validation?.user !== this.username) return false;
    const again = await this.validate(second, st, { again: true, flowStartedAt });
    return again?.code === 'INVALID_TICKET';
  }

  private async send<T>(target: Target, step: Step, startedAt: number, flowStartedAt: number, request: () => Promise<T>): Promise<T | undefined> {
    try {
      return await request();
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      this.judge({ step, node: target.name, status: 0, code: cause?.code ?? cause?.message ?? (error as Error).message, startedAt, flowStartedAt, ms: Date.now() - startedAt });
      return undefined;
    }
  }

  private judge(answer: Omit<Answer, 'wrong'>, user?: string): void {
    const wrong = this.verdict(answer, user);
    this.answers.push(wrong === undefined ? answer : { ...answer, wrong });
  }

  private verdict(answer: Omit<Answer, 'wrong'>, user: string | undefined): string | undefined {
    const { step, status, code } = answer;
    if (status >= 500 && status !== 503) return `${step} answered ${status}`;
    if (step === 'revalidation' && user !== undefined) return `an ST validated a second time (as ${user})`;
    if ((step === 'validation' || step === 'revalidation') && user !== undefined && user !== this.username) return `a validation as ${user} for ${this.username}'s ST`;
    if (status === 503 && !this.options.unaffected) return undefined;
    const success = { login: status === 201, st: status === 200, validation: user === this.username, revalidation: code === 'INVALID_TICKET' }[step];
    if (success || this.options.tolerated?.(answer)) return undefined;
    return status === 0 ? `${step}: no answer (${code ?? 'no error'})` : `${step} answered ${status}${code ? ` ${code}` : ''}`;
  }
}

export function countByStatus(answers: readonly Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** Polls `condition` every 50 ms; fails naming `what` once `seconds` pass. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, seconds = 30): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
