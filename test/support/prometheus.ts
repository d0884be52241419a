import { expect } from 'chai';

/** One sample line: its full name (with a histogram's _bucket/_sum/_count), its labels, its value. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Family {
  readonly name: string;
  readonly type: string;
  readonly samples: Sample[];
}

export interface Scrape {
  /** The exposition as served. */
  readonly text: string;
  readonly families: ReadonlyMap<string, Family>;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
const SAMPLE_LINE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*,?)?\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL_PAIR = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"/g;
/** As Prometheus reads values (Go's ParseFloat): NaN and Inf in any case; prom-client writes `Nan`. */
const VALUE = /^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?|nan|[+-]?inf)$/i;
const TYPE_LINE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SUFFIXES: Readonly<Record<string, readonly string[]>> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count'] };

/**
 * A strict reader of the Prometheus text format 0.0.4: every line must be a comment, HELP, TYPE or a
 * well-formed sample of the family its TYPE line opened, or it throws naming the line.
 */
export function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  let current: Family | undefined;
  for (const line of text.split('\n')) {
    if (line === '' || (line.startsWith('#') && !line.startsWith('# TYPE '))) continue;
    const type = TYPE_LINE.exec(line);
    if (type) {
      if (families.has(type[1]!)) throw new Error(`family declared twice: ${line}`);
      current = { name: type[1]!, type: type[2]!, samples: [] };
      families.set(current.name, current);
      continue;
    }
    const sample = SAMPLE_LINE.exec(line);
    if (!sample || !VALUE.test(sample[3]!)) throw new Error(`not a sample line: ${line}`);
    const name = sample[1]!;
    const fits = current !== undefined && [current.name, ...(SUFFIXES[current.type] ?? []).map((suffix) => current!.name + suffix)].includes(name);
    if (!fits || current === undefined) throw new Error(`sample outside its family: ${line}`);
    const labels = Object.fromEntries([...(sample[2] ?? '').matchAll(LABEL_PAIR)].map(([, key, value]) => [key!, value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))]));
    current.samples.push({ name, labels, value: numberOf(sample[3]!) });
  }
  return families;
}

function numberOf(value: string): number {
  if (/nan$/i.test(value)) return Number.NaN;
  return /inf$/i.test(value) ? (value.startsWith('-') ? -Infinity : Infinity) : Number(value);
}

/** GET /metrics as Prometheus would, parsed strictly. */
export async function scrape(adminUrl: string): Promise<Scrape> {
  const response = await fetch(`${adminUrl}/metrics`);
  expect(response.status).to.equal(200);
  expect(response.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
  const text = await response.text();
  return { text, families: parseExposition(text) };
}

/** The value of the sample `name` (a family name, or with its _count/_sum/_bucket suffix) with exactly these labels; 0 when that series does not exist yet. */
export function valueOf(scraped: Scrape, name: string, labels: Readonly<Record<string, string>> = {}): number {
  const family = scraped.families.get(name) ?? scraped.families.get(name.replace(/_(bucket|sum|count)$/, ''));
  const wanted = JSON.stringify(Object.entries(labels).sort());
  const found = (family?.samples ?? []).filter((sample) => sample.name === name && JSON.stringify(Object.entries(sample.labels).sort()) === wanted);
  expect(found.length, `${name} ${wanted}`).to.be.at.most(1);
  return found[0]?.value ?? 0;
}
