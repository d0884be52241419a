import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import GithubSlugger from 'github-slugger';
import MarkdownIt, { type Token } from 'markdown-it';

/** The documents a reader follows links through: the front page, the security and change pages, and docs/. */
export function documentationPages(root: string): string[] {
  const inDocs = (folder: string): string[] =>
    readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) return inDocs(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', 'SECURITY.md', 'CHANGELOG.md', ...inDocs('docs').sort()];
}

// HTML on: the examples' marker comments are HTML blocks.
const parser = new MarkdownIt({ html: true });

/** A parsed page: its path relative to the repository root, its text and markdown-it's tokens. */
export interface Page {
  readonly path: string;
  readonly text: string;
  readonly tokens: readonly Token[];
}

export function readPage(root: string, path: string): Page {
  return parsePage(path, readFileSync(join(root, path), 'utf8'));
}

export function parsePage(path: string, text: string): Page {
  return { path, text, tokens: parser.parse(text, {}) };
}

/** The anchors GitHub gives the page's headings (github-slugger: lower case, punctuation dropped, repeats numbered). */
export function headingAnchors(page: Page): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  page.tokens.forEach((token, index) => {
    if (token.type === 'heading_open') anchors.add(slugger.slug(plainText(page.tokens[index + 1]!)));
  });
  return anchors;
}

/** The headings of a page, in order, with their level and text as a reader sees it. */
export function headings(page: Page): { level: number; text: string }[] {
  return page.tokens.flatMap((token, index) => (token.type === 'heading_open' ? [{ level: Number(token.tag.slice(1)), text: plainText(page.tokens[index + 1]!) }] : []));
}

/** The text of an inline token as rendered: code spans keep their content, emphasis and link marks go. */
function plainText(inline: Token): string {
  return (inline.children ?? [])
    .map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : child.type === 'image' ? plainText(child) : ''))
    .join('');
}

/** One link or image of a page: where it points, as written, and its 1-based line. */
export interface Link {
  readonly target: string;
  readonly line: number;
}

export function links(page: Page): Link[] {
  const found: Link[] = [];
  for (const block of page.tokens) {
    if (!block.children) continue;
    for (const child of block.children) {
      const target = child.type === 'link_open' ? child.attrGet('href') : child.type === 'image' ? child.attrGet('src') : null;
      if (target !== null) found.push({ target: String(target), line: (block.map?.[0] ?? 0) + 1 });
    }
  }
  return found;
}

/** A link leaving the repository (a scheme such as https: or mailto:) is not checked here. */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/** Where a relative link points: the file (relative to the root, `/`-separated; the page itself for `#…`) and the anchor. */
export function resolveLink(page: Page, target: string): { file: string; anchor: string | undefined } {
  const hash = target.indexOf('#');
  const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const file = path === '' ? page.path : normalize(join(dirname(page.path), path)).split(sep).join('/');
  return { file, anchor };
}

/**
 * Every broken relative link of `paths`: a file or folder that is not there, or an anchor its
 * Markdown target has no heading for. One line each, `page:line: problem`.
 */
export function brokenLinks(root: string, paths: readonly string[]): string[] {
  const pages = new Map<string, Page>();
  const pageAt = (path: string) => {
    let page = pages.get(path);
    if (!page) pages.set(path, (page = readPage(root, path)));
    return page;
  };
  const problems: string[] = [];
  for (const path of paths) {
    const page = pageAt(path);
    for (const { target, line } of links(page)) {
      if (isExternal(target)) continue;
      const { file, anchor } = resolveLink(page, target);
      const where = `${path}:${line}: ${target}`;
      if (file.startsWith('..') || !existsSync(join(root, file))) {
        problems.push(`${where}: ${file} is not a file of the repository`);
      } else if (anchor !== undefined) {
        if (!file.endsWith('.md') || statSync(join(root, file)).isDirectory()) problems.push(`${where}: an anchor into ${file}, which is no Markdown page`);
        else if (!headingAnchors(pageAt(file)).has(anchor)) problems.push(`${where}: ${file} has no heading whose anchor is #${anchor}`);
      }
    }
  }
  return problems;
}

/** The Markdown pages reachable from `start` by relative links, `start` included. */
export function reachablePages(root: string, start: string): Set<string> {
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    const page = readPage(root, queue.shift()!);
    for (const { target } of links(page)) {
      if (isExternal(target)) continue;
      const { file } = resolveLink(page, target);
      if (file.endsWith('.md') && !seen.has(file) && existsSync(join(root, file))) {
        seen.add(file);
        queue.push(file);
      }
    }
  }
  return seen;
}
