import { UpstreamFailure } from '@tessera/core/modules/delegation';
import type { CustomFetchOptions } from 'openid-client';

/** The most an upstream's answer (a profile, a CAS validation) may weigh: far above any real one, far below what would hurt the heap. */
export const UPSTREAM_ANSWER_BYTES = 1_048_576;

/** An upstream's answer's body, at most UPSTREAM_ANSWER_BYTES of it: a larger one (declared or streamed) is refused as it comes. */
async function boundedBody(response: Response, what: string): Promise<Buffer> {
  if (Number(response.headers.get('content-length') ?? 0) > UPSTREAM_ANSWER_BYTES) {
    await response.body?.cancel();
    throw new UpstreamFailure('invalid', `${what} is larger than ${UPSTREAM_ANSWER_BYTES} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (let read = await reader?.read(); read !== undefined && !read.done; read = await reader?.read()) {
    size += read.value.byteLength;
    if (size > UPSTREAM_ANSWER_BYTES) {
      await reader?.cancel();
      throw new UpstreamFailure('invalid', `${what} is larger than ${UPSTREAM_ANSWER_BYTES} bytes`);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks);
}

/**
 * An upstream's answer read as JSON, at most UPSTREAM_ANSWER_BYTES of it; one that is no JSON is
 * refused without quoting it (its start may be a token).
 */
export async function boundedJson(response: Response, what: string): Promise<unknown> {
  const body = await boundedBody(response, what);
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new UpstreamFailure('invalid', `${what} is no JSON`);
  }
}

/** Statuses whose answer has no body (a Response refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/** fetch for openid-client (its customFetch): the answer read to at most UPSTREAM_ANSWER_BYTES before openid-client reads it. */
export async function boundedFetch(url: string, init: CustomFetchOptions): Promise<Response> {
  // openid-client's options are fetch's (its body type names `undefined` where fetch's leaves the field out).
  const response = await fetch(url, init as RequestInit);
  const body = await boundedBody(response, `the answer of ${new URL(url).pathname}`);
  return new Response(NO_BODY.has(response.status) ? null : body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
