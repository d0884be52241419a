import type { Page } from './markdown.js';

/**
 * What an example of the docs is, and so how the docs tests check it. A fenced block says it with a
 * comment on the line before it, `<!-- example: KIND -->` or `<!-- example: KIND: NOTE -->`. Every
 * shell or configuration block is either run against a real server by `pnpm test` or says why not:
 * a `sh`, `yaml` or `json` block without a marker fails, and so does a kind below that needs a note
 * and has none. Only a Mermaid block (`mermaid`: diagram) needs no marker.
 *
 * Run by `pnpm test`:
 * - `run: SESSION`: commands run for real, in order with the other blocks of SESSION, against the
 *   server `test/docs/sessions.test.ts` starts for that session (and parsed as `not run` ones are).
 * - `complete config`: a whole tessera configuration (YAML); the server is started on it as written.
 *   `complete config: SESSION`: the same, started by that session instead (with what it needs beside
 *   it, such as a Redis), and left alone by the start-as-copied check.
 *
 * Checked, not run (the note, WHY, says why no test runs it, or which one runs it elsewhere):
 * - `not run: WHY`: commands or another program's configuration no test here can run; a `sh` one
 *   must still parse (bash -n), and every `tessera` command and option it uses must exist.
 * - `settings: WHY`: part of a configuration (YAML); it must pass the configuration schema.
 * - `service: WHY`: one Apereo CAS service definition (JSON); it must pass the service codec.
 * - `service fragment: WHY`: keys of a service definition (JSON without its braces); with a name and a
 *   serviceId around them they must pass the codec.
 * - `yaml: WHY`, `json: WHY`: another program's file (Kubernetes, Prometheus, a JSON answer); it
 *   must parse.
 *
 * Nothing to run:
 * - `output`: what a command prints. Right after a `run` block it is compared with what that block
 *   printed (times and ticket ids aside); elsewhere it is an illustration.
 * - `diagram`: a Mermaid picture.
 * - `text`: prose set in a block, such as a file tree or a drawing.
 */
export type ExampleKind = 'complete config' | 'settings' | 'service' | 'service fragment' | 'run' | 'output' | 'yaml' | 'json' | 'diagram' | 'text' | 'not run';

const KINDS: readonly ExampleKind[] = ['complete config', 'settings', 'service', 'service fragment', 'run', 'output', 'yaml', 'json', 'diagram', 'text', 'not run'];
/** The kinds whose note is required: the session of a `run` block, or why no test runs the others. */
const NOTE_REQUIRED: readonly ExampleKind[] = ['run', 'not run', 'settings', 'service', 'service fragment', 'yaml', 'json'];
const BY_LANGUAGE: Readonly<Record<string, ExampleKind>> = { mermaid: 'diagram' };
/** What an unmarked block of a language that is usually run should say instead. */
const CHOICES: Readonly<Record<string, string>> = {
  sh: '<!-- example: run: SESSION --> (run by test/docs/sessions.test.ts) or <!-- example: not run: WHY -->',
  yaml: '<!-- example: complete config --> (started as written), <!-- example: settings: WHY --> or, for another program\'s file, <!-- example: yaml: WHY -->',
  json: '<!-- example: service: WHY -->, <!-- example: service fragment: WHY --> or, for another program\'s file, <!-- example: json: WHY -->',
};
const MARKER = /^<!-- example: ([a-z ]+?)(?:: (.+?))? -->\s*$/;

export interface Example {
  readonly page: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly language: string;
  readonly kind: ExampleKind;
  /** The session of a `run` block (or of a `complete config` a session starts), the reason of a block no test runs. */
  readonly note: string | undefined;
  readonly code: string;
}

