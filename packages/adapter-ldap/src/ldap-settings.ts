/** How the LDAP handler finds and checks users; cli-server fills it from `ldap.*`. */
export interface LdapSettings {
  /** `ldap://host:389` or `ldaps://host:636`. */
  readonly url: string;
  /** `search`: a service account finds the entry, then the user binds; `direct`: bind to `dnPattern`. */
  readonly mode: 'search' | 'direct';
  /** Service account for searches; without it searches are anonymous. */
  readonly bindDn?: string | undefined;
  readonly bindPassword?: string | undefined;
  readonly searchBase: string;
  /** A filter with `{user}`, e.g. `(uid={user})`; the username is escaped (RFC 4515). */
  readonly searchFilter: string;
  /** A DN with `{user}`, e.g. `uid={user},ou=people,dc=example,dc=org`; the username is escaped (RFC 4514). */
  readonly dnPattern?: string | undefined;
  readonly startTls: boolean;
  /** PEM of the CA that signs the directory's certificate (LDAPS and StartTLS); system CAs otherwise. */
  readonly ca?: string | undefined;
  readonly connectTimeoutMs: number;
  readonly operationTimeoutMs: number;
  /** LDAP attribute name → principal attribute name. Only these are released. */
  readonly attributes: Readonly<Record<string, string>>;
  /** The principal id comes from this attribute's first value; the username otherwise. */
  readonly principalIdAttribute?: string | undefined;
  /** An entry with any value of this attribute is locked (OpenLDAP ppolicy: `pwdAccountLockedTime`). */
  readonly lockedAttribute?: string | undefined;
}
