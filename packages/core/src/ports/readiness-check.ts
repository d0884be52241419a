/**
 * One dependency the server needs to answer requests (the storage, the LDAP directory), as
 * `GET /health/ready` reports it under `name`.
 *
 * `check` resolves when the dependency answered just now, and rejects (with any error; details go to
 * the log only) when it did not. It proves the dependency serves, as cheaply as it can: run on every
 * probe of every node, it must change no data. It bounds its own wait by the dependency's configured
 * timeout; the ReadinessProbe gives up on it sooner when its own deadline passes first.
 */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<void>;
}
