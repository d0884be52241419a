import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { IssuedCertificate } from '@tessera/testkit/pki';
import { rememberAnswer, rememberRequest } from './log-canary.js';

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export interface HttpsOptions {
  /** PEM of the CA that issued the server's certificate. */
  readonly ca: string;
  readonly client?: IssuedCertificate;
  /** Intermediate CAs the client sends after its certificate. */
  readonly clientChain?: readonly IssuedCertificate[];
  /** POST unless told otherwise. */
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** One HTTPS request trusting `ca`, presenting `client`'s certificate and key when given (fetch cannot). */
export function overHttps(url: string, options: HttpsOptions): Promise<Answer> {
  rememberRequest(url, Object.entries(options.headers ?? {}), options.body);
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      url,
      {
        method: options.method ?? 'POST',
        headers: options.headers ?? {},
        ca: options.ca,
        agent: false,
        ...(options.client && { cert: options.client.pem + (options.clientChain ?? []).map((ca) => ca.pem).join(''), key: options.client.privateKeyPem }),
      },
      (response) => readAnswer(response, resolve),
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** One plain HTTP request with headers exactly as given (fetch would not send `Host` as given). GET unless told otherwise. */
export function overHttp(url: string, options: { readonly method?: string; readonly headers?: Record<string, string>; readonly body?: string } = {}): Promise<Answer> {
  rememberRequest(url, Object.entries(options.headers ?? {}), options.body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (response) => readAnswer(response, resolve));
    request.on('error', reject);
    request.end(options.body);
  });
}

function readAnswer(response: IncomingMessage, resolve: (answer: Answer) => void): void {
  let body = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => (body += chunk));
  response.on('end', () => {
    rememberAnswer(body, response.headers.location);
    resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
  });
}
