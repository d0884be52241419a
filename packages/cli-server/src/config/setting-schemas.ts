import { z } from 'zod';

/**
 * The shapes every settings section is built from, each with the error text the configuration
 * reports. A leaf module: schema.ts composes the sections, so the sections cannot import from it.
 */

/** A map of settings: unknown keys are errors, so a typo never passes for a default. */
export function section<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.strictObject(shape, { error: 'expected a map of settings' });
}

/** A whole number of at least `min`, up to `max` when given. */
export function integerFrom(min: number, max?: number) {
  const error = max === undefined ? `expected a whole number of at least ${min}` : `expected a number from ${min} to ${max}`;
  const atLeastMin = z.number({ error }).int({ error }).min(min, { error });
  return max === undefined ? atLeastMin : atLeastMin.max(max, { error });
}

export const positiveInteger = (max?: number) => integerFrom(1, max);

export const flag = () => z.boolean({ error: 'expected true or false' });

export const filePath = () => z.string({ error: 'expected a file path' }).min(1, { error: 'expected a file path' });
