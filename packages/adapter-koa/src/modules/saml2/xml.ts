import { DOMParser, XMLSerializer } from '@xmldom/xmldom';

/** The namespaces of SAML 2.0 and XML Signature and Encryption. */
export const NS = {
  samlp: 'urn:oasis:names:tc:SAML:2.0:protocol',
  saml: 'urn:oasis:names:tc:SAML:2.0:assertion',
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
  xenc: 'http://www.w3.org/2001/04/xmlenc#',
  xs: 'http://www.w3.org/2001/XMLSchema',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
  mdui: 'urn:oasis:names:tc:SAML:metadata:ui',
  mdattr: 'urn:oasis:names:tc:SAML:metadata:attribute',
} as const;

const ELEMENT_NODE = 1;
const DOCUMENT_TYPE_NODE = 10;

/** XML tessera will not read: not well-formed, too large, or with a DTD. `reason` is safe to show (no content). */
export class UnreadableXmlError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'UnreadableXmlError';
  }
}

/**
 * Parses XML from a peer strictly: no more than `maxBytes` of UTF-8, no DOCTYPE (so no DTD and no entity
 * of its own: SAML messages and metadata never need one, and entity expansion is how XML bombs and
 * external entities get in), and every error or warning of the parser refuses the text instead of the
 * parser's guess at a repair. xmldom never fetches anything nor expands an entity a document declares;
 * refusing the DOCTYPE outright keeps that true of whatever parser reads the text after us.
 */
export function parseXml(text: string, maxBytes: number): Document {
  if (Buffer.byteLength(text, 'utf8') > maxBytes) throw new UnreadableXmlError(`The XML is larger than ${maxBytes} bytes`);
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new UnreadableXmlError('The XML holds a DOCTYPE or an entity declaration, which SAML never needs');
  const refuse = (message: string): never => {
    throw new UnreadableXmlError(`The XML is not well-formed: ${firstLine(message)}`);
  };
  let document: Document;
  try {
    document = new DOMParser({ errorHandler: { warning: refuse, error: refuse, fatalError: refuse } }).parseFromString(text, 'text/xml');
  } catch (error) {
    if (error instanceof UnreadableXmlError) throw error;
    throw new UnreadableXmlError(`The XML is not well-formed: ${firstLine((error as Error).message)}`);
  }
  const root = document.documentElement as Element | null;
  if (root === null) throw new UnreadableXmlError('The XML has no root element');
  for (let node = document.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === DOCUMENT_TYPE_NODE) throw new UnreadableXmlError('The XML holds a DOCTYPE, which SAML never needs');
  }
  return document;
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? '').replace(/^\[xmldom [a-zA-Z]+\]\s*/, '').slice(0, 200);
}

/** The element children of `parent`, those of namespace `ns` and local name `local` when given. */
export function childElements(parent: Element | Document, ns?: string, local?: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType !== ELEMENT_NODE) continue;
    const element = node as Element;
    if ((ns === undefined || element.namespaceURI === ns) && (local === undefined || element.localName === local)) found.push(element);
  }
  return found;
}

/** The one child element of that name, undefined when there is none; more than one is unreadable (`what` names it). */
export function optionalChild(parent: Element, ns: string, local: string, what = local): Element | undefined {
  const found = childElements(parent, ns, local);
  if (found.length > 1) throw new UnreadableXmlError(`More than one ${what} in ${parent.localName}`);
  return found[0];
}

/** The one child element of that name; none, or more than one, is unreadable. */
export function requiredChild(parent: Element, ns: string, local: string, what = local): Element {
  const found = optionalChild(parent, ns, local, what);
  if (found === undefined) throw new UnreadableXmlError(`${parent.localName} has no ${what}`);
  return found;
}

/** An attribute without a namespace, undefined when absent. */
export function attribute(element: Element, name: string): string | undefined {
  return element.hasAttribute(name) ? element.getAttribute(name)! : undefined;
}

/** The text of an element, trimmed. */
export function textOf(element: Element): string {
  return (element.textContent ?? '').trim();
}

/** Whether an element is `local` of namespace `ns`. */
export function isElement(element: Element | null | undefined, ns: string, local: string): boolean {
  return element !== null && element !== undefined && element.namespaceURI === ns && element.localName === local;
}

/** An xs:dateTime as epoch ms; unreadable when it is none. */
export function readInstant(value: string | undefined, what: string): number {
  // xs:dateTime as SAML uses it: UTC (`Z`) or with an offset, seconds with an optional fraction.
  if (value === undefined || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)) throw new UnreadableXmlError(`${what} is not an xs:dateTime`);
  const instant = Date.parse(value);
  if (!Number.isFinite(instant)) throw new UnreadableXmlError(`${what} is not an xs:dateTime`);
  return instant;
}

/** An instant as SAML writes it: UTC, to the millisecond. */
export function writeInstant(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** A boolean attribute (xs:boolean), `fallback` when absent. */
export function readBoolean(value: string | undefined, what: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new UnreadableXmlError(`${what} is not a boolean`);
}

/** Serializes a node, refusing anything that would not read back as it is (xmldom's well-formedness checks). */
export function serialize(node: Node): string {
  return new XMLSerializer().serializeToString(node, false, undefined, { requireWellFormed: true });
}

/** Escapes text for an XML attribute value or element content. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[character]!);
}
