/**
 * What the steps a first single sign-on may need carry (shared/single-sign-on.ts): the
 * passcode for a new account, the password to link an existing one. Apart, so that the
 * Sign In tab loads the validation library only when a step is shown.
 */
import { z } from 'zod';
import { isWellFormedPasscode, PASSCODE_FORMAT_MESSAGE } from './passcode';

export const finishSingleSignOnSchema = z.object({
  passcode: z.string({ error: PASSCODE_FORMAT_MESSAGE }).refine(isWellFormedPasscode, {
    message: PASSCODE_FORMAT_MESSAGE,
  }),
});

export const linkSingleSignOnSchema = z.object({
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(1024, 'Password is too long'),
});
