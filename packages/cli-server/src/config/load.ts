import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { withDemo } from './demo.js';
import type { InvalidConfigurationError } from '@tessera/core';
import { configurationError, problemsOf, problemsOfError, settingName } from './errors.js';
import { configSchema, type Config } from './schema.js';

const ENV_PREFIX = 'TESSERA_';

export interface LoadOptions {
  /** A YAML or JSON file (`--config`). */
  readonly file?: string;
  /** Source of `TESSERA_*` overrides; the process environment in the CLI. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** `--port`, which overrides `server.port`. */
  readonly port?: string;
}

/**
 * The configuration from a file, then `TESSERA_*` environment overrides, then `--port`. Without a
 * file and without users or services from the environment, the demo is switched on.
 * Throws ConfigurationError naming every bad setting.
 */
export function loadConfig(options: LoadOptions = {}): Config {
  const fromFile = options.file === undefined ? {} : readConfigFile(options.file);
  const raw = mergeSettings(fromFile, environmentOverrides(options.env ?? {}));
  if (options.port !== undefined) {
    raw['server'] = mergeSettings(raw['server'], { port: /^\d+$/.test(options.port) ? Number(options.port) : options.port });
  }
  if (options.file === undefined && raw['users'] === undefined && raw['services'] === undefined) raw['demo'] ??= true;
  return parseConfig(raw);
}

/** Validates settings (as read from a file) and fills in every default. Throws ConfigurationError. */
export function parseConfig(raw: unknown): Config {
  const result = configSchema.safeParse(raw ?? {}, { reportInput: true });
  if (!result.success) throw configurationError(problemsOf(result.error));
  return result.data.demo ? withDemo(result.data, (setting) => isGiven(raw, setting.split('.'))) : result.data;
}

/** Whether the raw settings hold a value at `path`. */
function isGiven(raw: unknown, path: readonly string[]): boolean {
  const [key, ...rest] = path;
  if (key === undefined) return raw !== undefined;
  return isPlainObject(raw) && Object.hasOwn(raw, key) && isGiven(raw[key], rest);
}

function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw configurationError([{ setting: '--config', problem: `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})` }]);
  }
  let content: unknown;
  try {
    content = extname(file).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw configurationError([{ setting: '--config', problem: `${file} is not valid ${extname(file) === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message}` }]);
  }
  if (content === null || content === undefined) return {};
  if (!isPlainObject(content)) throw configurationError([{ setting: '--config', problem: `${file} must hold a map of settings` }]);
  return content;
}

/**
 * `TESSERA_SERVER__TRUST_PROXY=true` → `{ server: { trustProxy: true } }`: `__` between levels,
 * UPPER_SNAKE names in camelCase, values read as JSON when they parse and as strings otherwise.
 */
export function environmentOverrides(env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  let overrides: Record<string, unknown> = {};
  for (const { path, value } of environmentSettings(env)) {
    overrides = mergeSettings(overrides, path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value));
  }
  return overrides;
}

function environmentSettings(env: Readonly<Record<string, string | undefined>>): { variable: string; path: string[]; value: unknown }[] {
  return Object.entries(env)
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([variable, text]) => {
      if (!variable.startsWith(ENV_PREFIX) || text === undefined) return [];
      const path = variable.slice(ENV_PREFIX.length).split('__').filter(Boolean).map(camelCase);
      return path.length === 0 ? [] : [{ variable, path, value: jsonOrString(text) }];
    });
}

/**
 * The configuration error's lines, `<setting>: <problem>`, each setting followed by where its value
 * came from when that was not the file: `server.port (TESSERA_SERVER__PORT): …`, `server.port (--port): …`.
 */
export function describeProblems(error: InvalidConfigurationError, options: LoadOptions): string[] {
  const origins = settingOrigins(options);
  return problemsOfError(error).map(({ setting, problem }) => {
    // The value of the setting, or of one holding it, came from there; else (an unknown key) values inside it did.
    const whole = origins.filter(({ name }) => within(setting, name)).at(-1);
    const sources = whole ? [whole.source] : [...new Set(origins.filter(({ name }) => within(name, setting)).map(({ source }) => source))];
    return `${setting}${sources.length > 0 ? ` (${sources.join(', ')})` : ''}: ${problem}`;
  });
}

/** `users[1].passwordHash` is within `users` and itself. */
function within(setting: string, outer: string): boolean {
  return setting === outer || setting.startsWith(`${outer}.`) || setting.startsWith(`${outer}[`);
}

/** Each setting a variable (or `--port`) gave a value to, later ones winning as they do when merged. Maps are followed to their leaves: a variable holding a map sets only the keys it has. */
function settingOrigins(options: LoadOptions): { name: string; source: string }[] {
  const origins: { name: string; source: string }[] = [];
  const visit = (path: readonly string[], value: unknown, source: string) => {
    if (isPlainObject(value) && Object.keys(value).length > 0) {
      for (const [key, inner] of Object.entries(value)) visit([...path, key], inner, source);
    } else {
      origins.push({ name: settingName(path), source });
    }
  };
  for (const { variable, path, value } of environmentSettings(options.env ?? {})) visit(path, value, variable);
  if (options.port !== undefined) origins.push({ name: 'server.port', source: '--port' });
  return origins.sort((a, b) => a.name.length - b.name.length);
}

function camelCase(upperSnake: string): string {
  return upperSnake.toLowerCase().replace(/_+([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function jsonOrString(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Maps merge key by key, the override winning; anything else (lists included) is replaced whole. */
function mergeSettings(base: unknown, override: unknown): Record<string, unknown> {
  const merged: Record<string, unknown> = isPlainObject(base) ? { ...base } : {};
  if (!isPlainObject(override)) return merged;
  for (const [key, value] of Object.entries(override)) {
    if (key === '__proto__') continue;
    merged[key] = isPlainObject(value) && isPlainObject(merged[key]) ? mergeSettings(merged[key], value) : value;
  }
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
