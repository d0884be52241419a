import { VALIDATION_PROTOCOLS, type InvalidServiceDefinitionError } from '@tessera/core';
import { javaSet, stringList } from './java-collections.js';

/**
 * `supportedProtocols`, kept only when it names one: the protocols whose validation endpoints the
 * service's tickets validate at (CAS10, CAS20, CAS30, SAML1, as CAS names them), and the names the
 * modules' service types give their own protocols (`moduleProtocols`), accepted and kept.
 * Empty or absent, every protocol.
 */
export function parseSupportedProtocols(
  value: unknown,
  moduleProtocols: readonly string[],
  fail: (field: string, problem: string) => InvalidServiceDefinitionError,
): { supportedProtocols?: readonly string[] } {
  if (value === undefined || value === null) return {};
  const known = [...VALIDATION_PROTOCOLS, ...moduleProtocols];
  const names = stringList(value);
  if (names === undefined) throw fail('supportedProtocols', `must be a list of protocol names (${known.join(', ')})`);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw fail('supportedProtocols', `${unknown.join(', ')}: no protocol tessera knows (write ${known.join(', ')})`);
  const protocols = [...new Set(names)];
  return protocols.length === 0 ? {} : { supportedProtocols: protocols };
}

/** As CAS writes the set. */
export function supportedProtocolsJson(protocols: readonly string[] | undefined): { supportedProtocols?: unknown[] } {
  return protocols === undefined ? {} : { supportedProtocols: javaSet(protocols) };
}
