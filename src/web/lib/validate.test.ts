import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { parseOrShowError } from './validate';

const { toastError } = vi.hoisted(() => ({ toastError: vi.fn() }));
vi.mock('sonner', () => ({ toast: { error: toastError } }));

const schema = z.object({
  password: z.string().min(1, { error: 'Password is required' }),
  code: z.string().trim().optional(),
});

describe('parseOrShowError', () => {
  beforeEach(() => toastError.mockClear());

  it('returns the parsed values and shows nothing when they pass', () => {
    const onInvalid = vi.fn();
    expect(parseOrShowError(schema, { password: 'x', code: ' 1 ' }, 'Error', onInvalid)).toEqual({
      password: 'x',
      code: '1',
    });
    expect(toastError).not.toHaveBeenCalled();
    expect(onInvalid).not.toHaveBeenCalled();
  });

  it('shows the first problem as a toast with the given title, and hands it on', async () => {
    const onInvalid = vi.fn();
    const values = { password: '', code: 5 };
    expect(parseOrShowError(schema, values, 'Error deleting account', onInvalid)).toBeUndefined();
    // The toast library loads with the first toast (lib/toast.ts).
    await vi.waitFor(() => expect(toastError).toHaveBeenCalledTimes(1));
    expect(toastError).toHaveBeenCalledWith(
      'Error deleting account',
      expect.objectContaining({ description: 'Password is required' }),
    );
    expect(onInvalid).toHaveBeenCalledWith({ field: 'password', message: 'Password is required' });
  });

  it('names no field for a problem with the whole value', () => {
    const onInvalid = vi.fn();
    parseOrShowError(schema, 'not an object', 'Error', onInvalid);
    expect(onInvalid).toHaveBeenCalledWith({ field: undefined, message: expect.any(String) });
  });
});
