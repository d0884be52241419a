import { ticketFingerprint } from '@tessera/core';

/** An error as a log line may show it: an allow-list of its fields, its texts redacted. */
export interface RedactedError {
  readonly type: string;
  readonly message: string;
  readonly code?: string | number;
  readonly stack?: string;
  readonly cause?: RedactedError | string;
  readonly errors?: readonly RedactedError[];
}

/** Keys (compared in lower case) whose values never reach a line, whatever they hold (`otp` as in SECRET_NAMES). */
const SECRET_KEYS = ['password', 'passwordhash', 'bindpassword', 'authorization', 'proxy-authorization', 'cookie', 'otp', 'otpsecret', 'signingkey', 'encryptionkey'];

/**
 * Names whose value, after `=` or `:` in a text, is a secret. `otp` is a generic secret-looking name
 * here, beside `pwd` and `token`: defence in depth under the otp module's declared secret parameter,
 * for lines written before the configuration is read.
 */
const SECRET_NAMES = ['password', 'passwd', 'pwd', 'otp', 'token', 'secret', 'authorization', 'cookie'];

/** The password of a URL's user information (`redis://:secret@host`, `mongodb://user:secret@host`); one masked as `***` already stays so. */
const URL_PASSWORD = /(:\/\/[^\s/:@]*:)(?!\*+@)[^\s/@]+@/g;
const NAME_AND_SEPARATOR = /^([A-Za-z0-9._-]+["']?\s*[:=]\s*["']?)/;
const CREDENTIAL_SCHEME = /^(basic|bearer|digest|negotiate)\s/i;

const MAX_DEPTH = 6;
const MAX_CAUSES = 5;
const MAX_AGGREGATED = 10;

/** Every secret form above needs a character outside these: a letter past `f`, `=`, `:`, whitespace or `://`. */
const HEX_AND_DASHES = /^[0-9a-f-]*$/i;

const MAX_CLEAN_TEXTS = 4096;
const MAX_CLEAN_TEXT_LENGTH = 256;

/**
 * Secrets as they appear inside text: whole ticket ids (replaced by fingerprints), JWTs, the
 * credentials of an Authorization value, and the value after a secret name and `=` or `:` (a form
 * body or JSON quoted by a parser's message). One pass of one expression over each string.
 */
function secretTextPattern(names: readonly string[]): RegExp {
  const escaped = names.map((name) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'));
  return new RegExp(
    [
      String.raw`\b(?:TGT|ST|PT|PGT)-\d+-[A-Za-z0-9-]{8,}`,
      String.raw`\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_.-]*`,
      String.raw`\b(?:basic|bearer|digest|negotiate)\s+[A-Za-z0-9+/=._~-]{4,}`,
      String.raw`\b(?:${escaped.join('|')})(?:["']?\s*[:=]\s*["']?)(?:(?:basic|bearer|digest|negotiate)\s+)?[^\s"'&,;]+`,
    ].join('|'),
    'gi',
  );
}

/**
 * The one redaction step between anything tessera writes about itself (log lines, audit lines, the
 * messages of a failed start) and its reader. Nothing reaches a line without passing `redacted`:
 * - values under secret keys are replaced, at any depth;
 * - every string has whole ticket ids replaced by fingerprints, JWTs, Authorization credentials,
 *   URL passwords and `password=…`-like values taken out;
 * - an error keeps only its type, code, message and stack (then redacted as text) and its causes:
 *   the other fields libraries hang on errors (Node's parser puts the connection's raw bytes in
 *   `rawPacket`, drivers their commands and requests) never get through;
 * - binary data and anything nested deeper than a log line needs is left out.
 *
 * A server's loggers redact the secret request parameters its modules declare too (the otp
 * module's code under whatever name `otp.parameter` gives it): their names are secret keys and
 * secret names in text, for that server's lines only.
 */
export class Redaction {
  private readonly secretKeys: ReadonlySet<string>;
  private readonly secretText: RegExp;
  /**
   * Short texts found to hold nothing to take out. Log lines repeat the same names, addresses, service
   * URLs and endpoints request after request: a set lookup spares them the expressions. Only clean
   * texts are kept, so no secret stays here; the set starts over when full.
   */
  private readonly cleanTexts = new Set<string>();
  /** Whether a key (as written) is a secret key, decided once per key: lines repeat the same few keys. */
  private readonly secretKeyDecisions = new Map<string, boolean>();
  /**
   * JSON members (`"key":"value"`) of fields found clean, by key and value: the fields of event lines
   * repeat (a client, a principal, an address, an endpoint), and a member found once spares the next
   * line the redaction and the JSON escaping of its value. Kept only for clean short texts, as
   * `cleanTexts`, so no secret stays here; the map starts over when it holds MAX_CLEAN_TEXTS members.
   */
  private readonly cleanMembers = new Map<string, Map<string, string>>();
  private cleanMemberCount = 0;

  /** `secretParameters`: the names of the request parameters whose values are secrets, beside the standard ones. */
  constructor(secretParameters: Iterable<string> = []) {
    const parameters = [...secretParameters].map((name) => name.toLowerCase());
    this.secretKeys = new Set([...SECRET_KEYS, ...parameters]);
    this.secretText = secretTextPattern([...new Set([...SECRET_NAMES, ...parameters])]);
  }

  readonly redacted = (value: unknown): unknown => this.redactedValue(value, 0);

  /** A text with the secrets it may quote taken out (see secretTextPattern). */
  readonly redactedText = (text: string): string => {
    if (this.cleanTexts.has(text)) return text;
    // Hex digits and dashes (a request id, a hash) hold none of the secrets' forms, and such texts seldom repeat: kept out of the set.
    if (HEX_AND_DASHES.test(text)) return text;
    const redactedForm = this.textWithoutSecrets(text);
    if (redactedForm === text && text.length <= MAX_CLEAN_TEXT_LENGTH) {
      if (this.cleanTexts.size >= MAX_CLEAN_TEXTS) this.cleanTexts.clear();
      this.cleanTexts.add(text);
    }
    return redactedForm;
  };

  /**
   * One field of a JSON line as `"key":value`, the value redacted as `redacted` takes it out of an
   * object (a secret key's value replaced, texts redacted), and written as JSON.stringify writes a
   * member; undefined for a value JSON leaves out (undefined, a function, a symbol). A value JSON
   * cannot write (a BigInt) throws JSON's TypeError.
   */
  readonly jsonMember = (key: string, value: unknown): string | undefined => {
    if (typeof value === 'string') return this.textMember(key, value);
    // As in `redacted`: a secret key's value is replaced whatever it is, undefined included.
    if (this.isSecretKey(key)) return `${JSON.stringify(key)}:"[redacted]"`;
    switch (typeof value) {
      case 'number':
        return `${JSON.stringify(key)}:${Number.isFinite(value) ? String(value) : 'null'}`;
      case 'boolean':
        return `${JSON.stringify(key)}:${value}`;
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined;
      default: {
        // An object, null or a BigInt, nested as in `redacted`'s walk of the object around it.
        const json = JSON.stringify(this.redactedValue(value, 1)) as string | undefined;
        return json === undefined ? undefined : `${JSON.stringify(key)}:${json}`;
      }
    }
  };

  private textMember(key: string, text: string): string {
    const members = this.cleanMembers.get(key);
    const known = members?.get(text);
    if (known !== undefined) return known;
    if (this.isSecretKey(key)) return `${JSON.stringify(key)}:"[redacted]"`;
    // Hex digits and dashes (a request id) need no escaping, hold no secret, and seldom repeat: not kept.
    if (HEX_AND_DASHES.test(text)) return `${JSON.stringify(key)}:"${text}"`;
    const redactedForm = this.redactedText(text);
    const member = `${JSON.stringify(key)}:${JSON.stringify(redactedForm)}`;
    if (redactedForm === text && text.length <= MAX_CLEAN_TEXT_LENGTH) {
      if (this.cleanMemberCount >= MAX_CLEAN_TEXTS) {
        this.cleanMembers.clear();
        this.cleanMemberCount = 0;
      }
      let kept = this.cleanMembers.get(key);
      if (kept === undefined) this.cleanMembers.set(key, (kept = new Map<string, string>()));
      kept.set(text, member);
      this.cleanMemberCount += 1;
    }
    return member;
  }

  private isSecretKey(key: string): boolean {
    let secret = this.secretKeyDecisions.get(key);
    if (secret === undefined) {
      secret = this.secretKeys.has(key.toLowerCase());
      // Most keys come from code; whatever an object logged holds, the map stays bounded.
      if (this.secretKeyDecisions.size >= MAX_CLEAN_TEXTS) this.secretKeyDecisions.clear();
      this.secretKeyDecisions.set(key, secret);
    }
    return secret;
  }

  /** The allow-listed fields of an error, its texts redacted, its causes followed a few levels down. */
  readonly redactedError = (error: Error, depth = 0): RedactedError => {
    const code = (error as { code?: unknown }).code;
    const { cause } = error as { cause?: unknown };
    const aggregated = error instanceof AggregateError && Array.isArray(error.errors) ? (error.errors as unknown[]).slice(0, MAX_AGGREGATED) : [];
    return {
      type: typeof error.name === 'string' ? error.name : 'Error',
      message: this.redactedText(String(error.message)),
      ...((typeof code === 'string' || typeof code === 'number') && { code: typeof code === 'string' ? this.redactedText(code) : code }),
      ...(typeof error.stack === 'string' && { stack: this.redactedText(error.stack) }),
      ...(cause !== undefined &&
        depth < MAX_CAUSES && { cause: cause instanceof Error ? this.redactedError(cause, depth + 1) : this.redactedText(typeof cause === 'string' ? cause : `(a ${typeof cause})`) }),
      ...(aggregated.length > 0 && { errors: aggregated.map((item) => (item instanceof Error ? this.redactedError(item, depth + 1) : { type: typeof item, message: '(not an Error)' })) }),
    };
  };

  private textWithoutSecrets(text: string): string {
    const withoutUrlPasswords = text.includes('://') ? text.replace(URL_PASSWORD, '$1[redacted]@') : text;
    return withoutUrlPasswords.replace(this.secretText, (secret) => {
      if (/^(?:TGT|ST|PT|PGT)-/.test(secret)) return ticketFingerprint(secret);
      if (secret.startsWith('eyJ')) return '[jwt]';
      const scheme = CREDENTIAL_SCHEME.exec(secret);
      if (scheme) return `${scheme[1]} [redacted]`;
      return `${NAME_AND_SEPARATOR.exec(secret)?.[1] ?? ''}[redacted]`;
    });
  }

  /**
   * The value with secrets taken out, copied only where something was taken out: events are logged on
   * every request, and they hold fingerprints already, so almost every line goes through untouched.
   */
  private redactedValue(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.redactedText(value);
    if (typeof value !== 'object' || value === null) return value;
    if (value instanceof Error) return this.redactedError(value);
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `(${value.byteLength} bytes)`;
    if (depth >= MAX_DEPTH) return '(nested too deep)';
    if (Array.isArray(value)) return this.redactedList(value, depth);
    let copy: Record<string, unknown> | undefined;
    for (const key in value) {
      const item = (value as Record<string, unknown>)[key];
      const safe = this.isSecretKey(key) ? '[redacted]' : this.redactedValue(item, depth + 1);
      if (safe !== item) (copy ??= { ...value })[key] = safe;
    }
    return copy ?? value;
  }

  private redactedList(list: readonly unknown[], depth: number): unknown {
    let copy: unknown[] | undefined;
    list.forEach((item, index) => {
      const safe = this.redactedValue(item, depth + 1);
      if (safe !== item) (copy ??= [...list])[index] = safe;
    });
    return copy ?? list;
  }
}

/** The standard redaction: what every line gets, whatever the configuration (a failed start's messages, the CLI's output). */
export const STANDARD_REDACTION = new Redaction();

/** The value with the standard secrets taken out (Redaction). */
export const redacted = STANDARD_REDACTION.redacted;
/** A text with the standard secrets it may quote taken out. */
export const redactedText = STANDARD_REDACTION.redactedText;
/** The allow-listed fields of an error, its texts redacted with the standard secrets. */
export const redactedError = STANDARD_REDACTION.redactedError;
