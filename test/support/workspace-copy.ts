import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A copy of this checkout's source (every file git tracks or would track) in a folder of its own, with
 * the installed dependencies shared: a test can add files to it and run it from source as a contributor
 * would, without touching the checkout. pnpm links each package's dependencies by relative paths, so the
 * copied links lead to the copy's own packages and to the one shared package store.
 */
export class WorkspaceCopy {
  readonly root: string;

  constructor() {
    this.root = mkdtempSync(join(tmpdir(), 'tessera-workspace-'));
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
    for (const file of files) {
      if (!existsSync(join(ROOT, file))) continue; // deleted in the working tree, not yet in git
      mkdirSync(dirname(join(this.root, file)), { recursive: true });
      cpSync(join(ROOT, file), join(this.root, file));
    }
    this.linkDependencies();
  }

  /** Copies `source` (a folder) to `target`, a path in the copy. */
  add(source: string, target: string): void {
    cpSync(source, join(this.root, target), { recursive: true });
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  /** The root's links and each workspace package's, as links; the package store itself is shared. */
  private linkDependencies(): void {
    const rootModules = join(ROOT, 'node_modules');
    mkdirSync(join(this.root, 'node_modules'));
    for (const entry of readdirSync(rootModules)) {
      if (entry === '.pnpm') symlinkSync(join(rootModules, '.pnpm'), join(this.root, 'node_modules/.pnpm'));
      else cpSync(join(rootModules, entry), join(this.root, 'node_modules', entry), { recursive: true, verbatimSymlinks: true });
    }
    const workspaces = ['test', 'bench', ...readdirSync(join(ROOT, 'packages')).map((name) => join('packages', name))];
    for (const workspace of workspaces) {
      const modules = join(ROOT, workspace, 'node_modules');
      if (existsSync(modules)) cpSync(modules, join(this.root, workspace, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    }
  }
}
