import { InvalidRequestError } from '@tessera/core';
import { XMLParser } from 'fast-xml-parser';

const SOAP_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SAML_PROTOCOL = 'urn:oasis:names:tc:SAML:1.0:protocol';

/** What `/samlValidate` needs from a SOAP 1.1 envelope holding a SAML 1.1 `samlp:Request`. */
export interface SamlValidationRequest {
  /** The service ticket, from `samlp:AssertionArtifact`. */
  readonly artifact: string;
  /** The request's `RequestID`, echoed as the response's `InResponseTo`. */
  readonly requestId: string | undefined;
}

/**
 * Every element becomes an array and keeps its text under `#text`, attributes under `@`. The parser
 * reads no external entity (it refuses them), but a DTD is refused before it is even called.
 */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: '@',
  isArray: (_name, _path, _isLeaf, isAttribute) => !isAttribute,
  alwaysCreateTextNode: true,
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

type Node = Readonly<Record<string, unknown>>;
type Scope = ReadonlyMap<string, string>;

interface Element {
  readonly namespace: string | undefined;
  readonly localName: string;
  readonly node: Node;
  readonly scope: Scope;
}

/**
 * Reads the artifact the way Apereo's SamlServiceFactory does (Envelope → Body → Request →
 * AssertionArtifact, by namespace), but refuses anything else: a DTD, XML that is not well-formed,
 * or a missing or repeated element is an InvalidRequestError (400) before any ticket is touched.
 */
export function parseSamlValidationRequest(body: unknown): SamlValidationRequest {
  if (typeof body !== 'string' || body.trim() === '') throw malformed('The request body must be a SOAP envelope');
  if (/<!(?:DOCTYPE|ENTITY)/i.test(body)) throw malformed('Document type declarations are not accepted');
  let document: unknown;
  try {
    document = parser.parse(body, true);
  } catch {
    throw malformed('The request body is not well-formed XML');
  }
  const roots = childrenOf(document as Node, new Map());
  if (roots.length !== 1) throw malformed('Expected exactly one root element');
  const envelope = only(roots, SOAP_ENVELOPE, 'Envelope');
  const soapBody = only(childrenOf(envelope.node, envelope.scope), SOAP_ENVELOPE, 'Body');
  const request = only(childrenOf(soapBody.node, soapBody.scope), SAML_PROTOCOL, 'Request');
  const artifactElement = only(childrenOf(request.node, request.scope), SAML_PROTOCOL, 'AssertionArtifact');
  const artifact = typeof artifactElement.node['#text'] === 'string' ? artifactElement.node['#text'].trim() : '';
  if (artifact === '') throw malformed('samlp:AssertionArtifact is empty');
  const requestId = attributesOf(request.node)['RequestID'];
  return { artifact, requestId: requestId?.trim() === '' ? undefined : requestId };
}

function only(elements: readonly Element[], namespace: string, localName: string): Element {
  const matching = elements.filter((e) => e.namespace === namespace && e.localName === localName);
  if (matching.length !== 1) {
    throw malformed(`Expected exactly one ${localName} element in namespace ${namespace}`);
  }
  return matching[0]!;
}

/** The child elements of a parsed node, each with its namespace resolved through the xmlns declarations in scope. */
function childrenOf(node: Node, parentScope: Scope): Element[] {
  return Object.entries(node)
    .filter(([name]) => name !== '@' && name !== '#text')
    .flatMap(([name, values]) => (Array.isArray(values) ? (values as Node[]) : []).map((child) => element(name, child, parentScope)));
}

function element(qualifiedName: string, node: Node, parentScope: Scope): Element {
  const scope = new Map(parentScope);
  for (const [name, value] of Object.entries(attributesOf(node))) {
    if (name === 'xmlns') scope.set('', value);
    else if (name.startsWith('xmlns:')) scope.set(name.slice('xmlns:'.length), value);
  }
  const colon = qualifiedName.indexOf(':');
  const prefix = colon >= 0 ? qualifiedName.slice(0, colon) : '';
  return { namespace: scope.get(prefix), localName: qualifiedName.slice(colon + 1), node, scope };
}

function attributesOf(node: Node): Readonly<Record<string, string>> {
  const attributes = node['@'];
  return typeof attributes === 'object' && attributes !== null ? (attributes as Record<string, string>) : {};
}

function malformed(reason: string): InvalidRequestError {
  return new InvalidRequestError(`Malformed SAML request: ${reason}`);
}
