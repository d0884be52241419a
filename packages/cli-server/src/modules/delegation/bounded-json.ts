import { UpstreamFailure } from '@tessera/core/modules/delegation';

/** The most an upstream's answer (a profile, a CAS validation) may weigh: far above any real one, far below what would hurt the heap. */
export const UPSTREAM_ANSWER_BYTES = 1_048_576;

/**
 * An upstream's answer read as JSON, at most UPSTREAM_ANSWER_BYTES of it: a larger one (declared or
 * streamed) is refused as it comes, and one that is no JSON is refused without quoting it (its start
 * may be a token).
 */
export async function boundedJson(response: Response, what: string): Promise<unknown> {
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
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new UpstreamFailure('invalid', `${what} is no JSON`);
  }
}
