import { moduleCommands } from '../modules/index.js';
import type { Command, CommandOption, OptionName } from './command.js';
import { loadOptions } from './load-options.js';


/** The options of the central commands; a module's command brings its own (ModuleCommand.ownOptions). */
const CENTRAL_OPTIONS = {
  config: { type: 'string', usage: '--config FILE', help: 'the settings file (YAML, or JSON by its .json name); without it, the demo defaults' },
  port: { type: 'string', usage: '--port N', help: 'overrides server.port' },
  help: { type: 'boolean', short: 'h', usage: '--help', help: 'show this help' },
  templates: { type: 'string', usage: '--templates DIR', help: 'the folder of Apereo CAS service templates the files may name (for import, instead of serviceTemplatesDirectory)' },
  strict: { type: 'boolean', usage: '--strict', help: 'refuse a file tessera would only warn about (a short client secret, a host not pinned), as strictServices does' },
  username: { type: 'string', usage: '--username NAME', help: 'the user the command is about (a module’s command over its records of users)' },
} as const satisfies Record<string, CommandOption>;

const SETTINGS = `Settings come from --config FILE, then TESSERA_* environment variables (TESSERA_SERVER__PORT=9000:
"__" between levels), then --port. A bad setting is named with the variable it came from, and exits 2.`;

const CENTRAL_COMMANDS: readonly Command[] = [
  {
    name: 'start',
    options: ['config', 'port'],
    summary: 'serve (the default command)',
    description: `Loads and checks the configuration, then serves until SIGINT or SIGTERM, letting requests in flight finish.
Without --config and without users or services in the environment, the demo user casuser is on.
${SETTINGS}`,
    run: async ({ values, err }) => (await import('./start.js')).start(loadOptions(values), err),
  },
  {
    name: 'config check',
    options: ['config', 'port'],
    summary: 'check a configuration as start would; start nothing',
    description: `Reads the settings, the service definitions and every file they name (token keys, certificates, CA files)
and composes the server as start does, but opens no storage, listens on no port and writes no file.
Prints "configuration OK" and exits 0, or one line per problem and exits 2.
${SETTINGS}`,
    run: async ({ values, out, err }) => (await import('./config-check.js')).checkConfiguration(loadOptions(values), out, err),
  },
  {
    name: 'hash-password',
    options: [],
    summary: 'read a password from stdin, print its argon2id hash',
    description: `Prints the argon2id PHC string for users[].passwordHash. The password is read from stdin (the first line)
or typed at the terminal without echo, never taken from the command line.`,
    run: async () => (await import('./hash-password.js')).hashPassword(),
  },
  {
    name: 'services list',
    options: ['config'],
    summary: 'list the registered services, in evaluation order',
    description: `Lists the services the server would start with: the configuration's services, servicesDirectory, and with
MongoDB storage every service stored there.`,
    run: async ({ values, out, err }) => (await import('./services.js')).listServices(loadOptions(values), out, err),
  },
  {
    name: 'services import',
    operands: { usage: 'DIR', min: 1, max: 1 },
    options: ['config', 'templates'],
    summary: 'check every CAS JSON service file in DIR and import them',
    description: `Checks every *.json file of DIR (Apereo CAS service files, comments allowed); one bad file imports nothing.
The templates a file names (templateName) come from --templates DIR, else serviceTemplatesDirectory; each is saved merged.
With strictServices, a file that would load with a warning is refused. With MongoDB storage the services are saved there, replacing those of the same id. With memory storage
nothing outlives the command: it shows what would load. Exit 1 when a file is invalid.`,
    run: async ({ values, operands, out, err }) => (await import('./services.js')).importServices(operands[0] ?? '', values['templates'], loadOptions(values), out, err),
  },
  {
    name: 'services validate',
    operands: { usage: 'PATH...', min: 1, max: Number.POSITIVE_INFINITY },
    options: ['templates', 'strict'],
    summary: 'check CAS JSON service files and folders; import nothing',
    description: `Checks each file, and every *.json file of each folder, as the server reads them: every problem on its own line,
naming the file, the key and the service. The templates a file names (templateName) come from --templates DIR, whose
files are checked too. What is loaded with a warning (a client secret under 16 characters, a host not pinned) is
refused with --strict, as the server refuses it with strictServices. Reads no configuration and changes nothing.
Exit 0 valid, 1 not.`,
    run: async ({ values, flags, operands, out, err }) => (await import('./services.js')).validateServices(operands, values['templates'], out, err, flags.has('strict')),
  },
  {
    name: 'health',
    options: ['config'],
    summary: "ask this machine's server whether it is live (a container HEALTHCHECK)",
    description: `Asks /health/live at the address, port and scheme the configuration gives the server (the admin listener when
admin.port is set); a wildcard host is asked on loopback. Exit 0 when it answers 200, else 1.
${SETTINGS}`,
    run: async ({ values, out, err }) => (await import('./health.js')).checkHealth(loadOptions(values), out, err),
  },
];

