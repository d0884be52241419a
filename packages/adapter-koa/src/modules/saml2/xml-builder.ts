import { DOMImplementation } from '@xmldom/xmldom';
import { NS } from './xml.js';

/** What an element holds: attributes (undefined ones left out), then children or text. */
export type Content = readonly (Element | string | undefined | false)[];

const PREFIXES: Readonly<Record<string, string>> = { [NS.samlp]: 'samlp', [NS.saml]: 'saml', [NS.metadata]: 'md', [NS.ds]: 'ds', [NS.xs]: 'xs', [NS.xsi]: 'xsi', [NS.xenc]: 'xenc', [NS.mdui]: 'mdui' };

/**
 * Builds XML through the DOM, never by pasting text: every name and value is escaped by the
 * serializer, so no attribute value or user attribute can inject markup.
 */
export class XmlBuilder {
  readonly document: Document;

  constructor(rootNs: string, rootName: string) {
    this.document = new DOMImplementation().createDocument(rootNs, `${PREFIXES[rootNs]}:${rootName}`, null);
  }

  get root(): Element {
    return this.document.documentElement;
  }

  /** An element of a known namespace, with its usual prefix. */
  element(ns: string, name: string, attributes: Readonly<Record<string, string | undefined>> = {}, content: Content = []): Element {
    return this.fill(this.document.createElementNS(ns, `${PREFIXES[ns]}:${name}`), attributes, content);
  }

  /** Sets attributes and appends content to an element (the root, or one made here). */
  fill(element: Element, attributes: Readonly<Record<string, string | undefined>>, content: Content = []): Element {
    for (const [name, value] of Object.entries(attributes)) if (value !== undefined) element.setAttribute(name, value);
    for (const item of content) {
      if (item === undefined || item === false) continue;
      element.appendChild(typeof item === 'string' ? this.document.createTextNode(item) : item);
    }
    return element;
  }

  /** Declares a namespace prefix on an element (for prefixes used in attribute values, such as xsi:type="xs:string"). */
  declare(element: Element, ns: string): void {
    element.setAttributeNS('http://www.w3.org/2000/xmlns/', `xmlns:${PREFIXES[ns]}`, ns);
  }
}
