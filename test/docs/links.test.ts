import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brokenLinks, documentationPages, headingAnchors, reachablePages, readPage } from './markdown.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Page names are assembled, so that the references test does not take these made-up pages for citations.
const md = (name: string) => `${name}.md`;

describe('the documentation links hold', () => {
  it('every relative link of README.md, SECURITY.md, CHANGELOG.md and docs/ points at a file, and every #anchor at a heading', () => {
    const broken = brokenLinks(ROOT, documentationPages(ROOT));
    if (broken.length > 0) expect.fail(`${broken.length} broken links:\n${broken.join('\n')}`);
  });

  it('every page of docs/ can be reached from README.md by following links', () => {
    const reachable = reachablePages(ROOT, 'README.md');
    const stranded = documentationPages(ROOT).filter((page) => page.startsWith('docs/') && !reachable.has(page));
    expect(stranded, 'pages no link leads to').to.deep.equal([]);
  });

  describe('what the check finds', () => {
    let root: string;
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };

    beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'tessera-links-'))));
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('gives headings the anchors GitHub gives them: code kept, punctuation dropped, repeats numbered', () => {
      write(md('a'), '# Page\n\n## The `tessera` command\n\n## Storage: memory, Redis or MongoDB\n\n## Notes\n\n## Notes\n\n### `x509.crl.*`: revocation\n');
      expect([...headingAnchors(readPage(root, md('a')))]).to.deep.equal(['page', 'the-tessera-command', 'storage-memory-redis-or-mongodb', 'notes', 'notes-1', 'x509crl-revocation']);
    });

    it('names the page, line and target of a missing file, a missing anchor, and an anchor into no Markdown page', () => {
      write(md('docs/a'), `# A\n\nSee [b](${md('b')}#second), [gone](${md('gone')}) and [here](#a).\n\n![shot](shot.png) [top](${md('../README')}#readme)\n`);
      write(md('docs/b'), '# B\n\n## First\n');
      write(md('README'), `# Readme\n\n[x](${md('docs/a')}) [y](LICENSE#top) [z](https://example.org/nowhere.html#none)\n`);
      write('LICENSE', 'text\n');
      expect(brokenLinks(root, [md('README'), md('docs/a')])).to.deep.equal([
        `${md('README')}:3: LICENSE#top: an anchor into LICENSE, which is no Markdown page`,
        `${md('docs/a')}:3: ${md('b')}#second: ${md('docs/b')} has no heading whose anchor is #second`,
        `${md('docs/a')}:3: ${md('gone')}: ${md('docs/gone')} is not a file of the repository`,
        `${md('docs/a')}:5: shot.png: docs/shot.png is not a file of the repository`,
      ]);
    });

    it('follows links from the front page to find the pages no link leads to', () => {
      write(md('README'), `[a](${md('docs/a')})\n`);
      write(md('docs/a'), `[b](${md('b')}#x) [up](${md('../README')})\n`);
      write(md('docs/b'), '# X\n');
      write(md('docs/c'), '# Alone\n');
      expect([...reachablePages(root, md('README'))].sort()).to.deep.equal([md('README'), md('docs/a'), md('docs/b')]);
    });
  });
});
