import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { loadConfig } from '@tessera/cli-server';

const DEPLOY = fileURLToPath(new URL('../../deploy', import.meta.url));

interface ComposeService {
  readonly image?: string;
  readonly command?: string[];
  readonly environment?: Record<string, string>;
  readonly volumes?: string[];
  readonly depends_on?: Record<string, { condition: string }>;
}

// No container runtime runs here: what can be checked without one is that each node's settings, as
// compose gives them (deploy/tessera.yaml plus its environment), are valid and make a cluster on Redis.
describe('deploy/compose-redis.yaml: two tessera nodes and Redis', () => {
  const compose = parse(readFileSync(join(DEPLOY, 'compose-redis.yaml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
  const nodes = ['tessera-a', 'tessera-b'].map((name) => compose.services[name]!);

  it('gives both nodes valid settings: one Redis, their own node names, one token key file', () => {
    const configs = nodes.map((node) => loadConfig({ file: join(DEPLOY, 'tessera.yaml'), env: node.environment ?? {} }));
    for (const config of configs) {
      expect(config.storage.type).to.equal('redis');
      expect(config.storage.redis.url).to.equal('redis://redis:6379');
      expect(config.tokens.keyFile).to.match(/^\/var\/lib\/tessera\//);
    }
    expect(new Set(configs.map((config) => config.server.nodeName)).size).to.equal(2);
    for (const node of nodes) expect(node.volumes).to.include('tessera-keys:/var/lib/tessera').and.include('./tessera.yaml:/etc/tessera/tessera.yaml:ro');
  });

  it('starts Redis with an append-only file, node A once Redis is healthy, node B once node A is (its key file written)', () => {
    expect(compose.services['redis']?.command).to.include('--appendonly');
    expect(nodes[0]!.depends_on).to.deep.equal({ redis: { condition: 'service_healthy' } });
    expect(nodes[1]!.depends_on).to.deep.equal({ 'tessera-a': { condition: 'service_healthy' } });
  });
});
