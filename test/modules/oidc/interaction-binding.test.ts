import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { Browser, type Visit } from '../../support/browser.js';
import { APP, type Tessera } from '../../support/tessera.js';
import { CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, startOidc } from './support.js';

const VERIFIER = 'v'.repeat(43);

/** An authorization request of the test client, with PKCE on VERIFIER. */
const authorizeUrl = (base: string) =>
  `${base}/oidc/auth?${new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    scope: 'openid email',
    state: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(VERIFIER).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString()}`;

/** One request with its request line exactly as given (an absolute target, a backslash): its status and Location. */
function rawRequest(origin: URL, method: string, target: string, cookie: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(origin.port), origin.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const head = Buffer.concat(chunks).toString('latin1').split('\r\n\r\n', 1)[0] ?? '';
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), location: /\r\nlocation: ([^\r]*)/i.exec(head)?.[1] });
    });
    socket.end(`${method} ${target} HTTP/1.1\r\nhost: ${origin.host}\r\ncookie: ${cookie}\r\nconnection: close\r\n\r\n`);
  });
}

// docs/modules/oidc.md (One relying-party path): a login /login made for an interaction goes on only in
// the browser that made it. The interaction cookie alone does not tie an authorization to a browser: a
// site that can plant cookies for tessera's host (a sibling subdomain, a plain-HTTP hop) could copy its
// own into a victim's browser, have the victim's single sign-on answer the attacker's authorization,
// and take the victim's code in its own browser.
describe('oidc: an authorization and its login stay in one browser', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startOidc();
  });
  after(() => tessera.close());

  /** A browser logged in to CAS as `username`. */
  async function casSession(username: string, password: string): Promise<Browser> {
    const browser = new Browser();
    const landed = await browser.submit(await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP)}`), { username, password });
    expect(landed.status, landed.body).to.equal(302);
    return browser;
  }

  /** Follows redirects within tessera; the first answer that leaves it or is no redirect. */
  async function walk(browser: Browser, visit: Visit, stopAt?: RegExp): Promise<Visit> {
    let current = visit;
    for (let hops = 0; hops < 10 && current.location !== null && current.status >= 300 && current.status < 400; hops++) {
      const next = new URL(current.location, current.url).href;
      if (!next.startsWith(tessera.url) || stopAt?.test(next) === true) return current;
      current = await browser.get(next);
    }
    return current;
  }

  async function redeem(location: string): Promise<Record<string, unknown>> {
    const code = new URL(location).searchParams.get('code')!;
    const response = await fetch(`${tessera.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER }).toString(),
    });
    expect(response.status).to.equal(200);
    return decodeJwt(((await response.json()) as { id_token: string }).id_token);
  }

  it("an interaction cookie planted in another browser: that browser's login finishes nothing in the attacker's browser", async () => {
    const attacker = await casSession('alice', 'secret');
    const started = await attacker.get(authorizeUrl(tessera.url));
    const interaction = new URL(started.location!, started.url).href;
    const toLogin = await attacker.get(interaction);
    expect(toLogin.location).to.match(/\/login\?service=/);
    const victim = await casSession('casuser', 'Mellon');
    for (const cookie of await attacker.jar.getCookies(interaction)) if (cookie.key.startsWith('OIDC_INTERACTION')) await victim.jar.setCookie(cookie.toString(), interaction);

    // The victim's single sign-on answers the attacker's authorization (a link to /login for its callback).
    const resumeAt = await walk(victim, await victim.get(toLogin.location!), /\/oidc\/auth\//);
    expect(resumeAt.location, resumeAt.body).to.match(/\/oidc\/auth\/[A-Za-z0-9_-]+$/);
    const resumeUrl = new URL(resumeAt.location!, resumeAt.url).href;
    // A HEAD request is routed as the GET: it gets no code either (its answer's Location would carry it).
    const headed = await fetch(resumeUrl, { method: 'HEAD', redirect: 'manual', headers: { cookie: await attacker.jar.getCookieString(resumeUrl) } });
    expect(headed.status).to.equal(400);
    expect(headed.headers.get('location')).to.equal(null);
    const taken = await attacker.get(resumeUrl);
    expect(taken.status).to.equal(400);
    expect(taken.location).to.equal(null);
    expect(taken.body).to.include('login_failed');

    // The attacker's own login still gets the attacker's own code.
    const own = await walk(attacker, await attacker.get(authorizeUrl(tessera.url)));
    expect(own.location, own.body).to.match(/^https:\/\/rp\.example\.org\/callback\?code=/);
    expect((await redeem(own.location!))['sub']).to.equal('alice');
  });

  it("every spelling of the resume the provider's router takes (case, a trailing slash, a query, an absolute target) is held to the browser that logged in", async () => {
    const attacker = await casSession('alice', 'secret');
    const started = await attacker.get(authorizeUrl(tessera.url));
    const interaction = new URL(started.location!, started.url).href;
    const toLogin = await attacker.get(interaction);
    const victim = await casSession('casuser', 'Mellon');
    for (const cookie of await attacker.jar.getCookies(interaction)) if (cookie.key.startsWith('OIDC_INTERACTION')) await victim.jar.setCookie(cookie.toString(), interaction);
    const resumeAt = await walk(victim, await victim.get(toLogin.location!), /\/oidc\/auth\//);
    const resumeUrl = new URL(resumeAt.location!, resumeAt.url);
    const cookie = await attacker.jar.getCookieString(resumeUrl.href);
    const path = resumeUrl.pathname;
    const [prefix, uid] = [path.slice(0, path.lastIndexOf('/auth/')), path.slice(path.lastIndexOf('/') + 1)];
    const spellings = [
      path,
      `${prefix}/AUTH/${uid}`,
      `${prefix}/Auth/${uid}/`,
      `${path}?x=1`,
      `${path};x`,
      `${path}%2F`,
      `${path}\\`,
      `${resumeUrl.origin}${path}`,
      `${resumeUrl.origin.toUpperCase()}${prefix}/aUtH/${uid}/`,
    ];
    for (const method of ['HEAD', 'GET']) {
      for (const target of spellings) {
        const answer = await rawRequest(resumeUrl, method, target, cookie);
        expect(answer.status, `${method} ${target}`).to.equal(400);
        expect(answer.location, `${method} ${target}`).to.equal(undefined);
      }
    }
  });

  it("the provider session of another user planted in a browser: the browser's own login gets its own code, the planted session none", async () => {
    const attacker = new Browser();
    const attackerLogin = await walk(attacker, await attacker.get(authorizeUrl(tessera.url)));
    const own = await walk(attacker, await attacker.submit(attackerLogin, { username: 'alice', password: 'secret' }));
    expect(own.location, own.body).to.match(/code=/);
    const victim = await casSession('casuser', 'Mellon');
    const sessionUrl = `${tessera.url}/oidc/auth`;
    for (const cookie of await attacker.jar.getCookies(sessionUrl)) if (cookie.key.startsWith('OIDC_SESSION')) await victim.jar.setCookie(cookie.toString(), sessionUrl);

    let visit = await walk(victim, await victim.get(authorizeUrl(tessera.url)));
    // The planted session is logged out first (the provider's page that submits itself), then the victim's login goes on.
    const selfSubmitting = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(visit.body);
    if (visit.status === 200 && selfSubmitting) {
      const fields = Object.fromEntries([...selfSubmitting[2]!.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [name!, value!]));
      visit = await walk(victim, await victim.post(selfSubmitting[1]!.replaceAll('&amp;', '&'), fields));
    }
    expect(visit.location, visit.body).to.match(/code=/);
    expect((await redeem(visit.location!))['sub']).to.equal('casuser');
    // The attacker's copy of the cookie names a session that is no longer the victim's, nor a login.
    const silent = await walk(attacker, await attacker.get(`${authorizeUrl(tessera.url)}&prompt=none`));
    expect(silent.location).to.match(/error=login_required/);
  });
});
