import { RegExpParser, type AST } from '@eslint-community/regexpp';
import type { ServiceDefinition } from './registered-service.js';

/**
 * Whether a URL pattern (a serviceId, a proxy policy's pattern) ties the URLs it matches to the
 * host it names. Matched as a whole, case ignored (service-matcher.ts), a pattern is pinned when in
 * each of its alternatives, after `scheme://`, the host is written out and is followed only by `/`,
 * `?`, `#`, `:` and a port, or the end:
 *
 * - `open-end`: something else may follow the host, so `^https://a\.example\.org.*` also matches
 *   `https://a.example.org.evil.example/` and `https://a.example.org@evil.example/`;
 * - `unescaped-dot`: a `.` of the host is not escaped, so `^https://a.example.org/.*` matches
 *   `https://aXexample.org/`, a host anyone may register (escaping the dots would pin it);
 * - `any-host`: the host is not written out (`^https://.*`, `^https://[a-z.]+/.*`), or its variable
 *   part is not followed by a domain of at least two labels (`[a-z0-9-]+\.example\.org` is pinned).
 *
 * The analysis may warn about a pattern whose extra URLs are harmless; it never calls pinned a
 * pattern that is not. Lookarounds and back-references count as matching anything.
 */
export type HostPinning = 'pinned' | 'open-end' | 'unescaped-dot' | 'any-host';

export function hostPinning(pattern: string): HostPinning {
  let parsed: AST.Pattern;
  try {
    parsed = new RegExpParser().parsePattern(pattern, 0, pattern.length, { unicode: false });
  } catch {
    // An invalid pattern matches nothing (service-matcher.ts), and the codecs refuse it anyway.
    return 'pinned';
  }
  const sequences = expandAlternatives(parsed.alternatives);
  if (sequences === undefined) return 'any-host';
  let verdict: HostPinning = 'pinned';
  for (const sequence of sequences) {
    const strict = sequencePinning(sequence, false);
    if (strict === 'pinned') continue;
    const found = sequencePinning(sequence, true) === 'pinned' ? 'unescaped-dot' : strict;
    if (SEVERITY[found] > SEVERITY[verdict]) verdict = found;
  }
  return verdict;
}

const SEVERITY: Record<HostPinning, number> = { pinned: 0, 'unescaped-dot': 1, 'open-end': 2, 'any-host': 3 };

/** What is said about one key of a valid definition: the key, dotted, and why. */
export interface KeyWarning {
  readonly field: string;
  readonly text: string;
}

/**
 * A definition's URL patterns whose host is not pinned: its serviceId, and the pattern of its proxy
 * policy (to which tessera sends proxy-granting tickets); none when all are pinned.
 */
export function unpinnedHosts(service: Pick<ServiceDefinition, 'serviceId' | 'proxyPolicy'>): KeyWarning[] {
  const warnings: KeyWarning[] = [];
  const serviceId = hostPinning(service.serviceId);
  if (serviceId !== 'pinned') warnings.push({ field: 'serviceId', text: `its host is not pinned: serviceId ${service.serviceId} ${WHY[serviceId]}` });
  const policy = service.proxyPolicy;
  if (policy?.kind === 'regex' && !policy.useServiceId && !policy.exactMatch && policy.pattern !== undefined) {
    const pgtUrl = hostPinning(policy.pattern);
    if (pgtUrl !== 'pinned') warnings.push({ field: 'proxyPolicy.pattern', text: `the host of its proxy callbacks is not pinned: proxyPolicy.pattern ${policy.pattern} ${WHY[pgtUrl]}` });
  }
  return warnings;
}

/** The service a warning is about, `service "Intranet" (id 3)`, as warnings name it. */
export function serviceWarningLabel(service: Pick<ServiceDefinition, 'id' | 'name'>): string {
  return `service "${service.name}"${service.id === undefined ? '' : ` (id ${service.id})`}`;
}

/** unpinnedHosts, each line naming the service. */
export function unpinnedHostWarnings(service: Pick<ServiceDefinition, 'id' | 'name' | 'serviceId' | 'proxyPolicy'>): string[] {
  return unpinnedHosts(service).map(({ text }) => `${serviceWarningLabel(service)}: ${text}`);
}

