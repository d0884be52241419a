/** What the bench's scripted browsers share: cookies kept as a browser keeps them, and tessera's /login form read. */

import { FORM } from './load-spec.js';

/**
 * A browser's cookies as the bench needs them: one site, every cookie sent on every request (the
 * provider's are scoped by path, and no two share a name), a cookie cleared by its server dropped.
 */
export class Cookies {
  private readonly values = new Map<string, string>();

  take(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      const cleared = value === '' || attributes.some((attribute) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(attribute));
      if (cleared) this.values.delete(name);
      else this.values.set(name, value);
    }
  }

  get header(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** The login form of tessera's /login page: its action and hidden fields (the anti-forgery token). */
export function loginForm(body: string): { action: string; hidden: Record<string, string> } {
  const form = /<form method="\w+" action="([^"]*)">([\s\S]*?)<\/form>/.exec(body);
  if (!form) throw new Error('the /login page has no form');
  const hidden: Record<string, string> = {};
  for (const [, name, value] of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) hidden[unescape(name!)] = unescape(value!);
  return { action: unescape(form[1]!), hidden };
}

function unescape(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (entity, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? entity);
}

/**
 * Where a browser logging in as casuser goes after `response` (its body read as `body`) to the request
 * at `url`: the redirect it names, or tessera's /login form posted; undefined for any other answer.
 */
export function nextLoginStep(url: string, response: Response, body: string): [string, RequestInit] | undefined {
  const location = response.headers.get('location');
  if (location !== null) return [new URL(location, url).href, {}];
  if (response.status !== 200 || !body.includes('name="password"')) return undefined;
  const form = loginForm(body);
  return [new URL(form.action, url).href, { method: 'POST', headers: { ...FORM }, body: new URLSearchParams({ ...form.hidden, username: 'casuser', password: 'Mellon' }).toString() }];
}
