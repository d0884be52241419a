const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([^-]*)-----END \1-----/g;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The DER contents of the PEM blocks labelled with one of `labels`, in order. Whitespace inside a
 * block is ignored, so PEM whose newlines a proxy turned into spaces reads the same. A block whose
 * body is not base64 makes the whole text unreadable (undefined); no block at all gives `[]`.
 */
export function pemBlocks(text: string, labels: readonly string[]): Uint8Array[] | undefined {
  const blocks: Uint8Array[] = [];
  for (const [, label = '', body = ''] of text.matchAll(PEM_BLOCK)) {
    if (!labels.includes(label)) continue;
    const der = base64Bytes(body);
    if (der === undefined) return undefined;
    blocks.push(der);
  }
  return blocks;
}

/** Strict base64 (whitespace aside): Node's decoder would skip any character it does not know. */
export function base64Bytes(text: string): Uint8Array | undefined {
  const compact = text.replace(/\s+/g, '');
  if (compact === '' || !BASE64.test(compact)) return undefined;
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

/** Whether bytes read from a file are PEM text rather than DER (which starts with a SEQUENCE tag). */
export function looksLikePem(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 4096)).toString('latin1').includes('-----BEGIN ');
}
