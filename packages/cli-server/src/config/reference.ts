import { z } from 'zod';
import { configSchema } from './schema.js';

export const REFERENCE_START = '<!-- config-reference:start -->';
export const REFERENCE_END = '<!-- config-reference:end -->';

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

/** The Markdown table of every setting: name, type, default, description — all from the schema. */
export function renderConfigReference(): string {
  const root = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const rows = settingRows(root, '');
  return [
    '| Setting | Type | Default | Description |',
    '|---|---|---|---|',
    ...rows.map((row) => `| \`${row.setting}\` | ${cell(row.type)} | ${cell(row.defaultValue)} | ${cell(row.description)} |`),
  ].join('\n');
}

/** `readme` with the text between the reference markers replaced by the current reference. */
export function withConfigReference(readme: string): string {
  const start = readme.indexOf(REFERENCE_START);
  const end = readme.indexOf(REFERENCE_END);
  if (start < 0 || end < start) throw new Error(`README.md needs the markers ${REFERENCE_START} and ${REFERENCE_END}`);
  return `${readme.slice(0, start + REFERENCE_START.length)}\n${renderConfigReference()}\n${readme.slice(end)}`;
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