/** Every command: the central ones, and each listed module's where it says it goes. */
export const COMMANDS: readonly Command[] = moduleCommands().reduce<Command[]>((commands, command) => {
  const after = commands.findIndex((listed) => listed.name === command.listedAfter);
  return after === -1 ? [...commands, command] : [...commands.slice(0, after + 1), command, ...commands.slice(after + 1)];
}, [...CENTRAL_COMMANDS]);

/** Every option of every command, the modules' with the central ones; each command names the ones it takes. */
export const OPTIONS: Readonly<Record<string, CommandOption>> = moduleCommands().reduce<Record<string, CommandOption>>((options, command) => {
  for (const [name, option] of Object.entries(command.ownOptions ?? {})) {
    // Two meanings of one option would make one command's --help lie.
    if (name in options) throw new Error(`tessera ${command.name}: option --${name} is declared already`);
    options[name] = option;
  }
  return options;
}, { ...CENTRAL_OPTIONS });

/** `tessera services import DIR [--config FILE]`. */
export function usageLine(command: Command): string {
  const options = command.options.map((name) => (command.required?.includes(name) ? optionOf(name).usage : `[${optionOf(name).usage}]`));
  return ['tessera', command.name, command.operands?.usage, ...options].filter(Boolean).join(' ');
}

/** The usage lines of `commands`, each with its summary. */
export function commandList(commands: readonly Command[]): string {
  const lines = commands.map((command) => [usageLine(command), command.summary] as const);
  const width = Math.max(...lines.map(([usage]) => usage.length));
  return lines.map(([usage, summary]) => `  ${usage.padEnd(width)}   ${summary}\n`).join('');
}

export const USAGE = `Usage:
${commandList(COMMANDS)}  tessera COMMAND --help

${SETTINGS}
See docs/cli.md and docs/configuration.md.
`;

export function optionOf(name: OptionName): CommandOption {
  const option = OPTIONS[name];
  if (option === undefined) throw new Error(`no command declares the option --${name}`);
  return option;
}

/** `tessera COMMAND --help`. */
export function commandHelp(command: Command): string {
  const options = [...command.options, 'help'].map((name) => [optionOf(name).usage, optionOf(name).help] as const);
  const width = Math.max(...options.map(([usage]) => usage.length));
  return `Usage: ${usageLine(command)}

${command.description}

Options:
${options.map(([usage, help]) => `  ${usage.padEnd(width)}   ${help}\n`).join('')}`;
}

export type Invocation =
  | { readonly kind: 'command'; readonly command: Command; readonly operands: readonly string[] }
  /** The first words of several commands (`services`), without one of them. */
  | { readonly kind: 'group'; readonly commands: readonly Command[] }
  | { readonly kind: 'unknown'; readonly words: string };

/** The command the positional arguments call (the longest name that starts them), and its operands. */
export function invocationOf(positionals: readonly string[]): Invocation {
  if (positionals.length === 0) return { kind: 'command', command: COMMANDS[0]!, operands: [] };
  let best: { command: Command; length: number } | undefined;
  for (const command of COMMANDS) {
    for (const name of [command.name, ...(command.aliases ?? [])]) {
      const words = name.split(' ');
      if (words.every((word, index) => positionals[index] === word) && words.length > (best?.length ?? 0)) best = { command, length: words.length };
    }
  }
  if (best) return { kind: 'command', command: best.command, operands: positionals.slice(best.length) };
  const group = COMMANDS.filter((command) => command.name.startsWith(`${positionals[0]} `));
  return group.length > 0 ? { kind: 'group', commands: group } : { kind: 'unknown', words: positionals.join(' ') };
}
