import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Loaded first by mocha (.mocharc `require`): a demo run keeps its keys in the user's state folder,
// `$XDG_STATE_HOME/tessera` (config/demo.ts). Every test process, and the servers it spawns, get a
// throwaway one instead of the home folder of whoever runs the tests.
process.env['XDG_STATE_HOME'] = mkdtempSync(join(tmpdir(), 'tessera-state-'));
