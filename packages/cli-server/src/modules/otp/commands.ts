import type { ModuleCommand } from '../../cli/command.js';

/** The otp module's command: a user's secret, made before the configuration names it. */
export const otpCommands: readonly ModuleCommand[] = [
  {
    name: 'otp new',
    listedAfter: 'services validate',
    ownOptions: {
      user: { type: 'string', usage: '--user NAME', help: 'the user the secret is for, shown in the authenticator app' },
    },
    options: ['user'],
    required: ['user'],
    summary: 'print a new TOTP secret (users[].otpSecret) and its otpauth:// URI',
    description: 'Prints a fresh base32 secret for users[].otpSecret and the otpauth:// URI to show an authenticator app (as a QR code).',
    run: async ({ values }) => (await import('./otp-new.js')).otpNew(values['user']),
  },
];
