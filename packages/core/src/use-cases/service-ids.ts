import type { RandomSource } from '../ports/random-source.js';
import type { ServiceRegistry } from '../ports/service-registry.js';

/**
 * A fresh service id: 48 random bits, as CAS generates ids, rather than max+1, which races when
 * several nodes share one store. A few draws always find a free id unless the random source is broken.
 */
export async function unusedServiceId(registry: ServiceRegistry, random: RandomSource): Promise<number> {
  for (let attempt = 0; attempt < 16; attempt++) {
    const id = random.bytes(6).reduce((number, byte) => number * 256 + byte, 0) + 1;
    if (!(await registry.findById(id))) return id;
  }
  throw new Error('No unused service id found in 16 random draws; is the random source working?');
}
