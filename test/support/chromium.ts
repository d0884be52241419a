import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium, which scripts/install-chromium.sh installs (Playwright downloads no browser here). */
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface HeadlessChromium {
  readonly context: BrowserContext;
  /** Closes the browser and removes its throwaway profile. */
  close(): Promise<void>;
}

export interface ChromiumOptions {
  /** Command-line switches beside the ones every test run needs. */
  readonly args?: readonly string[];
  /** Lets the test inject scripts into pages whose own CSP allows none. */
  readonly bypassCSP?: boolean;
  readonly viewport?: { readonly width: number; readonly height: number };
}

/** Skips the suite with one line saying why when Chromium is not installed. */
export function skipUnlessChromium(suite: Mocha.Context, what: string): void {
  if (existsSync(CHROMIUM)) return;
  process.stdout.write(`    skipping ${what}: ${CHROMIUM} not found; run scripts/install-chromium.sh\n`);
  suite.skip();
}

/** Headless Chromium on a profile of its own, so no cookie or cache outlives the suite. */
export async function launchChromium(options: ChromiumOptions = {}): Promise<HeadlessChromium> {
  const profile = await mkdtemp(join(tmpdir(), 'tessera-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [...FLAGS, ...(options.args ?? [])],
      ...(options.bypassCSP !== undefined && { bypassCSP: options.bypassCSP }),
      ...(options.viewport && { viewport: { ...options.viewport } }),
    });
    return {
      context,
      close: async () => {
        await context.close();
        await rm(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}
