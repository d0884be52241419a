import type { ModuleCommand } from '../../cli/command.js';

/** The webauthn module's commands: an administrator lists and removes a user's devices in the configured storage. */
export const webauthnCommands: readonly ModuleCommand[] = [
  {
    name: 'webauthn list',
    listedAfter: 'otp new',
    options: ['username', 'config'],
    required: ['username'],
    summary: "list a user's registered security keys and passkeys",
    description: "Lists the user's WebAuthn devices in the configured storage: credential id, name, when registered and last used, the counter, and whether it is a synced passkey.",
    run: async (input) => (await import('./devices-command.js')).listDevices(input.values['username'], input),
  },
  {
    name: 'webauthn remove',
    listedAfter: 'webauthn list',
    ownOptions: { credential: { type: 'string', usage: '--credential ID', help: 'the credential id of the device, as `tessera webauthn list` shows it' } },
    options: ['username', 'credential', 'config'],
    required: ['username', 'credential'],
    summary: "remove one of a user's security keys or passkeys",
    description: 'Removes the device from the configured storage: it logs nobody in from now on. Exit 1 when the user has no device of that credential id.',
    run: async (input) => (await import('./devices-command.js')).removeDevice(input.values['username'], input.values['credential'], input),
  },
];
