/** Text fields refuse what no one types: C0 and C1 control characters (but tab and line breaks). */
import { describe, expect, it } from 'vitest';
import { text, textarea } from './fields';

const problem = (
  schema: {
    safeParse: (value: unknown) => { success: boolean; error?: { issues: { message: string }[] } };
  },
  value: string,
) => {
  const result = schema.safeParse(value);
  return result.success ? null : result.error?.issues[0]?.message;
};

describe('text fields', () => {
  const name = text('Title', { required: true }).schema;
  const notes = textarea('Notes').schema;

  it('refuse C0 and C1 control characters in any text', () => {
    for (const value of ['a\u0000b', 'a\u0007b', 'a\u007Fb', 'a\u0085b', 'a\u009Bb']) {
      expect(problem(name, value), JSON.stringify(value)).toBe(
        'Title must not contain control characters',
      );
      expect(problem(notes, value), JSON.stringify(value)).toBe(
        'Notes must not contain control characters',
      );
    }
  });
});
