import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ScriptFile } from '../../http-module.js';

/** `@simplewebauthn/browser`'s bundle (a UMD script defining `SimpleWebAuthnBrowser`), as the module serves it. */
export interface BrowserLibrary {
  readonly source: Buffer;
  /** A strong validator of the bytes, for `ETag`. */
  readonly etag: string;
  readonly integrity: string;
}

/** Where the module serves the library, under the base path. */
export const BROWSER_LIBRARY_PATH = '/webauthn/simplewebauthn-browser.js';

/** Reads the bundle the installed `@simplewebauthn/browser` ships (its package exports no path to it: it is found beside its entry point). */
export function browserLibrary(): BrowserLibrary {
  const entry = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
  const source = readFileSync(join(dirname(dirname(entry)), 'dist', 'bundle', 'index.umd.min.js'));
  return {
    source,
    etag: `"${createHash('sha256').update(source).digest('base64url')}"`,
    integrity: `sha384-${createHash('sha384').update(source).digest('base64')}`,
  };
}

/** The library as a script file of the login pages, at its absolute URL under the public URL. */
export function libraryScript(library: BrowserLibrary, publicBase: string): ScriptFile {
  return { url: `${publicBase}${BROWSER_LIBRARY_PATH}`, integrity: library.integrity };
}