const WHY: Record<Exclude<HostPinning, 'pinned'>, string> = {
  'open-end': 'does not end the host, so it also matches URLs of other hosts (<host>.evil.example, <host>@evil.example); end the host with /, :port, ? or $',
  'unescaped-dot': 'has an unescaped . in its host, which matches any character, so it also matches URLs of other hosts; write each dot of the host as \\.',
  'any-host': 'matches URLs of any host; write the host out (its subdomains as [a-z0-9-]+\\.example\\.org) and end it with /, :port, ? or $',
};

type Sequence = readonly AST.Element[];

/** More alternatives than this (groups multiply them) are not looked into: such a pattern gets a warning. */
const MAX_SEQUENCES = 256;

/** Every alternative as a flat sequence: groups that are not quantified are expanded into their alternatives. */
function expandAlternatives(alternatives: readonly AST.Alternative[]): Sequence[] | undefined {
  const sequences: Sequence[] = [];
  for (const alternative of alternatives) {
    const expanded = expandSequence(alternative.elements);
    if (expanded === undefined) return undefined;
    sequences.push(...expanded);
    if (sequences.length > MAX_SEQUENCES) return undefined;
  }
  return sequences;
}

function expandSequence(elements: readonly AST.Element[]): Sequence[] | undefined {
  let sequences: Sequence[] = [[]];
  for (const element of elements) {
    if (element.type === 'Group' || element.type === 'CapturingGroup') {
      const inner = expandAlternatives(element.alternatives);
      if (inner === undefined) return undefined;
      sequences = sequences.flatMap((before) => inner.map((option) => [...before, ...option]));
    } else {
      sequences = sequences.map((before) => [...before, element]);
    }
    if (sequences.length > MAX_SEQUENCES) return undefined;
  }
  return sequences;
}

/** `dotIsLiteral`: read each `.` standing alone (not quantified) as `\.`, to tell whether escaping dots would pin the host. */
function sequencePinning(sequence: Sequence, dotIsLiteral: boolean): HostPinning {
  // Lookarounds and word boundaries only narrow what matches: leaving them out can only widen it.
  const elements = sequence.filter((element) => !isNarrowingAssertion(element));
  let index = 0;
  while (elements[index]?.type === 'Assertion' && (elements[index] as AST.Assertion).kind === 'start') index++;
  const separator = schemeSeparator(elements, index);
  if (separator === undefined) return 'any-host';
  if (!elements.slice(index, separator).every((element) => within(element, SCHEME_CHARACTERS, dotIsLiteral))) return 'any-host';
  const hostStart = separator + 3;
  let hostEnd = hostStart;
  while (hostEnd < elements.length && within(elements[hostEnd]!, HOST_CHARACTERS, dotIsLiteral)) hostEnd++;
  const host = elements.slice(hostStart, hostEnd);
  // An empty host is none: URL parsers skip the slash after `https://` and take what follows as the host.
  if (host.every(mayBeEmpty) || !hostIsNamed(host, dotIsLiteral)) return 'any-host';
  return restIsPinned(elements.slice(hostEnd), dotIsLiteral) ? 'pinned' : 'open-end';
}

function mayBeEmpty(element: AST.Element | AST.QuantifiableElement): boolean {
  if (element.type === 'Quantifier') return element.min === 0 || mayBeEmpty(element.element);
  if (element.type === 'Group' || element.type === 'CapturingGroup') return element.alternatives.some((alternative) => alternative.elements.every(mayBeEmpty));
  return false;
}

function isNarrowingAssertion(element: AST.Element): boolean {
  return element.type === 'Assertion' && (element.kind === 'lookahead' || element.kind === 'lookbehind' || element.kind === 'word');
}

/** The index of the first `://` written as three characters, from `start`. */
function schemeSeparator(elements: readonly AST.Element[], start: number): number | undefined {
  for (let index = start; index + 2 < elements.length; index++) {
    if (isCharacter(elements[index]!, ':') && isCharacter(elements[index + 1]!, '/') && isCharacter(elements[index + 2]!, '/')) return index;
  }
  return undefined;
}

function isCharacter(element: AST.Element, character: string): boolean {
  return element.type === 'Character' && element.value === character.charCodeAt(0);
}

