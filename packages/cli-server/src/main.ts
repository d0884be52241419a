#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { generateKeys } from './cli/generate-keys.js';
import { hashPassword } from './cli/hash-password.js';
import { servicesCommand, SERVICES_USAGE } from './cli/services.js';
import { otpNew } from './cli/otp-new.js';
import { start } from './cli/start.js';
import { redactedText } from './redaction.js';

const USAGE = `Usage:
  tessera [start] [--config FILE] [--port N]   serve (default command)
  tessera hash-password                        read a password from stdin, print its argon2id hash
  tessera keys generate [--algorithm ENC]      print a fresh key pair for the tokens module (JSON)
${SERVICES_USAGE}
  tessera otp new --user NAME                  print a new TOTP secret (users[].otpSecret) and its otpauth:// URI
  tessera --help

Settings come from FILE (YAML or JSON), then TESSERA_* environment variables
(TESSERA_SERVER__PORT=9000: "__" between levels), then --port.
Without FILE, a demo user (casuser) and a demo service are on. See README.md.
`;

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { config: { type: 'string' }, port: { type: 'string' }, algorithm: { type: 'string' }, user: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    return usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const [command = 'start', ...extra] = positionals;
  if (command === 'keys' && extra[0] === 'generate' && extra.length === 1) {
    process.exitCode = generateKeys(values.algorithm);
    return;
  }
  if (command === 'services') {
    process.exitCode = await servicesCommand(extra, values.config, process.stdout, process.stderr);
    return;
  }
  if (command === 'otp' && extra[0] === 'new' && extra.length === 1) {
    process.exitCode = otpNew(values.user);
    return;
  }
  if (extra.length > 0) return usageError(`unexpected argument "${extra.join(' ')}"`);
  if (command === 'start') {
    await start(values);
  } else if (command === 'hash-password') {
    process.exitCode = await hashPassword();
  } else {
    usageError(`unknown command "${command}"`);
  }
}

function usageError(message: string): void {
  process.stderr.write(`tessera: ${message}\n\n${USAGE}`);
  process.exitCode = 2;
}

/**
 * How a failure ends the process: one line, through the redaction step. System errors (a port in use,
 * a missing file) speak for themselves; anything else is a bug: show where. Node's own report of an
 * uncaught error would print every field of it, raw bytes of a connection included.
 */
function exitWith(error: unknown): never {
  const systemError = error instanceof Error && 'code' in error;
  const text = error instanceof Error ? (systemError ? error.message : (error.stack ?? error.message)) : `a thrown ${typeof error}`;
  process.stderr.write(`tessera: ${redactedText(text)}\n`);
  process.exit(1);
}

// An unhandled rejection is an uncaught exception too (Node's default since 15).
process.on('uncaughtException', exitWith);
main(process.argv.slice(2)).catch(exitWith);
