#!/usr/bin/env node
import { parseArgs } from 'node:util';
import type { Command, CommandInput, OptionName, OptionValues } from './cli/command.js';
import { loadOptions } from './cli/load-options.js';
import { commandHelp, commandList, invocationOf, optionOf, OPTIONS, USAGE, usageLine } from './cli/commands.js';
import { redactedText } from './redaction.js';

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    return usageError((error as Error).message, USAGE);
  }
  const { values, positionals } = parsed;
  const { help, ...given } = values;
  if (help && positionals.length === 0) return void process.stdout.write(USAGE);
  const invocation = invocationOf(positionals);
  if (invocation.kind === 'unknown') return usageError(`unknown command "${invocation.words}"`, USAGE);
  if (invocation.kind === 'group') {
    const usage = `Usage:\n${commandList(invocation.commands)}`;
    if (help) return void process.stdout.write(usage);
    return usageError(`expected one of`, usage);
  }
  const { command, operands } = invocation;
  if (help) return void process.stdout.write(commandHelp(command));
  const problem = usageProblem(command, Object.keys(given), operands);
  if (problem) return usageError(problem, `Usage: ${usageLine(command)}\n(tessera ${command.name} --help for more)\n`);
  // Options with a value (central ones, and modules' by their type), and flags (`--strict`).
  const entries: [string, unknown][] = Object.entries(given);
  const withValues: OptionValues = Object.fromEntries(entries.filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const flags = new Set(entries.filter(([, value]) => value === true).map(([name]) => name));
  const withStores: CommandInput['withStores'] = async (work) => (await import('./cli/command-stores.js')).withCommandStores(loadOptions(withValues), process.stderr, work);
  const code = await command.run({ values: withValues, flags, operands, out: process.stdout, err: process.stderr, withStores });
  if (code !== undefined) process.exitCode = code;
}

function usageProblem(command: Command, options: readonly OptionName[], operands: readonly string[]): string | undefined {
  const foreign = options.find((name) => !command.options.includes(name));
  if (foreign) return `${optionOf(foreign).usage.split(' ')[0]} is not an option of tessera ${command.name}`;
  const { min = 0, max = 0 } = command.operands ?? {};
  if (operands.length < min) return `tessera ${command.name} needs ${command.operands?.usage}`;
  if (operands.length > max) return `unexpected argument "${operands.slice(max).join(' ')}"`;
  return undefined;
}

function usageError(message: string, usage: string): void {
  process.stderr.write(`tessera: ${message}\n\n${usage}`);
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
