import { readFileSync, writeFileSync } from 'node:fs';
import { configurationError } from './errors.js';

export interface KeyFile<Keys> {
  readonly file: string;
  /** The setting naming the file, in every error. */
  readonly setting: string;
  /** The parsed JSON as keys, or a problem saying what is wrong with it. */
  read(json: unknown): Keys | { readonly problem: string };
  generate(): Keys;
}

/**
 * Keys kept in a JSON file: read if it exists, else generated and written (owner-only, never
 * overwritten) so restarts and every node sharing the file keep reading what was sealed with them.
 * A file that cannot be read, parsed or used stops the start, naming the setting.
 */
export function readOrCreateKeyFile<Keys>(keys: KeyFile<Keys>): Keys {
  return readKeyFile(keys) ?? createKeyFile(keys);
}

function readKeyFile<Keys>(keys: KeyFile<Keys>): Keys | undefined {
  let text: string;
  try {
    text = readFileSync(keys.file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw keyFileError(keys, `cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const read = keys.read(parsed);
  if (isProblem(read)) throw keyFileError(keys, read.problem);
  return read;
}

function createKeyFile<Keys>(keys: KeyFile<Keys>): Keys {
  const generated = keys.generate();
  try {
    // `wx`: a node starting at the same moment may have written it first; then its keys win.
    writeFileSync(keys.file, `${JSON.stringify(generated, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
    return generated;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const written = code === 'EEXIST' ? readKeyFile(keys) : undefined;
    if (written) return written;
    throw keyFileError(keys, `cannot write it (${code ?? String(error)})`);
  }
}

function isProblem<Keys>(read: Keys | { readonly problem: string }): read is { readonly problem: string } {
  return typeof read === 'object' && read !== null && 'problem' in read;
}

function keyFileError(keys: KeyFile<unknown>, problem: string) {
  return configurationError([{ setting: keys.setting, problem: `${keys.file} ${problem}` }]);
}
