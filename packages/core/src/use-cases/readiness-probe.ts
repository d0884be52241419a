import type { EventSink } from '../ports/event-sink.js';
import type { ReadinessCheck } from '../ports/readiness-check.js';

export type ComponentState = 'up' | 'down';

export interface ReadinessReport {
  /** true when every component is up. */
  readonly ready: boolean;
  /** Each component by the name of its check. */
  readonly components: Readonly<Record<string, ComponentState>>;
  /** Why each component that is down is down, in words safe to show anyone: no host, no cause. */
  readonly failures: Readonly<Record<string, string>>;
}

/** The public reason of a check that rejected; what it rejected with goes to the log. */
export const CHECK_FAILED = 'unavailable (details in the server log)';

export function noAnswerWithin(timeoutMs: number): string {
  return `no answer within ${timeoutMs} ms`;
}

/**
 * `GET /health/ready`: runs every readiness check at once; ready only when all are up. A check not
 * settled within `timeoutMs` counts as down, so a hung dependency makes a prompt "not ready", never
 * a hung probe. Callers arriving while a run is in flight share it, so a flood of probes costs each
 * dependency one check at a time. Every failure is reported as a `readiness.failed` event.
 */
export class ReadinessProbe {
  private running: Promise<ReadinessReport> | undefined;

  constructor(
    private readonly checks: readonly ReadinessCheck[],
    private readonly timeoutMs: number,
    private readonly events: EventSink,
  ) {}

  probe(): Promise<ReadinessReport> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(): Promise<ReadinessReport> {
    const reasons = await Promise.all(this.checks.map((check) => this.failureOf(check)));
    const components: Record<string, ComponentState> = {};
    const failures: Record<string, string> = {};
    this.checks.forEach(({ name }, index) => {
      const reason = reasons[index];
      components[name] = reason === undefined ? 'up' : 'down';
      if (reason !== undefined) failures[name] = reason;
    });
    return { ready: Object.keys(failures).length === 0, components, failures };
  }

  /** undefined when the check passed in time; the public reason otherwise. */
  private async failureOf(check: ReadinessCheck): Promise<string | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.timeoutMs);
    });
    try {
      // Promise.resolve().then: a check that throws instead of rejecting is a failure all the same.
      const outcome = await Promise.race([Promise.resolve().then(() => check.check()), deadline]);
      if (outcome !== 'late') return undefined;
      return this.failed(check.name, noAnswerWithin(this.timeoutMs));
    } catch (thrown) {
      return this.failed(check.name, CHECK_FAILED, thrown instanceof Error ? thrown : new Error(String(thrown)));
    } finally {
      clearTimeout(timer);
    }
  }

  private failed(component: string, reason: string, error?: Error): string {
    this.events.emit({ type: 'readiness.failed', component, reason, ...(error && { error }) });
    return reason;
  }
}
