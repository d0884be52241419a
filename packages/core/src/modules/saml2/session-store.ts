import { updateRecord, type RecordStore, type RecordStores } from '../../ports/record-store.js';

/** An SP the IdP sent an assertion to within a login session: what a LogoutRequest to it names. */
export interface SamlSpSession {
  readonly spEntityId: string;
  /** The NameID the assertion named, as the SP knows the user. */
  readonly nameId: string;
  readonly nameIdFormat: string;
  readonly spNameQualifier?: string;
  /** The assertion's AuthnStatement SessionIndex. */
  readonly sessionIndex: string;
  /** The user of the login session, as tessera knows them: what the logout's audit record names. */
  readonly principal?: string;
}

/**
 * The SPs that hold a session of a login session (a TGT), for single logout: shared by every node,
 * so a logout at one node reaches the SPs another node answered.
 */
export interface SamlSessionStore {
  /**
   * Adds the SP's session to the TGT's, replacing an earlier one of the same SP (an SP holds one
   * session of a login session), kept until `expiresAt` at least. Concurrent adds for one TGT all land.
   */
  add(tgtId: string, session: SamlSpSession, expiresAt: number): Promise<void>;

  /** The TGT's sessions in the order their SPs were first added ([] when none). */
  sessionsOf(tgtId: string): Promise<readonly SamlSpSession[]>;

  /**
   * Atomically removes the TGT's sessions and returns them ([] when none): of concurrent callers,
   * on any node, exactly one gets them, so each SP is told of the logout once.
   */
  take(tgtId: string): Promise<readonly SamlSpSession[]>;

  /** Removes one SP's session of the TGT (the SP itself asked to log out). */
  remove(tgtId: string, spEntityId: string): Promise<void>;
}

/** The saml2 module's namespace of SP sessions per TGT in the storage's RecordStores. */
export const SAML_SESSION_NAMESPACE = 'saml2.sessions';

type RecordedSession = {
  readonly spEntityId: string;
  readonly nameId: string;
  readonly nameIdFormat: string;
  readonly spNameQualifier?: string;
  readonly sessionIndex: string;
  readonly principal?: string;
};
type SessionsRecord = { readonly sessions: readonly RecordedSession[] };

/** SamlSessionStore on the storage's records: one record per TGT, changed by compare-and-set. */
export class RecordSamlSessionStore implements SamlSessionStore {
  private readonly records: RecordStore<SessionsRecord>;

  constructor(records: RecordStores) {
    this.records = records.namespace<SessionsRecord>(SAML_SESSION_NAMESPACE);
  }

  async add(tgtId: string, session: SamlSpSession, expiresAt: number): Promise<void> {
    const { spEntityId, nameId, nameIdFormat, spNameQualifier, sessionIndex, principal } = session;
    const recorded: RecordedSession = { spEntityId, nameId, nameIdFormat, sessionIndex, ...(spNameQualifier !== undefined && { spNameQualifier }), ...(principal !== undefined && { principal }) };
    await updateRecord(this.records, tgtId, (current) => {
      const sessions = [...(current?.value.sessions ?? [])];
      const at = sessions.findIndex((held) => held.spEntityId === spEntityId);
      if (at >= 0) sessions[at] = recorded;
      else sessions.push(recorded);
      return { value: { sessions }, expiresAt: Math.max(current?.expiresAt ?? 0, expiresAt) };
    });
  }

  async sessionsOf(tgtId: string): Promise<readonly SamlSpSession[]> {
    return (await this.records.get(tgtId))?.sessions ?? [];
  }

  async take(tgtId: string): Promise<readonly SamlSpSession[]> {
    return (await this.records.take(tgtId))?.sessions ?? [];
  }

  async remove(tgtId: string, spEntityId: string): Promise<void> {
    await updateRecord(this.records, tgtId, (current) => {
      if (current === undefined || !current.value.sessions.some((held) => held.spEntityId === spEntityId)) return undefined;
      return { value: { sessions: current.value.sessions.filter((held) => held.spEntityId !== spEntityId) }, expiresAt: current.expiresAt };
    });
  }
}