/**
 * A host is named when it is written out, up to a finite choice (`(www\.)?`, `[ab]`), or when its
 * open part (`[a-z0-9-]+`) is followed by written-out labels of a domain: `.example.org`.
 */
function hostIsNamed(host: Sequence, dotIsLiteral: boolean): boolean {
  if (host.every((element) => isFixed(element, dotIsLiteral))) return true;
  let suffix = '';
  let index = host.length - 1;
  for (; index >= 0; index--) {
    const literal = literalCharacter(host[index]!, dotIsLiteral);
    if (literal === undefined) break;
    suffix = literal + suffix;
  }
  // `([a-z0-9-]+\.)*example\.org`: the open part ends with the dot before the domain.
  if (index >= 0 && endsWithDot(host[index]!)) suffix = `.${suffix}`;
  return /^\.[^.]+\.[^.]/.test(suffix);
}

function endsWithDot(element: AST.Element | AST.QuantifiableElement): boolean {
  if (element.type === 'Quantifier') return element.max > 0 && endsWithDot(element.element);
  if (element.type === 'Group' || element.type === 'CapturingGroup') {
    return element.alternatives.every((alternative) => {
      const last = alternative.elements.at(-1);
      return last !== undefined && endsWithDot(last);
    });
  }
  return literalCharacter(element, false) === '.';
}

/** Matches one text, or a few the author listed: a character, a one-character class, or an optional fixed group. */
function isFixed(element: AST.Element | AST.QuantifiableElement, dotIsLiteral: boolean): boolean {
  if (literalCharacter(element, dotIsLiteral) !== undefined) return true;
  switch (element.type) {
    case 'CharacterClass':
      return countCharacters(characterSet(element, false)) === 1;
    case 'Quantifier':
      return element.max <= 1 && isFixed(element.element, false);
    case 'Group':
    case 'CapturingGroup':
      return element.alternatives.every((alternative) => alternative.elements.every((inner) => isFixed(inner, false)));
    default:
      return false;
  }
}

function literalCharacter(element: AST.Element | AST.QuantifiableElement, dotIsLiteral: boolean): string | undefined {
  if (element.type === 'Character') return String.fromCharCode(element.value).toLowerCase();
  if (dotIsLiteral && element.type === 'CharacterSet' && element.kind === 'any' && element.parent.type !== 'Quantifier') return '.';
  return undefined;
}

// What may follow the host, one character at a time: a state machine over the classes of characters
// that matter to where a URL's host ends. Anything reaching OPEN lets the host go on, or gives it a user part.
const SLASH = 1;
const QUERY = 2;
const HASH = 4;
const COLON = 8;
const DIGIT = 16;
const OTHER = 32;
const SYMBOLS = [SLASH, QUERY, HASH, COLON, DIGIT, OTHER] as const;

type Position = 'after-host' | 'after-colon' | 'in-port' | 'past-host' | 'open';

function next(position: Position, symbol: number): Position {
  if (position === 'past-host' || position === 'open') return position;
  if (symbol === SLASH || symbol === QUERY || symbol === HASH) return 'past-host';
  if (symbol === DIGIT) return position === 'after-host' ? 'open' : 'in-port';
  if (symbol === COLON) return position === 'after-host' ? 'after-colon' : 'open';
  return 'open';
}

/** Whether no string the elements match takes a URL past its host other than by `/`, `?`, `#`, a port or the end. */
function restIsPinned(rest: Sequence, dotIsLiteral: boolean): boolean {
  const automaton = new Automaton(dotIsLiteral);
  const start = automaton.state();
  const accept = automaton.sequence(rest, start);
  const live = automaton.reaching(accept);
  const seen = new Set<string>();
  const queue: [number, Position, boolean][] = [[start, 'after-host', false]];
  while (queue.length > 0) {
    const [state, position, ended] = queue.pop()!;
    const key = `${state} ${position} ${ended}`;
    if (seen.has(key) || !live.has(state)) continue;
    seen.add(key);
    for (const target of automaton.empty.get(state) ?? []) queue.push([target, position, ended]);
    for (const target of automaton.ends.get(state) ?? []) queue.push([target, position, true]);
    if (ended) continue;
    for (const { to, symbols } of automaton.edges.get(state) ?? []) {
      if (!live.has(to)) continue;
      for (const symbol of SYMBOLS) {
        if ((symbols & symbol) === 0) continue;
        const after = next(position, symbol);
        if (after === 'open') return false;
        queue.push([to, after, false]);
      }
    }
  }
  return true;
}

