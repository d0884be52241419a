/** A pattern found anywhere in a value; null when it is no regular expression (it matches nothing). */
export function compileAnywhere(source: string, flags = ''): RegExp | null {
  try {
    return new RegExp(source, flags);
  } catch {
    return null;
  }
}

/**
 * `compile`, run once per source and its result kept: a service's patterns are checked at every
 * request, and a definition's patterns are the same strings until it changes. Null results are kept
 * too. The flags `compile` uses must not carry state between matches (no g or y).
 */
export function compiledOnce(compile: (source: string) => RegExp | null): (source: string) => RegExp | null {
  const compiled = new Map<string, RegExp | null>();
  return (source) => {
    let pattern = compiled.get(source);
    if (pattern === undefined) {
      pattern = compile(source);
      compiled.set(source, pattern);
    }
    return pattern;
  };
}
