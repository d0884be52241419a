import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REFERENCE_END, REFERENCE_START, renderConfigReference, withConfigReference } from '@tessera/cli-server';

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));

// the README's configuration reference is generated from the schema
describe('README configuration reference', () => {
  it('is in step with the configuration schema (regenerate: node scripts/config-reference.mjs)', () => {
    const readme = readFileSync(README, 'utf8');
    const start = readme.indexOf(REFERENCE_START);
    const end = readme.indexOf(REFERENCE_END);
    expect(start, 'README.md lacks the reference markers').to.be.at.least(0);
    expect(readme.slice(start + REFERENCE_START.length, end).trim()).to.equal(renderConfigReference());
  });

  it('lists every setting with its type, default and description', () => {
    const reference = renderConfigReference();
    expect(reference).to.include('| `server.port` | integer 0–65535 | `8080` |');
    expect(reference).to.include('| `protocol.validationFailureStatus` | `200` or `400` | `400` |');
    expect(reference).to.include('| `users[].passwordHash` | string | — |');
    for (const setting of ['modules', 'server.trustProxy', 'rest.revision', 'tickets.st.timeToLiveSeconds', 'servicesDirectory', 'logging.level']) {
      expect(reference).to.include(`| \`${setting}\` |`);
    }
  });

  it('regenerating replaces only the text between the markers', () => {
    const stale = `# Title\n\n${REFERENCE_START}\n| old | table |\n${REFERENCE_END}\n\nAfter.\n`;
    const fresh = withConfigReference(stale);
    expect(fresh).to.equal(`# Title\n\n${REFERENCE_START}\n${renderConfigReference()}\n${REFERENCE_END}\n\nAfter.\n`);
    expect(withConfigReference(fresh)).to.equal(fresh);
  });
});