/** Repetitions written out in the automaton; beyond them a repetition is read as unbounded, which only widens what matches. */
const MAX_REPETITIONS = 8;

/** A nondeterministic automaton over the symbols above (Thompson's construction). */
class Automaton {
  private count = 0;
  readonly edges = new Map<number, { to: number; symbols: number }[]>();
  readonly empty = new Map<number, number[]>();
  /** `$`: the input must end here; no character is read after it. */
  readonly ends = new Map<number, number[]>();

  constructor(private readonly dotIsLiteral: boolean) {}

  state(): number {
    return this.count++;
  }

  /** The elements in order from `from`; returns the state after them. */
  sequence(elements: Sequence, from: number): number {
    return elements.reduce((state, element) => this.element(element, state), from);
  }

  reaching(target: number): Set<number> {
    const backwards = new Map<number, number[]>();
    const link = (from: number, to: number) => backwards.set(to, [...(backwards.get(to) ?? []), from]);
    for (const [from, edges] of this.edges) for (const { to } of edges) link(from, to);
    for (const map of [this.empty, this.ends]) for (const [from, targets] of map) for (const to of targets) link(from, to);
    const found = new Set([target]);
    const queue = [target];
    while (queue.length > 0) {
      for (const from of backwards.get(queue.pop()!) ?? []) {
        if (!found.has(from)) {
          found.add(from);
          queue.push(from);
        }
      }
    }
    return found;
  }

  private element(element: AST.Element | AST.QuantifiableElement, from: number): number {
    switch (element.type) {
      case 'Assertion':
        if (element.kind === 'end') return this.link(this.ends, from);
        // `^` after the host cannot hold: nothing leaves it. Lookarounds and \b are read as always true.
        return element.kind === 'start' ? this.state() : this.link(this.empty, from);
      case 'Group':
      case 'CapturingGroup': {
        const to = this.state();
        for (const alternative of element.alternatives) this.addEmpty(this.sequence(alternative.elements, this.link(this.empty, from)), to);
        return to;
      }
      case 'Quantifier':
        return this.repeat(element, from);
      case 'Backreference':
        // Whatever the group matched: read as any text.
        return this.anyText(from);
      default: {
        const to = this.state();
        const edges = this.edges.get(from) ?? [];
        edges.push({ to, symbols: symbolsOf(characterSet(element, this.dotIsLiteral)) });
        this.edges.set(from, edges);
        return to;
      }
    }
  }

  private repeat(quantifier: AST.Quantifier, from: number): number {
    const min = Math.min(quantifier.min, MAX_REPETITIONS);
    const unbounded = quantifier.max > MAX_REPETITIONS;
    let state = from;
    for (let done = 0; done < min; done++) state = this.element(quantifier.element, state);
    if (unbounded) {
      const loop = this.link(this.empty, state);
      this.addEmpty(this.element(quantifier.element, loop), loop);
      return loop;
    }
    const to = this.state();
    for (let done = min; done < quantifier.max; done++) {
      this.addEmpty(state, to);
      state = this.element(quantifier.element, state);
    }
    this.addEmpty(state, to);
    return to;
  }

  private anyText(from: number): number {
    const loop = this.link(this.empty, from);
    this.edges.set(loop, [...(this.edges.get(loop) ?? []), { to: loop, symbols: SYMBOLS.reduce((all, symbol) => all | symbol, 0) }]);
    return loop;
  }

  private link(map: Map<number, number[]>, from: number): number {
    const to = this.state();
    map.set(from, [...(map.get(from) ?? []), to]);
    return to;
  }

  private addEmpty(from: number, to: number): void {
    this.empty.set(from, [...(this.empty.get(from) ?? []), to]);
  }
}

/** A set of characters: which of the 128 ASCII ones, and whether any beyond them. */
interface CharacterSet {
  readonly ascii: readonly boolean[];
  readonly beyond: boolean;
}

