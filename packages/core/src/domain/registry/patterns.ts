/** A pattern found anywhere in a value; null when it is no regular expression (it matches nothing). */
export function compileAnywhere(source: string, flags = ''): RegExp | null {
  try {
    return new RegExp(source, flags);
  } catch {
    return null;
  }
}
