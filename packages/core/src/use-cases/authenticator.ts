import type { Authentication, HandlerSuccess } from '../domain/authentication/authentication.js';
import { describeCredential, type Credential } from '../domain/authentication/credential.js';
import { mergeAttributes, type Principal } from '../domain/authentication/principal.js';
import { AuthenticationFailedError, NoCredentialsError } from '../domain/errors.js';
import type { RequestOrigin } from '../domain/events.js';
import type { AuthenticationListener } from '../ports/authentication-listener.js';
import type { AuthenticationPolicy } from '../ports/authentication-policy.js';
import type { Clock } from '../ports/clock.js';
import type { CredentialHandler } from '../ports/credential-handler.js';
import type { EventSink } from '../ports/event-sink.js';

export const MIXED_PRINCIPALS = 'Credentials identify different principals.';

interface Accepted {
  readonly principal: Principal;
  readonly success: HandlerSuccess;
}

/**
 * Authenticates every extracted credential (CAS's "all" policy): each needs a handler that accepts
 * it, and all must resolve to the same principal. Every credential is checked, whatever the others'
 * outcome, so the time taken does not tell which one failed (the password's hash always runs).
 * One failure reason per failed credential, unless a policy conceals them behind one. A success is
 * told to every listener (the throttle) before it is returned.
 */
export class Authenticator {
  constructor(
    private readonly handlers: readonly CredentialHandler[],
    private readonly clock: Clock,
    private readonly events: EventSink,
    private readonly policies: readonly AuthenticationPolicy[] = [],
    private readonly listeners: readonly AuthenticationListener[] = [],
  ) {}

  /** `origin`: the request the credentials came with, reported with the events. */
  async authenticate(credentials: readonly Credential[], origin?: RequestOrigin): Promise<Authentication> {
    if (credentials.length === 0) throw new NoCredentialsError();
    const asked = new Set<string>();
    const outcomes = await Promise.allSettled(credentials.map((credential) => this.authenticateOne(credential, asked, origin)));

    const accepted: Accepted[] = [];
    const reasons: string[] = [];
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') accepted.push(outcome.value);
      else if (outcome.reason instanceof AuthenticationFailedError) reasons.push(...outcome.reason.reasons);
      else throw outcome.reason;
    }
    const first = accepted[0];
    if (reasons.length === 0 && first && accepted.some((a) => a.principal.id !== first.principal.id)) {
      reasons.push(MIXED_PRINCIPALS);
    }
    if (reasons.length === 0 && first) reasons.push(...(await this.violations(first.principal, credentials)));
    if (reasons.length > 0 || !first) {
      this.events.emit(
        {
          type: 'authentication.failed',
          credentialIds: credentials.map((c) => describeCredential(c).id),
          credentialTypes: credentials.map((c) => c.type),
          handlers: [...asked],
          reasons,
        },
        origin,
      );
      throw new AuthenticationFailedError(await this.shownReasons(credentials, reasons));
    }

    const successes: Record<string, HandlerSuccess> = {};
    for (const { success } of accepted) successes[success.handlerName] = success;
    const handlerNames = Object.keys(successes);
    const credentialTypes = credentials.map((c) => c.type);
    this.events.emit({ type: 'authentication.succeeded', principal: first.principal.id, handlers: handlerNames, credentialTypes }, origin);
    const authentication: Authentication = {
      principal: { id: first.principal.id, attributes: mergeAttributes(...accepted.map((a) => a.principal.attributes)) },
      authenticatedAt: this.clock.now(),
      credentials: credentials.map(describeCredential),
      successes,
      attributes: {
        credentialType: [...new Set(credentialTypes)],
        successfulAuthenticationHandlers: handlerNames,
      },
    };
    for (const listener of this.listeners) await listener.authenticated(authentication, origin);
    return authentication;
  }

  /** The reasons the caller sees: the first policy's concealing reason, else the real ones. */
  private async shownReasons(credentials: readonly Credential[], reasons: string[]): Promise<string[]> {
    const concealing = await Promise.all(this.policies.map((policy) => policy.concealedFailure(credentials)));
    const reason = concealing.find((found) => found !== undefined);
    return reason === undefined ? reasons : [reason];
  }

  private async violations(principal: Principal, credentials: readonly Credential[]): Promise<string[]> {
    const types = credentials.map((c) => c.type);
    const found = await Promise.all(this.policies.map((policy) => policy.violation(principal, types)));
    return found.filter((reason) => reason !== undefined);
  }

  /** Handlers for the credential's kind are tried in order; the first that accepts it wins. Each one tried joins `asked`. */
  private async authenticateOne(credential: Credential, asked: Set<string>, origin: RequestOrigin | undefined): Promise<Accepted> {
    const candidates = this.handlers.filter((handler) => handler.supports(credential));
    if (candidates.length === 0) throw new AuthenticationFailedError([`No handler accepts ${credential.type} credentials.`]);
    let failure: AuthenticationFailedError | undefined;
    for (const handler of candidates) {
      asked.add(handler.name);
      try {
        const principal = await handler.authenticate(credential, origin);
        return { principal, success: { handlerName: handler.name, credentialType: credential.type, principalId: principal.id } };
      } catch (error) {
        if (!(error instanceof AuthenticationFailedError)) throw error;
        failure = error;
      }
    }
    throw failure ?? new AuthenticationFailedError([`No handler accepts ${credential.type} credentials.`]);
  }
}
