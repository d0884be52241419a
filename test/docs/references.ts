import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/** One citation the repository cannot back: where it is, and what is wrong with it. */
export interface DanglingReference {
  /** Relative to the repository root, with `/` separators. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly problem: string;
}

/** Build output, dependencies and machine state: nothing anyone wrote by hand. */
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules', 'dist', 'dist-test', 'coverage', '.tessera']);
/** The changelog records history, issue numbers included; the lockfile and the key file are generated. */
const SKIPPED_FILE = /^(?:CHANGELOG\.md|pnpm-lock\.yaml|tessera-token-keys\.json|.*\.tsbuildinfo)$/;

/** A Markdown file name or path as text names it: `README.md`, `docs/protocol.md`, a relative path. */
const DOCUMENT = /(?<![\w./-])([\w./-]*[\w-]\.md)(?![\w-])/g;
/** `§3`, `§3.2`, `§1–2`: one section or a range of them. */
const SECTION = String.raw`§\s*(\d+(?:\.\d+)*)(?:\s*[–-]\s*(\d+(?:\.\d+)*))?`;
const FIRST_SECTION = new RegExp(String.raw`^\s*` + SECTION);
/** `, §7`, ` and §7`, ` (a remark) and §7`: more sections of the same document. */
const FURTHER_SECTION = new RegExp(String.raw`^(?:\s*\([^)]*\))?\s*(?:,|;|and|&)\s*` + SECTION);
/** `issue` or `issues` and a number, `#` or not, any case: an issue tracker's number, which the repository cannot hold. */
const ISSUE_NUMBER = /\bissues?\s*#\s*\d+|\bissues?\s+\d+\b/gi;
/** URLs point outside on purpose (a library's documentation); their paths are not the repository's. */
const LINK = /\b[a-z][a-z0-9+.-]*:\/\/[^\s)\]>'"`]+/gi;
/** `## 3. Endpoints`, `### 3.2 POST /v1/tickets`: a numbered Markdown heading. */
const NUMBERED_HEADING = /^#{1,6}\s+(\d+(?:\.\d+)*)\.?(?:\s|$)/;

/** Every file of the repository a person wrote, relative to `root`, with `/` separators. */
export function repositoryFiles(root: string): string[] {
  const files: string[] = [];
  const visit = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) visit(path);
      } else if (entry.isFile() && !SKIPPED_FILE.test(entry.name)) {
        files.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  visit(root);
  return files.sort();
}

/**
 * Every reference under `root` that points nowhere: a Markdown file that is not in the repository,
 * a section (`<file>.md §N` or `§N.M`) that file has no numbered heading for, or an issue number.
 * A document is looked up from the repository root, then from the citing file's folder.
 */
export function danglingReferences(root: string): DanglingReference[] {
  const headings = new Map<string, ReadonlySet<string>>();
  const sectionsOf = (document: string) => {
    let sections = headings.get(document);
    if (!sections) {
      sections = numberedHeadings(readFileSync(join(root, document), 'utf8'));
      headings.set(document, sections);
    }
    return sections;
  };
  const found: DanglingReference[] = [];
  for (const file of repositoryFiles(root)) {
    const text = readText(join(root, file));
    if (text === undefined) continue;
    text.split('\n').forEach((content, index) => {
      const report = (problem: string) => found.push({ file, line: index + 1, problem });
      const line = content.replace(LINK, (url) => ' '.repeat(url.length));
      for (const match of line.matchAll(ISSUE_NUMBER)) report(`cites an issue number ("${match[0]}"); say what it means instead`);
      for (const match of line.matchAll(DOCUMENT)) {
        const named = match[1]!;
        const document = resolveDocument(root, file, named);
        const sections = citedSections(line.slice(match.index + match[0].length));
        if (document === undefined) {
          const cited = sections.length > 0 ? ` §${sections.join(', §')}` : '';
          report(`names ${named}${cited}, which is not a file of the repository`);
          continue;
        }
        for (const section of sections) {
          if (!sectionsOf(document).has(section)) report(`cites ${named} §${section}, but ${document} has no heading numbered ${section}`);
        }
      }
    });
  }
  return found;
}

/** One line per reference, `file:line: problem`, for a failure message. */
export function describeReferences(references: readonly DanglingReference[]): string {
  return references.map(({ file, line, problem }) => `${file}:${line}: ${problem}`).join('\n');
}

/** The sections cited right after a document name: `§2–3, §7` → 2, 3, 7. */
function citedSections(after: string): string[] {
  const sections: string[] = [];
  let rest = after;
  let match = FIRST_SECTION.exec(rest);
  while (match) {
    const [whole, first, last] = match;
    sections.push(first!, ...(last === undefined ? [] : [last]));
    rest = rest.slice(whole.length);
    match = FURTHER_SECTION.exec(rest);
  }
  return sections;
}

function resolveDocument(root: string, citingFile: string, named: string): string | undefined {
  for (const base of ['.', dirname(citingFile)]) {
    const candidate = normalize(join(base, named));
    if (candidate.startsWith('..') || candidate.startsWith(sep)) continue;
    const path = join(root, candidate);
    if (existsSync(path) && statSync(path).isFile()) return candidate.split(sep).join('/');
  }
  return undefined;
}

/** The numbers of a Markdown document's numbered headings, outside fenced code blocks. */
function numberedHeadings(markdown: string): Set<string> {
  const numbers = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const number = fenced ? undefined : NUMBERED_HEADING.exec(line)?.[1];
    if (number !== undefined) numbers.add(number);
  }
  return numbers;
}

/** The file's text, or undefined for a binary file. */
function readText(path: string): string | undefined {
  const bytes = readFileSync(path);
  return bytes.includes(0) ? undefined : bytes.toString('utf8');
}
