import { hash } from 'node:crypto';
import type { CredentialType } from '../../domain/authentication/credential.js';
import type { Clock } from '../../ports/clock.js';
import type { RandomSource } from '../../ports/random-source.js';
import { updateRecord, type JsonValue, type RecordStore } from '../../ports/record-store.js';

const PENDING_ID_BYTES = 16;

/** An Authentication as a record holds it (JSON): the same fields. */
export type StoredAuthentication = {
  readonly principal: { readonly id: string; readonly attributes: { readonly [name: string]: readonly string[] } };
  readonly authenticatedAt: number;
  readonly credentials: readonly { readonly id: string; readonly type: CredentialType }[];
  readonly successes: { readonly [handler: string]: { readonly handlerName: string; readonly credentialType: CredentialType; readonly principalId: string } };
  readonly attributes: { readonly [name: string]: readonly string[] };
};

/** The browser's request a login answers, kept while its prompts are shown. */
export type HeldRequest = {
  readonly service?: string;
  readonly session?: string;
  readonly renew: boolean;
  readonly warn: boolean;
  /** The browser's session adding a factor (step-up), not a new login. */
  readonly stepUp?: boolean;
  /**
   * The prompts are pages before a service ticket (the session is made, `session` names it, `service` is
   * the ticket's URL); `fromNewLogin`: the ticket counts as from the login just made.
   */
  readonly beforeTicket?: { readonly fromNewLogin: boolean };
  /** How the browser goes back to the service (`GET` or `POST`), as the login form asked. */
  readonly method: string;
};

/**
 * A browser login whose credentials are proven, waiting for the prompts its pages still ask (a second
 * factor) before its session is made, or a session's ticket waiting for its ticket prompts. `steps`
 * names the prompt shown now first (a record of an earlier version may name the steps after it too:
 * they are decided again, in order); `session` the browser's login session when the login began, if
 * any; `prepared` what the prompt shown now prepared for its page; `kept` what the prompts answered
 * before it kept, by their names.
 */
export type PendingLogin = HeldRequest & {
  readonly authentication: StoredAuthentication;
  readonly steps: readonly string[];
  readonly prepared?: JsonValue;
  readonly kept?: { readonly [prompt: string]: JsonValue };
};

type PendingRecord = PendingLogin & { readonly browser: string };

/**
 * The logins waiting for a step, shared by every node (the record namespace `login.pending`): each
 * under a random id the step's page posts back, bound to the browser that proved the credentials
 * (a digest of its id, as the form tokens are), for as long as a login form stays valid. Finishing
 * one takes it atomically, so one proof makes at most one session.
 */
export class PendingLogins {
  constructor(
    private readonly records: RecordStore<PendingRecord>,
    private readonly clock: Clock,
    private readonly random: RandomSource,
    private readonly lifetimeSeconds: number,
  ) {}

  /** Keeps the login for this browser; the id its step page posts back. */
  async hold(browserId: string, login: PendingLogin): Promise<string> {
    const id = Buffer.from(this.random.bytes(PENDING_ID_BYTES)).toString('base64url');
    await this.records.put(id, { ...login, browser: browserDigest(browserId) }, this.clock.now() + this.lifetimeSeconds * 1000);
    return id;
  }

  /** The live login of this id, held for this browser; undefined for any other. */
  async find(id: string | undefined, browserId: string | undefined): Promise<PendingLogin | undefined> {
    if (!id || browserId === undefined) return undefined;
    const found = await this.records.get(id);
    return found?.browser === browserDigest(browserId) ? withoutBrowser(found) : undefined;
  }

  /**
   * What the prompt shown now prepared, made again (its page shown again after a refusal): written only
   * while the login is live and this browser's, never bringing back one that ended meanwhile.
   */
  async reprepared(id: string, browserId: string, prepared: JsonValue | undefined): Promise<boolean> {
    const digest = browserDigest(browserId);
    const written = await updateRecord(this.records, id, (current) => {
      if (current === undefined || current.value.browser !== digest) return undefined;
      const { prepared: _earlier, ...login } = current.value;
      return { value: prepared === undefined ? login : { ...login, prepared }, expiresAt: current.expiresAt };
    });
    return written !== undefined;
  }

  /** Ends the login of this id, held for this browser: its value for the one caller that ends it, else undefined. */
  async finish(id: string, browserId: string): Promise<PendingLogin | undefined> {
    if ((await this.find(id, browserId)) === undefined) return undefined;
    const taken = await this.records.take(id);
    return taken === undefined ? undefined : withoutBrowser(taken);
  }
}

function withoutBrowser({ browser: _browser, ...login }: PendingRecord): PendingLogin {
  return login;
}

/** The record names a digest of the browser's id, never the cookie's value itself. */
function browserDigest(browserId: string): string {
  return hash('sha256', `tessera pending login ${browserId}`, 'base64url');
}
