import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

describe('README', function () {
  this.timeout(60_000);

  it('has a table of contents linking every section, each link to a heading that exists', () => {
    const contents = /\n## Contents\n\n([^]*?)\n\n/.exec(README)?.[1];
    expect(contents, 'a "## Contents" section').to.be.a('string');
    const linked = [...contents!.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1]!);
    const sections = [...README.matchAll(/^## (.+)$/gm)].map((match) => anchorOf(match[1]!)).filter((anchor) => anchor !== 'contents');
    expect(linked).to.include.members(sections);
    const headings = new Set([...README.matchAll(/^#{2,4} (.+)$/gm)].map((match) => anchorOf(match[1]!)));
    for (const anchor of linked) expect(headings.has(anchor), `#${anchor}`).to.equal(true);
  });
});