/** Every fenced block of the page with its kind, or a problem for a block whose kind cannot be told. */
export function examplesOf(page: Page): { examples: Example[]; problems: string[] } {
  const examples: Example[] = [];
  const problems: string[] = [];
  page.tokens.forEach((token, index) => {
    if (token.type !== 'fence') return;
    const line = (token.map?.[0] ?? 0) + 1;
    const language = token.info.trim().split(/\s+/)[0] ?? '';
    const before = page.tokens[index - 1];
    const marker = before?.type === 'html_block' ? MARKER.exec(before.content.trim()) : null;
    if (before?.type === 'html_block' && before.content.includes('example:') && !marker) {
      problems.push(`${page.path}:${line}: the marker before this block is not <!-- example: KIND --> or <!-- example: KIND: NOTE -->`);
      return;
    }
    const kind = marker ? (marker[1] as ExampleKind) : BY_LANGUAGE[language];
    if (kind === undefined) {
      const choices = CHOICES[language];
      problems.push(
        choices
          ? `${page.path}:${line}: a \`${language}\` block is run by a test or says why not: mark it ${choices}`
          : `${page.path}:${line}: a \`${language || 'plain'}\` block needs a marker saying what it is (<!-- example: output -->, <!-- example: not run: WHY -->, …)`,
      );
      return;
    }
    if (!KINDS.includes(kind)) {
      problems.push(`${page.path}:${line}: unknown example kind "${kind}" (known: ${KINDS.join(', ')})`);
      return;
    }
    const note = marker?.[2];
    if (NOTE_REQUIRED.includes(kind) && !note) {
      problems.push(`${page.path}:${line}: "${kind}" needs a note: ${kind === 'run' ? 'the session it runs in' : 'why no test runs it'} (<!-- example: ${kind}: ${kind === 'run' ? 'SESSION' : 'WHY'} -->)`);
      return;
    }
    examples.push({ page: page.path, line, language, kind, note, code: token.content });
  });
  return { examples, problems };
}

/** A `tessera` command line found in a shell example: its words after `tessera`, and where. */
export interface Invocation {
  readonly example: Example;
  readonly words: readonly string[];
}

/**
 * How the docs call the tessera command: the checkout's `pnpm -s tessera` and `pnpm start`, the
 * built `dist/main.js`, and the image, whose entry point is tessera (`docker run … tessera ARGS`).
 */
const INVOCATION = /(?:pnpm@[\d.]+ -s tessera|pnpm@[\d.]+ start|cli-server\/dist\/main\.js|docker (?:compose [^|;&]*?)?run [^|;&]*?\stessera)(?=\s|$)((?:\s+[^\s|;&>)#]+)*)/g;

export function tesseraInvocations(example: Example): Invocation[] {
  const invocations: Invocation[] = [];
  const code = example.code.replace(/\\\n/g, ' ');
  for (const line of code.split('\n')) {
    const command = line.replace(/(^|\s)#.*$/, '');
    for (const match of command.matchAll(INVOCATION)) {
      invocations.push({ example, words: match[1]!.trim().split(/\s+/).filter(Boolean) });
    }
  }
  return invocations;
}

/** A command of `tessera --help`: its name words and the options its usage line shows. */
export interface Usage {
  readonly name: readonly string[];
  readonly options: readonly string[];
}

/** The commands and options of `tessera --help`'s usage lines (`  tessera services import DIR [--config FILE]`). */
export function usagesOf(help: string): Usage[] {
  return [...help.matchAll(/^ {2}tessera ([a-z][a-z0-9 -]*?)(?= [A-Z[-]| {2}|$)(.*)$/gm)].map((match) => ({
    name: match[1]!.trim().split(' '),
    options: [...match[2]!.matchAll(/--[a-z-]+/g)].map((option) => option[0]),
  }));
}

/** What is wrong with one invocation: an unknown command, or an option its command does not take. */
export function invocationProblems(invocation: Invocation, usages: readonly Usage[]): string[] {
  const { words, example } = invocation;
  const where = `${example.page}:${example.line}: tessera ${words.join(' ')}`;
  // Without a command word, the default command (start) runs: `tessera --config FILE`.
  const named = usages
    .filter((usage) => usage.name.every((word, index) => words[index] === word))
    .sort((a, b) => b.name.length - a.name.length)[0];
  const usage = named ?? (words.length === 0 || words[0]!.startsWith('-') ? usages.find((candidate) => candidate.name.join(' ') === 'start') : undefined);
  if (!usage) return [`${where}: no such command`];
  return words
    .filter((word) => word.startsWith('--') && word !== '--help')
    .map((word) => word.replace(/=.*$/, ''))
    .filter((option) => !usage.options.includes(option))
    .map((option) => `${where}: tessera ${usage.name.join(' ')} has no option ${option}`);
}

/** Times and ticket ids differ from run to run: an example's output shows them as they might be. */
export function withoutRunDetails(text: string): string {
  return text
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<time>')
    .replace(/\b(?:TGT|ST|PT|PGT|PGTIOU)-[\w.…-]+/g, (ticket) => `<${ticket.slice(0, ticket.indexOf('-'))}>`)
    .trim();
}
