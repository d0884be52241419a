import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { danglingReferences, describeReferences, repositoryFiles } from './references.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// The examples below are assembled, so that this file holds none of the references it tests.
const md = (name: string) => `${name}.md`;
const cite = (name: string, sections: string) => `${md(name)} §${sections}`;
const issue = (word: string, number: string) => [word, number].join(' ');

describe('the repository explains itself: no reference points outside it', () => {
  it('every cited document and section exists, and no code, test or document cites an issue number', () => {
    const dangling = danglingReferences(ROOT);
    if (dangling.length > 0) {
      expect.fail(`${dangling.length} dangling references; cite a section of a document in the repository (docs/protocol.md, docs/architecture.md) or say it in words:\n${describeReferences(dangling)}`);
    }
  });

  describe('what the check finds', () => {
    let root: string;
    const write = (path: string, text: string | Buffer) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    const problems = () => danglingReferences(root).map((reference) => describeReferences([reference]));

    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'tessera-references-'));
      write(md('docs/guide'), '# Guide\n\n## 1. Tickets\n\n### 1.2 Lifetimes\n\n## 3. Endpoints\n\n```sh\n# 4. not a heading\n```\n');
      write(md('README'), '# Readme\n');
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('accepts sections that exist, from the root or the citing folder, ranges and lists included', () => {
      write('src/a.ts', `// ${cite('docs/guide', '1.2')}; ${cite('docs/guide', '1')} and §3\n// see ../${md('README')}\n`);
      write(md('docs/other'), `See ${cite('guide', '1–3')}, §1.2 and ${md('README')} (https://example.org/${md('elsewhere')}).\n`);
      write('src/b.ts', `/** RFC 5280 §4.2.1.3, CAS protocol §2.5.3 */\nconst hash = 'sha256'; // issued 2 tickets\n`);
      expect(problems()).to.deep.equal([]);
    });

    it('names the file and line of a document that is not there, and of a missing section', () => {
      write('src/a.ts', `const x = 1;\n// ${cite('protocol', '3')}\n`);
      write('test/b.test.ts', `describe('${cite('docs/guide', '4')} and §1.9', () => {});\n`);
      write(md('docs/c'), `Measured in ${md('client-compatibility')}.\n`);
      expect(problems()).to.deep.equal([
        `${md('docs/c')}:1: names ${md('client-compatibility')}, which is not a file of the repository`,
        `src/a.ts:2: names ${cite('protocol', '3')}, which is not a file of the repository`,
        `test/b.test.ts:1: cites ${cite('docs/guide', '4')}, but ${md('docs/guide')} has no heading numbered 4`,
        `test/b.test.ts:1: cites ${cite('docs/guide', '1.9')}, but ${md('docs/guide')} has no heading numbered 1.9`,
      ]);
    });

    it('finds issue numbers in every spelling: comments, titles and documents', () => {
      write('src/a.ts', `// ${issue('issue', '9')} §1 — health\n`);
      write('test/b.test.ts', `describe('audit trail (${issue('issue', '#18')} §2)', () => {});\n`);
      write(md('docs/d'), `The targets of ${issue('Issues', '7')} and ${issue('issue', '12')}.\n`);
      const says = (found: string) => `cites an issue number ("${found}"); say what it means instead`;
      expect(problems()).to.deep.equal([
        `${md('docs/d')}:1: ${says(issue('Issues', '7'))}`,
        `${md('docs/d')}:1: ${says(issue('issue', '12'))}`,
        `src/a.ts:1: ${says(issue('issue', '9'))}`,
        `test/b.test.ts:1: ${says(issue('issue', '#18'))}`,
      ]);
    });

    it('reads no dependency, build output or binary file', () => {
      write(md('node_modules/x/README'), cite('gone', '1'));
      write('packages/a/dist/a.js', `// ${issue('issue', '3')}`);
      write('logo.png', Buffer.concat([Buffer.from([0x89, 0x50, 0x00]), Buffer.from(`${issue('issue', '1')} ${cite('gone', '1')}`)]));
      expect(repositoryFiles(root)).to.deep.equal([md('README'), md('docs/guide'), 'logo.png']);
      expect(problems()).to.deep.equal([]);
    });
  });
});