const SCHEME_CHARACTERS = asciiSet((code) => isAlphanumeric(code) || '+-.'.includes(String.fromCharCode(code)));
const HOST_CHARACTERS = asciiSet((code) => isAlphanumeric(code) || '-.'.includes(String.fromCharCode(code)));

function asciiSet(test: (code: number) => boolean, beyond = false): CharacterSet {
  return { ascii: Array.from({ length: 128 }, (_, code) => test(code)), beyond };
}

function isAlphanumeric(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** Whether every character the element (with what it holds) may match is in `allowed`. Assertions and back-references are not. */
function within(element: AST.Element | AST.QuantifiableElement, allowed: CharacterSet, dotIsLiteral: boolean): boolean {
  switch (element.type) {
    case 'Assertion':
    case 'Backreference':
      return false;
    case 'Quantifier':
      return within(element.element, allowed, false);
    case 'Group':
    case 'CapturingGroup':
      return element.alternatives.every((alternative) => alternative.elements.every((inner) => within(inner, allowed, false)));
    default: {
      const set = characterSet(element, dotIsLiteral);
      return !set.beyond && set.ascii.every((member, code) => !member || allowed.ascii[code]);
    }
  }
}

type CharacterElement = AST.Character | AST.CharacterClass | AST.CharacterSet | AST.ExpressionCharacterClass | AST.CharacterClassRange;

/** The characters one element matches, case ignored. */
function characterSet(element: CharacterElement | AST.ClassSetOperand | AST.ClassIntersection | AST.ClassSubtraction, dotIsLiteral: boolean): CharacterSet {
  switch (element.type) {
    case 'Character':
      return caseless(asciiSet((code) => code === element.value, element.value > 127));
    case 'CharacterClassRange':
      return caseless(asciiSet((code) => code >= element.min.value && code <= element.max.value, element.max.value > 127));
    case 'CharacterSet':
      return characterSetEscape(element, dotIsLiteral);
    case 'CharacterClass': {
      const members = element.elements.map((inner) => characterSet(inner, false));
      const union = asciiSet((code) => members.some((set) => set.ascii[code]), members.some((set) => set.beyond));
      return element.negate ? asciiSet((code) => !union.ascii[code], true) : union;
    }
    default:
      // Set operations and strings (the `v` flag, which serviceIds are never compiled with): read as anything.
      return asciiSet(() => true, true);
  }
}

function characterSetEscape(element: AST.CharacterSet, dotIsLiteral: boolean): CharacterSet {
  if (element.kind === 'any') return dotIsLiteral && element.parent.type !== 'Quantifier' ? asciiSet((code) => code === 0x2e) : asciiSet((code) => code !== 0x0a && code !== 0x0d, true);
  if (element.kind === 'property') return asciiSet(() => true, true);
  const positive =
    element.kind === 'digit'
      ? asciiSet((code) => code >= 0x30 && code <= 0x39)
      : element.kind === 'word'
        ? asciiSet((code) => isAlphanumeric(code) || code === 0x5f)
        : asciiSet((code) => (code >= 0x09 && code <= 0x0d) || code === 0x20, true);
  return element.negate ? asciiSet((code) => !positive.ascii[code], true) : positive;
}

/** With the other case of each ASCII letter (serviceIds are matched case ignored). */
function caseless(set: CharacterSet): CharacterSet {
  return asciiSet((code) => set.ascii[code] === true || (isAlphanumeric(code) && code >= 0x41 && set.ascii[code ^ 0x20] === true), set.beyond);
}

function countCharacters(set: CharacterSet): number {
  const letters = new Set(set.ascii.flatMap((member, code) => (member ? [String.fromCharCode(code).toLowerCase()] : [])));
  return letters.size + (set.beyond ? 2 : 0);
}

function symbolsOf(set: CharacterSet): number {
  let symbols = set.beyond ? OTHER : 0;
  set.ascii.forEach((member, code) => {
    if (!member) return;
    const character = String.fromCharCode(code);
    symbols |= character === '/' ? SLASH : character === '?' ? QUERY : character === '#' ? HASH : character === ':' ? COLON : code >= 0x30 && code <= 0x39 ? DIGIT : OTHER;
  });
  return symbols;
}
