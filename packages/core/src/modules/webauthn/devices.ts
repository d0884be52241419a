import type { Clock } from '../../ports/clock.js';
import type { RandomSource } from '../../ports/random-source.js';
import { updateRecord, type RecordStore, type RecordStores } from '../../ports/record-store.js';

/**
 * A registered WebAuthn credential (a security key or a passkey) of one user: what verifying its
 * assertions needs (its public key, the signature counter it reported last, the user handle it was
 * made for) and what an administrator sees of it (its name, when it was registered and last used).
 * Binary values are base64url.
 */
export type WebAuthnDevice = {
  readonly credentialId: string;
  readonly username: string;
  /** The WebAuthn user handle the credential was made for: random, one per user, never the username. */
  readonly userHandle: string;
  /** The credential's public key, COSE-encoded. */
  readonly publicKey: string;
  /** The signature counter of its last accepted assertion (0: the authenticator keeps none). */
  readonly counter: number;
  /** How the browser may reach it (`usb`, `nfc`, `internal`, `hybrid`, …), as it said at registration. */
  readonly transports: readonly string[];
  /** What the user or the administrator calls it. */
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt?: number;
  /** A passkey its platform may copy to the user's other devices (backup eligible), rather than a key bound to one authenticator. */
  readonly multiDevice: boolean;
  /** Whether it was backed up (synced) when last seen. */
  readonly backedUp: boolean;
};

/** What a use of a device did to its record: counted, refused as a clone (its counter went back or stood still), or the device is gone. */
export type DeviceUse = 'counted' | 'cloned' | 'gone';

/** The webauthn module's record namespaces in the storage's RecordStores. */
export const WEBAUTHN_DEVICES_NAMESPACE = 'webauthn.devices';
export const WEBAUTHN_USER_HANDLES_NAMESPACE = 'webauthn.user-handles';

/** Devices and user handles are kept until removed: a lifetime past any the server will see. */
export const KEPT_UNTIL_REMOVED = Date.UTC(9999, 11, 31);

const USER_HANDLE_BYTES = 32;

/**
 * The users' registered devices, shared by every node (record namespace `webauthn.devices`, one record
 * per credential id, grouped by user) and each user's WebAuthn user handle (`webauthn.user-handles`).
 * A credential id is registered once, to one user; its counter moves forward by compare-and-set, so of
 * two assertions racing with one counter value only one is counted.
 */
export class WebAuthnDevices {
  private readonly devices: RecordStore<WebAuthnDevice>;
  private readonly handles: RecordStore<string>;

  constructor(
    records: RecordStores,
    private readonly random: RandomSource,
    private readonly clock: Clock,
  ) {
    this.devices = records.namespace<WebAuthnDevice>(WEBAUTHN_DEVICES_NAMESPACE);
    this.handles = records.namespace<string>(WEBAUTHN_USER_HANDLES_NAMESPACE);
  }

  /** The user's devices, oldest first. */
  async list(username: string): Promise<WebAuthnDevice[]> {
    const found = await this.devices.findByGroup(groupOf(username));
    return found.map((record) => record.value).filter((device) => device.username === username).sort((a, b) => a.createdAt - b.createdAt || a.credentialId.localeCompare(b.credentialId));
  }

  /** The device of this credential id, whoever's it is. */
  find(credentialId: string): Promise<WebAuthnDevice | undefined> {
    return this.devices.get(credentialId);
  }

  /** Registers the device: false, and nothing written, when its credential id is registered already (to anyone). */
  add(device: WebAuthnDevice): Promise<boolean> {
    return this.devices.insert(device.credentialId, device, KEPT_UNTIL_REMOVED, { group: groupOf(device.username) });
  }

  /** Removes the user's device of this credential id: false when the user has none of that id. */
  async remove(username: string, credentialId: string): Promise<boolean> {
    const device = await this.devices.get(credentialId);
    if (device?.username !== username) return false;
    await this.devices.delete(credentialId);
    return true;
  }

  /**
   * An accepted assertion's counter, recorded in one compare-and-set step: counted when it is above the
   * recorded one (or both are 0, an authenticator that keeps no counter); refused as a clone when it is
   * not (a copy of the key signing with an older count), the record left as it was.
   */
  async used(credentialId: string, counter: number, backedUp: boolean): Promise<DeviceUse> {
    let outcome: DeviceUse = 'gone';
    const now = this.clock.now();
    await updateRecord(this.devices, credentialId, (current) => {
      if (current === undefined) {
        outcome = 'gone';
        return undefined;
      }
      const recorded = current.value.counter;
      if ((counter > 0 || recorded > 0) && counter <= recorded) {
        outcome = 'cloned';
        return undefined;
      }
      outcome = 'counted';
      return { value: { ...current.value, counter, backedUp, lastUsedAt: now }, expiresAt: current.expiresAt, ...(current.group !== undefined && { group: current.group }) };
    });
    return outcome;
  }

  /** The user's WebAuthn user handle, made (random) at the first registration and the same for every later one. */
  async userHandle(username: string): Promise<string> {
    const known = await this.handles.get(username);
    if (known !== undefined) return known;
    const made = Buffer.from(this.random.bytes(USER_HANDLE_BYTES)).toString('base64url');
    if (await this.handles.insert(username, made, KEPT_UNTIL_REMOVED)) return made;
    // Another registration of the user made one first.
    return (await this.handles.get(username)) ?? made;
  }

  /** The user's handle if one was ever made (the user registered a device). */
  knownUserHandle(username: string): Promise<string | undefined> {
    return this.handles.get(username);
  }
}

/** Devices are grouped by their user, so listing one user's is one lookup. */
function groupOf(username: string): string {
  return `user:${username}`;
}
