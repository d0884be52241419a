/** The error a promise rejects with; a promise that resolves instead fails the test. */
export async function rejectionOf<E = Error>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (error) {
    return error as E;
  }
  throw new Error('expected a rejection');
}
