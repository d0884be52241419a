import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configSchema, parseConfig, REFERENCE_END, REFERENCE_PAGE, REFERENCE_START, renderConfigReference, withConfigReference } from '@tessera/cli-server';

const PAGE = fileURLToPath(new URL(`../../../${REFERENCE_PAGE}`, import.meta.url));

/** The paths of every value in `settings` below its maps (a list is one setting): `server.port`, `users`, … */
function settingPaths(settings: Readonly<Record<string, unknown>>, prefix = ''): string[] {
  return Object.entries(settings).flatMap(([name, value]) => {
    const path = `${prefix}${name}`;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? settingPaths(value as Record<string, unknown>, `${path}.`) : [path];
  });
}

// docs/configuration.md's reference is generated from the schema
describe('the configuration reference (docs/configuration.md)', () => {
  it('is in step with the configuration schema (regenerate: node scripts/config-reference.mjs)', () => {
    const page = readFileSync(PAGE, 'utf8');
    const start = page.indexOf(REFERENCE_START);
    const end = page.indexOf(REFERENCE_END);
    expect(start, `${REFERENCE_PAGE} lacks the reference markers`).to.be.at.least(0);
    expect(page.slice(start + REFERENCE_START.length, end).trim()).to.equal(renderConfigReference());
  });

  it('lists every setting with its type, default and description, under a heading of its section', () => {
    const reference = renderConfigReference();
    expect(reference).to.include('| `server.port` | integer 0–65535 | `8080` |');
    expect(reference).to.include('| `protocol.validationFailureStatus` | `200` or `400` | `400` |');
    expect(reference).to.include('| `users[].passwordHash` | string | — |');
    for (const setting of ['modules', 'server.trustProxy', 'rest.revision', 'tickets.st.timeToLiveSeconds', 'servicesDirectory', 'logging.level']) {
      expect(reference).to.include(`| \`${setting}\` |`);
    }
    const sections = [...reference.matchAll(/^### `([^`]+)`$/gm)].map((match) => match[1]);
    expect(sections).to.deep.equal(Object.keys(configSchema.shape));
  });

  it('has a row for every setting the schema fills in by default, so none is left out', () => {
    const reference = renderConfigReference();
    const missing = settingPaths(parseConfig({})).filter((path) => !reference.includes(`| \`${path}\` |`));
    expect(missing).to.deep.equal([]);
  });

  it('regenerating replaces only the text between the markers', () => {
    const stale = `# Title\n\n${REFERENCE_START}\n| old | table |\n${REFERENCE_END}\n\nAfter.\n`;
    const fresh = withConfigReference(stale);
    expect(fresh).to.equal(`# Title\n\n${REFERENCE_START}\n${renderConfigReference()}\n${REFERENCE_END}\n\nAfter.\n`);
    expect(withConfigReference(fresh)).to.equal(fresh);
  });
});
