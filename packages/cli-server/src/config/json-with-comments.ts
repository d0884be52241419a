import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** JSON as Apereo CAS writes service files: `//` and `/* *\/` comments and trailing commas allowed. */
export function parseJsonWithComments(text: string): { value: unknown } | { problem: string } {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true, allowEmptyContent: false });
  const [first] = errors;
  if (!first) return { value };
  const { line, column } = position(text, first.offset);
  return { problem: `not valid JSON: ${words(printParseErrorCode(first.error))} at line ${line}, column ${column}` };
}

/** 1-based line and column of a character offset. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

/** `CloseBraceExpected` → `close brace expected`. */
function words(code: string): string {
  return code.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();
}
