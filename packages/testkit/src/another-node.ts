/**
 * A second store over the data of the one the factory made last, as another node opens it. Without it
 * (one process is the whole cluster, as with memory) the cases across nodes run on that one store.
 */
export type AnotherNode<Store> = () => Store | Promise<Store>;

/** The store the factory made and another node's over the same data (the same store without `anotherNode`). */
export async function twoNodes<Store>(factory: () => Store | Promise<Store>, anotherNode: AnotherNode<Store> | undefined): Promise<[Store, Store]> {
  const store = await factory();
  return [store, (await anotherNode?.()) ?? store];
}
