import { createHash, X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

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

interface AxeViolation {
  readonly id: string;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

let axeSource: Promise<string> | undefined;

/**
 * What axe-core finds wrong with the page's accessibility, one line per rule broken (empty when
 * nothing). axe is injected as a script, so the context must bypass the page's CSP (`bypassCSP`).
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: await axeSource });
  const result = await page.evaluate(async () => (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe.run());
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

export interface AppPages {
  /** `http://127.0.0.1:<port>`: every path answers the same small page. */
  readonly base: string;
  close(): void;
}

/** The application a browser lands on with its ticket: one accessible page for every path. */
export async function startAppPages(): Promise<AppPages> {
  const app = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html lang="en"><title>App</title><main><h1>App</h1></main></html>'));
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(app.address() as AddressInfo).port}`,
    close: () => {
      app.closeAllConnections();
      app.close();
    },
  };
}

/** The base64 SHA-256 of a certificate's public key, as Chromium's --ignore-certificate-errors-spki-list takes it. */
export async function spkiHash(certFile: string): Promise<string> {
  const key = new X509Certificate(await readFile(certFile)).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(key).digest('base64');
}
