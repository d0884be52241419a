import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CLIENT = { id: 'tessera', secret: 'the client secret of tessera at the provider' };

/**
 * A small GitHub-style OAuth 2.0 provider: /authorize sends the browser back at once with a code (the
 * user said yes, or `error` when told to refuse), /token checks the client, the redirect URI and the
 * PKCE verifier, /user answers the profile for the access token.
 */
export async function startFakeOAuth2(): Promise<{ base: string; server: Server; refuse: { next: boolean }; profileDown: { next: boolean } }> {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const tokens = new Set<string>();
  const refuse = { next: false };
  const profileDown = { next: false };
  const server = createServer((request, response): void => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const json = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (url.pathname === '/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      if (refuse.next || url.searchParams.get('client_id') !== CLIENT.id || url.searchParams.get('code_challenge_method') !== 'S256') back.searchParams.set('error', 'access_denied');
      else {
        const code = randomBytes(16).toString('hex');
        codes.set(code, { challenge: url.searchParams.get('code_challenge')!, redirectUri: url.searchParams.get('redirect_uri')! });
        back.searchParams.set('code', code);
      }
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', (): void => {
        const form = new URLSearchParams(body);
        const code = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const basic = `Basic ${Buffer.from(`${CLIENT.id}:${encodeURIComponent(CLIENT.secret)}`).toString('base64')}`;
        const verifier = form.get('code_verifier') ?? '';
        if (request.headers.authorization !== basic) return json(401, { error: 'invalid_client' });
        if (code === undefined || code.redirectUri !== form.get('redirect_uri') || createHash('sha256').update(verifier).digest('base64url') !== code.challenge) return json(400, { error: 'invalid_grant' });
        const token = randomBytes(16).toString('hex');
        tokens.add(token);
        json(200, { access_token: token, token_type: 'bearer' });
      });
      return;
    }
    if (url.pathname === '/user') {
      if (profileDown.next) return json(503, { message: 'down' });
      if (!tokens.has((request.headers.authorization ?? '').replace(/^Bearer /, ''))) return json(401, { message: 'Bad credentials' });
      return json(200, { id: 583231, login: 'octocat', email: 'octocat@github.example', site_admin: false, plan: { name: 'free' } });
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, refuse, profileDown };
}
