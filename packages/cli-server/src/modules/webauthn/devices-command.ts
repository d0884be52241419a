import { WebAuthnDevices, type WebAuthnDevice } from '@tessera/core/modules/webauthn';
import type { CommandInput, Output } from '../../cli/command.js';

const MEMORY_NOTICE = 'The storage is memory: devices live in the memory of the server that registered them, and this command sees none.\n';

/** `tessera webauthn list --username NAME`: the user's devices, oldest first. */
export function listDevices(username: string | undefined, { out, err, withStores }: CommandInput): Promise<number | undefined> {
  const user = requiredText(username);
  if (user === undefined) return usage(err, 'webauthn list', '--username NAME');
  return withDevices(withStores, async (devices, durable) => {
    const found = await devices.list(user);
    if (!durable) err.write(MEMORY_NOTICE);
    if (found.length === 0) {
      out.write(`${user} has no security key or passkey.\n`);
      return 0;
    }
    out.write(table([['CREDENTIAL ID', 'NAME', 'REGISTERED', 'LAST USED', 'COUNTER', 'KIND'], ...found.map(row)]));
    return 0;
  });
}

/** `tessera webauthn remove --username NAME --credential ID`: exit 1 when the user has no such device. */
export function removeDevice(username: string | undefined, credentialId: string | undefined, { out, err, withStores }: CommandInput): Promise<number | undefined> {
  const user = requiredText(username);
  const credential = requiredText(credentialId);
  if (user === undefined || credential === undefined) return usage(err, 'webauthn remove', '--username NAME --credential ID');
  return withDevices(withStores, async (devices, durable) => {
    if (!(await devices.remove(user, credential))) {
      err.write(`tessera webauthn remove: ${user} has no device with credential id ${credential}\n${durable ? '' : MEMORY_NOTICE}`);
      return 1;
    }
    out.write(`Removed ${credential} of ${user}.\n`);
    return 0;
  });
}

/** Runs `work` on the devices of the configured storage. */
function withDevices(withStores: CommandInput['withStores'], work: (devices: WebAuthnDevices, durable: boolean) => Promise<number>): Promise<number | undefined> {
  return withStores(({ records, random, clock, durable }) => work(new WebAuthnDevices(records, random, clock), durable));
}

function row(device: WebAuthnDevice): string[] {
  return [
    device.credentialId,
    printable(device.name),
    new Date(device.createdAt).toISOString(),
    device.lastUsedAt === undefined ? '-' : new Date(device.lastUsedAt).toISOString(),
    String(device.counter),
    device.multiDevice ? 'synced passkey' : 'device-bound key',
  ];
}

/** A name as the user typed it, without what a terminal would act on. */
function printable(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}]/gu, '?');
}

function requiredText(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function usage(err: Output, command: string, options: string): Promise<number> {
  err.write(`tessera ${command}: ${options} is required\n`);
  return Promise.resolve(2);
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((each) => each[column]?.length ?? 0))) ?? [];
  return rows.map((each) => each.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n') + '\n';
}
