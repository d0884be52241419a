import type { RevocationListSource } from '@tessera/core/modules/x509';
import type { RevocationList } from '../../pki/test-pki.js';

/** CRLs held in memory: `replace` stands for an operator replacing the CRL files. */
export class ListRevocationSource implements RevocationListSource {
  private lists: readonly Uint8Array[];
  constructor(lists: readonly RevocationList[] = []) {
    this.lists = lists.map((list) => list.der);
  }
  current(): Promise<readonly Uint8Array[]> {
    return Promise.resolve(this.lists);
  }
  replace(lists: readonly RevocationList[]): void {
    this.lists = lists.map((list) => list.der);
  }
}
