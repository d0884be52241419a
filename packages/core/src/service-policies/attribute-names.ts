import type { AttributeMap } from '../domain/authentication/principal.js';

/**
 * The values of the attribute `name` names, its case ignored, as Apereo CAS's release policies and
 * username provider find a principal's attributes (in a map ordered case-insensitively): the attribute
 * of exactly that name when there is one, else the first whose name differs from it only in case.
 * The exact name costs one lookup; only a miss walks the attributes.
 */
export function valuesIgnoringCase(attributes: AttributeMap, name: string): readonly string[] | undefined {
  if (Object.hasOwn(attributes, name)) return attributes[name];
  const wanted = name.toLowerCase();
  for (const [each, values] of Object.entries(attributes)) if (each.toLowerCase() === wanted) return values;
  return undefined;
}
