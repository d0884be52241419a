import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LoadOptions } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { urlHost } from '../listen.js';
import type { Output } from './command.js';
import { withConfiguration } from './configuration.js';

const TIMEOUT_MS = 4000;

/**
 * `tessera health`: asks this machine's server for `/health/live`, at the address, port and scheme
 * its configuration gives (the admin listener when `admin.port` is set), as a container HEALTHCHECK
 * does. Exit 0 when it answers 200, otherwise 1 (Docker reserves 2), with the reason on stderr.
 */
export async function checkHealth(options: LoadOptions, out: Output, err: Output): Promise<number> {
  const code = await withConfiguration(options, err, async (config) => {
    const url = liveUrl(config);
    if (typeof url !== 'string') {
      err.write(`tessera health: ${url.problem}\n`);
      return 1;
    }
    const status = await get(url).catch((error: unknown) => `${url}: ${error instanceof Error ? error.message : String(error)}`);
    if (status === 200) {
      out.write(`${url}: 200\n`);
      return 0;
    }
    err.write(`tessera health: ${typeof status === 'number' ? `${url}: ${status}` : status}\n`);
    return 1;
  });
  return code === 0 ? 0 : 1;
}

/** Where `/health/live` answers: the admin listener, else the main one outside the base path; a wildcard address is asked on loopback. */
function liveUrl(config: Config): string | { problem: string } {
  const { admin, server } = config;
  const [scheme, host, port, setting] =
    admin.port === undefined
      ? [server.tls.cert !== undefined && server.tls.key !== undefined ? 'https' : 'http', server.host, server.port, 'server.port']
      : ['http', admin.host, admin.port, 'admin.port'];
  if (port === 0) return { problem: `${setting} is 0 (a free port picked at start), so the port to ask cannot be known` };
  return `${scheme}://${urlHost(loopbackFor(host))}:${port}/health/live`;
}

function loopbackFor(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '::1';
  return host;
}

/**
 * The status of a GET. Over HTTPS the certificate is not checked: the certificate names the public
 * host, not the loopback address asked here, and this asks only whether the process answers.
 */
function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, { method: 'GET', timeout: TIMEOUT_MS, rejectUnauthorized: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end();
  });
}
