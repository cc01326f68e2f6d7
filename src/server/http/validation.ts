/**
 * Request validation with the shared zod schemas, and how a refused input is answered: 400
 * with the first problem's message, which names the field, plus every problem for clients
 * that want them all.
 */
import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { z } from 'zod';
import { BODY_NOT_OBJECT, type ErrorBody } from '../../shared/api-error';
import { key } from '../../shared/i18n/translate';
import { translateMessage } from '../i18n/server-language';

const INVALID_INPUT = key('Invalid input');

export interface FieldIssue {
  field: string;
  message: string;
}

function issueField(issue: z.core.$ZodIssue): string {
  return issue.path.map(String).join('.');
}

/** Any zod error: the classic ZodError or the core one some libraries hand over. */
type AnyZodError = { issues: z.core.$ZodIssue[] };

export function fieldIssues(error: AnyZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    field: issueField(issue),
    // In the request's language: the shared schemas' messages are made in it already; a
    // fixed one (a server schema's, this body's) is looked up.
    message: translateMessage(
      issue.path.length === 0 && issue.code === 'invalid_type' && issue.expected === 'object'
        ? BODY_NOT_OBJECT
        : issue.message,
    ),
  }));
}

export function firstIssue(error: AnyZodError): FieldIssue {
  return fieldIssues(error)[0] ?? { field: '', message: translateMessage(INVALID_INPUT) };
}

export interface ValidationErrorBody extends ErrorBody {
  issues: FieldIssue[];
}

export function validationErrorBody(error: AnyZodError): ValidationErrorBody {
  const issues = fieldIssues(error);
  const first = issues[0] ?? { field: '', message: translateMessage(INVALID_INPUT) };
  return { message: first.message, ...(first.field ? { field: first.field } : {}), issues };
}

/** Checks a request's body, query or params with a shared schema; a refusal names the field. */
export function validate<T extends keyof ValidationTargets, S extends z.ZodType>(
  target: T,
  schema: S,
) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) return c.json(validationErrorBody(result.error), 400);
  });
}
