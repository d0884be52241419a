import { SERVICE_PROTOCOLS, type InvalidServiceDefinitionError, type ServiceProtocol } from '@tessera/core';
import { javaSet, stringList } from './java-collections.js';

/**
 * `supportedProtocols`, kept only when it names one: the protocols whose validation endpoints the
 * service's tickets validate at (CAS10, CAS20, CAS30, SAML1, as CAS names them; OAUTH20 and OIDC too).
 * Empty or absent, every protocol.
 */
export function parseSupportedProtocols(value: unknown, fail: (field: string, problem: string) => InvalidServiceDefinitionError): { supportedProtocols?: readonly ServiceProtocol[] } {
  if (value === undefined || value === null) return {};
  const names = stringList(value);
  if (names === undefined) throw fail('supportedProtocols', `must be a list of protocol names (${SERVICE_PROTOCOLS.join(', ')})`);
  const unknown = names.filter((name) => !(SERVICE_PROTOCOLS as readonly string[]).includes(name));
  if (unknown.length > 0) throw fail('supportedProtocols', `${unknown.join(', ')}: no protocol tessera knows (write ${SERVICE_PROTOCOLS.join(', ')})`);
  const protocols = [...new Set(names as ServiceProtocol[])];
  return protocols.length === 0 ? {} : { supportedProtocols: protocols };
}

/** As CAS writes the set. */
export function supportedProtocolsJson(protocols: readonly ServiceProtocol[] | undefined): { supportedProtocols?: unknown[] } {
  return protocols === undefined ? {} : { supportedProtocols: javaSet(protocols) };
}
