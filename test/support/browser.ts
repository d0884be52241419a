import { request as httpRequest } from 'node:http';
import { CookieJar } from 'tough-cookie';

/** One answer as a browser saw it, before following any redirect. */
export interface Visit {
  readonly url: string;
  readonly status: number;
  readonly location: string | null;
  readonly headers: Headers;
  readonly body: string;
  /** The Set-Cookie headers as sent, one per cookie. */
  readonly setCookies: readonly string[];
}

/**
 * A browser over real HTTP: a cookie jar (tough-cookie, RFC 6265), redirects not followed so the test
 * sees each step. `X-Forwarded-*` or other headers a test needs go in `headers`; a `host` header goes
 * out as given (over node:http, since fetch sends the URL's own).
 */
export class Browser {
  readonly jar = new CookieJar();

  /** `https`: the jar takes every answer for one over TLS (a proxy in front that the test stands for), as it does with `x-forwarded-proto: https`. */
  constructor(
    private readonly headers: Readonly<Record<string, string>> = {},
    private readonly seenOver: 'as-sent' | 'https' = headers['x-forwarded-proto'] === 'https' ? 'https' : 'as-sent',
  ) {}

  get(url: string): Promise<Visit> {
    return this.visit(url, { method: 'GET' });
  }

  /** Posts a form, as a browser submits one. */
  post(url: string, fields: Readonly<Record<string, string>>): Promise<Visit> {
    return this.visit(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  }

  /** Submits the first form of `page` (its action, its hidden fields) with `fields` filled in. */
  submit(page: Visit, fields: Readonly<Record<string, string>> = {}): Promise<Visit> {
    const form = formOf(page.body);
    return this.post(new URL(form.action, page.url).toString(), { ...form.hidden, ...fields });
  }

  /** The value of a cookie the jar would send to `url`. */
  async cookie(url: string, name: string): Promise<string | undefined> {
    return (await this.jar.getCookies(this.seenAs(url))).find((cookie) => cookie.key === name)?.value;
  }

  /** The URL as the jar judges it: https when the browser sees every answer over TLS. */
  private seenAs(url: string): string {
    return this.seenOver === 'https' ? url.replace(/^http:/, 'https:') : url;
  }

  private async visit(url: string, init: RequestInit): Promise<Visit> {
    const seenAs = this.seenAs(url);
    const cookie = await this.jar.getCookieString(seenAs);
    const headers: Record<string, string> = { ...this.headers, ...(init.headers as Record<string, string>), ...(cookie && { cookie }) };
    const response = headers['host'] === undefined ? await fetch(url, { ...init, redirect: 'manual', headers }) : await sentWithHost(url, init, headers);
    const setCookies = response.headers.getSetCookie();
    // The jar judges each cookie as a browser would (Secure, Path); a proxied https request counts as https.
    for (const header of setCookies) await this.jar.setCookie(header, seenAs, { ignoreError: true });
    return { url, status: response.status, location: response.headers.get('location'), headers: response.headers, body: await response.text(), setCookies };
  }
}

/** One request over node:http, its headers (`Host` among them) exactly as given. */
function sentWithHost(url: string, init: RequestInit, headers: Readonly<Record<string, string>>): Promise<Response> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: init.method ?? 'GET', headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const answered = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) for (const one of [value ?? []].flat()) answered.append(name, one);
        resolve(new Response(incoming.statusCode === 204 || incoming.statusCode === 304 ? null : Buffer.concat(chunks), { status: incoming.statusCode ?? 0, headers: answered }));
      });
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(typeof init.body === 'string' ? init.body : undefined);
  });
}

export interface PageForm {
  readonly action: string;
  readonly method: string;
  readonly hidden: Readonly<Record<string, string>>;
}

/** The first form of a page: its action, method and hidden fields (HTML entities of our pages decoded). */
export function formOf(body: string): PageForm {
  const form = /<form method="(\w+)" action="([^"]*)">([\s\S]*?)<\/form>/.exec(body);
  if (!form) throw new Error(`no form in the page:\n${body}`);
  const hidden: Record<string, string> = {};
  for (const [, name, value] of form[3]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) hidden[unescape(name!)] = unescape(value!);
  return { method: form[1]!, action: unescape(form[2]!), hidden };
}

/** The text of the page's `<h1>`. */
export function headingOf(body: string): string | undefined {
  return /<h1>([\s\S]*?)<\/h1>/.exec(body)?.[1];
}

/** The text of the page's message (a refused login), if any. */
export function messageOf(body: string): string | undefined {
  return /<p class="message"[^>]*>([\s\S]*?)<\/p>/.exec(body)?.[1];
}

/** The `ticket` parameter of a redirect to a service. */
export function ticketOf(location: string | null): string | undefined {
  return location === null ? undefined : (new URL(location).searchParams.get('ticket') ?? undefined);
}

function unescape(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, entity: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[entity] ?? _);
}
