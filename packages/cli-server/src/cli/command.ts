// A leaf: a module's commands (modules/<name>/commands.ts) are typed here, and the module list they
// are declared in is read by cli/commands.ts: nothing here leads back to it.

import type { Clock, RandomSource, RecordStores } from '@tessera/core';

/** Where a command writes: stdout and stderr, or a test's buffers. */
export interface Output {
  write(text: string): unknown;
}

/** An option of the command line, as `parseArgs` takes it, with its usage and help. */
export interface CommandOption {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly usage: string;
  readonly help: string;
}

/** An option's name, `--help` aside (every command takes that). */
export type OptionName = string;
export type OptionValues = Readonly<Record<OptionName, string | undefined>>;

export interface CommandInput {
  readonly values: OptionValues;
  /** The boolean options given (`--strict`), `--help` aside. */
  readonly flags: ReadonlySet<OptionName>;
  readonly operands: readonly string[];
  readonly out: Output;
  readonly err: Output;
  /**
   * Runs `work` on the storage the configuration names (`--config`, the `TESSERA_*` variables), opened
   * as the server opens it and closed after: a module's command over its own records (the webauthn
   * module's devices). A bad configuration is exit 2, each problem on `err`.
   */
  readonly withStores: (work: (stores: CommandStores) => Promise<number>) => Promise<number | undefined>;
}

/** The configured storage as a command works on it. */
export interface CommandStores {
  readonly records: RecordStores;
  readonly random: RandomSource;
  readonly clock: Clock;
  /** False for memory storage: the command sees nothing a server keeps, and nothing it writes outlives it. */
  readonly durable: boolean;
}

export interface Command {
  /** The words that call it: `services import`. */
  readonly name: string;
  /** Earlier spellings still understood, not shown. */
  readonly aliases?: readonly string[];
  /** The operands as the usage shows them, and how many it takes. */
  readonly operands?: { readonly usage: string; readonly min: number; readonly max: number };
  readonly options: readonly OptionName[];
  /** Options among `options` that must be given. */
  readonly required?: readonly OptionName[];
  readonly summary: string;
  readonly description: string;
  /** The exit code; undefined while the command goes on (a server). Each loads what it runs only when it runs. */
  run(input: CommandInput): Promise<number | undefined>;
}

/**
 * A command a module adds (docs/adding-a-module.md): it works whether or not the module is on, as
 * it reads no configuration of it. It declares the options no central command has.
 */
export interface ModuleCommand extends Command {
  /** Each takes a value: `--help` is the one flag. */
  readonly ownOptions?: Readonly<Record<string, CommandOption & { readonly type: 'string' }>>;
  /** The command it follows in `tessera --help`; without it, it comes after the central ones. */
  readonly listedAfter?: string;
}

