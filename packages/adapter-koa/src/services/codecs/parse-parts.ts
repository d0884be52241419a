import { InvalidServiceDefinitionError, type ServiceDefinitionProblem } from '@tessera/core';

/** Reads one part, its problems added to `problems` rather than thrown: undefined then. */
export function partReader(problems: ServiceDefinitionProblem[]) {
  return <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof InvalidServiceDefinitionError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  };
}

/** Each member as `read` reads it; the problems of every member thrown together, not the first one's only. */
export function readEach<T, R>(members: readonly T[], read: (member: T, index: number) => R): R[] {
  const problems: ServiceDefinitionProblem[] = [];
  const part = partReader(problems);
  const results = members.flatMap((member, index) => {
    const result = part(() => read(member, index));
    return result === undefined ? [] : [result];
  });
  throwAll(problems);
  return results;
}

/** Every problem at once, when there is one. */
export function throwAll(problems: readonly ServiceDefinitionProblem[]): void {
  const [first, ...more] = problems;
  if (first) throw new InvalidServiceDefinitionError(first.field, first.problem, ...more);
}

export function optionalBoolean(value: unknown, fallback: boolean, fail: () => Error): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw fail();
  return value;
}

export function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
