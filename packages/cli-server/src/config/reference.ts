import { z } from 'zod';
import { configSchema } from './schema.js';

export const REFERENCE_START = '<!-- config-reference:start -->';
export const REFERENCE_END = '<!-- config-reference:end -->';
/** The page the reference is written into, relative to the repository root. */
export const REFERENCE_PAGE = 'docs/configuration.md';

/** The parts of a JSON Schema the reference reads (zod's `toJSONSchema` output plus our `meta`). */
interface JsonSchema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly additionalProperties?: JsonSchema | boolean;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: unknown;
  readonly defaultText?: string;
  readonly typeText?: string;
  readonly description?: string;
}

interface Row {
  readonly setting: string;
  readonly type: string;
  readonly defaultValue: string;
  readonly description: string;
}

/**
 * The reference of every setting, one table per top-level setting (`server`, `x509`, …) under a
 * heading of its name, so that other pages can link to a section: name, type, default,
 * description, all from the schema.
 */
export function renderConfigReference(): string {
  const root = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const sections = new Map<string, Row[]>();
  for (const row of settingRows(root, '')) {
    const section = /^[^.[]+/.exec(row.setting)![0];
    sections.set(section, [...(sections.get(section) ?? []), row]);
  }
  return [...sections]
    .map(([section, rows]) =>
      [
        `### \`${section}\``,
        '',
        '| Setting | Type | Default | Description |',
        '|---|---|---|---|',
        ...rows.map((row) => `| \`${row.setting}\` | ${cell(row.type)} | ${cell(row.defaultValue)} | ${cell(row.description)} |`),
      ].join('\n'),
    )
    .join('\n\n');
}

/** `page` with the text between the reference markers replaced by the current reference. */
export function withConfigReference(page: string): string {
  const start = page.indexOf(REFERENCE_START);
  const end = page.indexOf(REFERENCE_END);
  if (start < 0 || end < start) throw new Error(`${REFERENCE_PAGE} needs the markers ${REFERENCE_START} and ${REFERENCE_END}`);
  return `${page.slice(0, start + REFERENCE_START.length)}\n${renderConfigReference()}\n${page.slice(end)}`;
}

function settingRows(schema: JsonSchema, prefix: string): Row[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const setting = prefix ? `${prefix}.${name}` : name;
    // A section (server, tickets, ...) has no text of its own: its settings speak for it.
    if (property.properties && property.description === undefined) return settingRows(property, setting);
    const required = schema.required?.includes(name) ?? false;
    const row = { setting, type: typeText(property), defaultValue: defaultText(property, required), description: property.description ?? '' };
    return property.items?.properties ? [row, ...settingRows(property.items, `${setting}[]`)] : [row];
  });
}

function typeText(schema: JsonSchema): string {
  if (schema.typeText !== undefined) return schema.typeText;
  if (schema.enum) {
    const values = schema.enum.map((value) => `\`${String(value)}\``);
    return values.length === 2 ? values.join(' or ') : `one of ${values.join(', ')}`;
  }
  switch (schema.type) {
    case 'integer':
      return schema.maximum === undefined || schema.maximum >= Number.MAX_SAFE_INTEGER
        ? `integer ≥ ${schema.minimum ?? 0}`
        : `integer ${schema.minimum ?? 0}–${schema.maximum}`;
    case 'array':
      return schema.items?.properties ? 'list of maps' : schema.items?.type ? `list of ${schema.items.type}s` : 'list';
    case 'object':
      return 'map';
    default:
      return schema.type ?? 'any';
  }
}

function defaultText(schema: JsonSchema, required: boolean): string {
  if (schema.defaultText !== undefined) return schema.defaultText;
  if (schema.default === undefined) return required ? 'required' : '—';
  return `\`${typeof schema.default === 'string' ? schema.default : JSON.stringify(schema.default)}\``;
}

/** Table cells hold one line and no bare pipe. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}
