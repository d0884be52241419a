import { X509Certificate } from 'node:crypto';
import { policyOf, type SamlServiceProvider, type SamlServiceProviderDefinition, type SignatureAlgorithm, type SpMetadata } from '@tessera/core/modules/saml2';
import { MetadataError, readSpMetadata } from './metadata.js';

/** Where an SP's metadata comes from, as its definition says (Apereo's `metadataLocation`, `metadataSignatureLocation`). */
export interface MetadataSource {
  readonly entityId: string;
  /** A file path (or `file:` URL), or an `https:` URL fetched and cached. */
  readonly metadataLocation: string;
  /** A file holding the PEM certificate the metadata must be signed with. */
  readonly metadataSignatureLocation?: string;
}

/** How the resolver reaches its sources: tessera's own, or a test's. */
export interface MetadataAccess {
  /** The body of an https URL, refused (thrown) unless the answer is 200 and at most `maxBytes`. */
  download(url: string, maxBytes: number): Promise<string>;
  readFile(path: string): Promise<string>;
  now(): number;
}

export interface MetadataResolverSettings {
  /** How long fetched metadata is kept before it is fetched again (less when it expires sooner). */
  readonly cacheSeconds: number;
  readonly maxBytes: number;
  readonly signatureAlgorithms: readonly SignatureAlgorithm[];
}

interface Cached {
  readonly metadata: SpMetadata;
  /** Epoch ms after which it is fetched (or read) again. */
  readonly refreshAt: number;
}

/**
 * SPs' metadata by their definitions, each read once and kept: a file until the cache time has passed
 * (so an edited file is read again), an https URL fetched again after `cacheSeconds` or when its
 * `validUntil` comes, whichever is first. Concurrent requests for one source share one fetch. When a
 * fetch fails, what was fetched before serves on while its own `validUntil` allows, and never after:
 * an SP whose metadata cannot be had is refused, naming why. With `metadataSignatureLocation` the
 * metadata must be signed with that certificate, checked on every fetch.
 */
export class SpMetadataResolver {
  private readonly cache = new Map<string, Cached>();
  private readonly pending = new Map<string, Promise<SpMetadata>>();

  constructor(
    private readonly settings: MetadataResolverSettings,
    private readonly access: MetadataAccess,
  ) {}

  async resolve(source: MetadataSource): Promise<SpMetadata> {
    const key = JSON.stringify([source.entityId, source.metadataLocation, source.metadataSignatureLocation ?? null]);
    const now = this.access.now();
    const cached = this.cache.get(key);
    if (cached !== undefined && now < cached.refreshAt) return cached.metadata;
    const running = this.pending.get(key);
    if (running !== undefined) return running;
    const loading = this.load(source, now)
      .then((metadata) => {
        const expires = metadata.validUntil ?? Infinity;
        this.cache.set(key, { metadata, refreshAt: Math.min(now + this.settings.cacheSeconds * 1000, expires) });
        return metadata;
      })
      .catch((error: unknown) => {
        if (cached !== undefined && (cached.metadata.validUntil ?? Infinity) > this.access.now()) return cached.metadata;
        this.cache.delete(key);
        throw error;
      })
      .finally(() => this.pending.delete(key));
    this.pending.set(key, loading);
    return loading;
  }

  private async load(source: MetadataSource, now: number): Promise<SpMetadata> {
    const { metadataLocation: location } = source;
    let xml: string;
    if (/^https:\/\//i.test(location)) {
      try {
        xml = await this.access.download(location, this.settings.maxBytes);
      } catch (error) {
        throw new MetadataError(`The metadata of ${source.entityId} could not be fetched from ${location}: ${(error as Error).message}`);
      }
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location) && !/^file:\/\//i.test(location)) {
      throw new MetadataError(`metadataLocation ${location} is neither a file nor an https URL`);
    } else {
      xml = await this.readLocal(location.replace(/^file:\/\//i, ''), 'metadataLocation');
    }
    const signedBy = source.metadataSignatureLocation === undefined ? undefined : certificateOf(await this.readLocal(source.metadataSignatureLocation.replace(/^file:\/\//i, ''), 'metadataSignatureLocation'), source.metadataSignatureLocation);
    return readSpMetadata(xml, { entityId: source.entityId, signatureAlgorithms: this.settings.signatureAlgorithms, maxBytes: this.settings.maxBytes, now, ...(signedBy !== undefined && { signedBy }) });
  }

  private async readLocal(path: string, setting: string): Promise<string> {
    try {
      return await this.access.readFile(path);
    } catch (error) {
      throw new MetadataError(`${setting} ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
}

function certificateOf(pem: string, location: string): string {
  try {
    return new X509Certificate(pem).toString();
  } catch {
    throw new MetadataError(`metadataSignatureLocation ${location} holds no PEM certificate`);
  }
}

/**
 * The SP of an entity id among the definitions: the one whose `serviceId` it is, its metadata resolved
 * (refused, naming why, when it cannot be had); undefined for an entity id no definition names.
 */
export function serviceProviderLookup(definitions: () => Promise<readonly SamlServiceProviderDefinition[]>, resolver: SpMetadataResolver): (entityId: string) => Promise<SamlServiceProvider | undefined> {
  return async (entityId) => {
    const definition = (await definitions()).find((candidate) => candidate.serviceId === entityId);
    if (definition === undefined) return undefined;
    const { metadataLocation, metadataSignatureLocation } = definition;
    const metadata = await resolver.resolve({ entityId, metadataLocation, ...(metadataSignatureLocation !== undefined && { metadataSignatureLocation }) });
    return { metadata, policy: policyOf(definition) };
  };
}
