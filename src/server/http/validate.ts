/** Request validation with the shared zod schemas; a refusal names the field. */
import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { z } from 'zod';
import { validationErrorBody } from './validation';

export function validate<T extends keyof ValidationTargets, S extends z.ZodType>(
  target: T,
  schema: S,
) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) return c.json(validationErrorBody(result.error), 400);
  });
}
