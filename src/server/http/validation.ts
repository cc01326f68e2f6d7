/**
 * How a refused input is answered: 400 with the first problem's message, which names the
 * field, plus every problem for clients that want them all.
 */
import type { z } from 'zod';

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
  return error.issues.map((issue) => ({ field: issueField(issue), message: issue.message }));
}

export function firstIssue(error: AnyZodError): FieldIssue {
  return fieldIssues(error)[0] ?? { field: '', message: 'Invalid input' };
}

export interface ErrorBody {
  message: string;
  field?: string;
  issues?: FieldIssue[];
}

export function validationErrorBody(error: AnyZodError): ErrorBody {
  const issues = fieldIssues(error);
  const first = issues[0] ?? { field: '', message: 'Invalid input' };
  return { message: first.message, ...(first.field ? { field: first.field } : {}), issues };
}
