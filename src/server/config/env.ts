/**
 * What every part of the configuration reads the environment with: the error that stops the
 * start, and the zod helpers that turn a wrong variable into the sentence an operator reads.
 */
import { z } from 'zod';

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {}

/**
 * A variable whose empty value counts as unset, so the schema's default or `optional()`
 * applies: `PORT=` in a compose file means "the default", not "zero".
 */
export function unsetIfEmpty<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema);
}

/**
 * A variable's text, kept when `valid` says so. Otherwise the issue's message is `message`
 * of the text as it was given (never as a later step coerced it), so the sentence repeats
 * exactly what the operator wrote.
 */
export function checked(valid: (value: string) => boolean, message: (value: string) => string) {
  return z.string().refine((value) => valid(value), {
    error: (issue) => message(String(issue.input)),
    abort: true,
  });
}

/**
 * A transform's way to refuse: the issue that becomes the ConfigError's message.
 * `z.NEVER` is what the transform returns after it.
 */
export function refuse(ctx: z.RefinementCtx, message: string): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message, abort: true });
  return z.NEVER;
}

/**
 * The environment (or a value read from DATA_DIR) through `schema`. Its first issue stops the
 * start: the schemas list their variables in the order they were always checked, so of two
 * wrong variables the same one is named as before.
 */
export function parseEnv<T extends z.ZodType>(schema: T, env: unknown): z.output<T> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ConfigError(issue?.message ?? 'The configuration is not valid');
}
