/**
 * What the steps a first single sign-on may need carry (shared/single-sign-on.ts): the
 * passcode for a new account, the password to link an existing one. Apart, so that the
 * Sign In tab loads the validation library only when a step is shown.
 */
import { tr } from './i18n/translate';
import { z } from 'zod';
import { isWellFormedPasscode, PASSCODE_FORMAT_MESSAGE } from './passcode';

export const finishSingleSignOnSchema = z.object({
  passcode: z.string({ error: () => tr(PASSCODE_FORMAT_MESSAGE) }).refine(isWellFormedPasscode, {
    error: () => tr(PASSCODE_FORMAT_MESSAGE),
  }),
});

export const linkSingleSignOnSchema = z.object({
  password: z
    .string({ error: () => tr('Password is required') })
    .min(1, { error: () => tr('Password is required') })
    .max(1024, { error: () => tr('Password is too long') }),
});
