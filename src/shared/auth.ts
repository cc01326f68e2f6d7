/**
 * Sign-up, sign-in and profile inputs (SPEC.md §2 Auth, §5). The same schemas check the
 * forms in the browser and the requests on the server.
 */
import { key, tr } from './i18n/translate';
import type { LanguageCode } from './i18n/languages';
import { z } from 'zod';
import type { UnitSystem } from './units';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants';
import { PASSCODE_FORMAT_MESSAGE, isWellFormedPasscode } from './passcode';
import { text } from './records/fields';

const passcode = z
  .string({ error: () => tr(PASSCODE_FORMAT_MESSAGE) })
  .refine(isWellFormedPasscode, { error: () => tr(PASSCODE_FORMAT_MESSAGE) });

export const emailAddress = z
  .string({ error: () => tr('Email is required') })
  .trim()
  .min(1, { error: () => tr('Email is required') })
  .pipe(z.email({ error: () => tr('Email must be a valid email address') }));

/** A key: the English names PASSWORD_MIN_LENGTH. */
export const PASSWORD_TOO_SHORT_MESSAGE = key('Password must be at least 6 characters');

/** The rules of a password being chosen (at sign-up, or a new one), in the field's words. */
export function newPassword(label: string) {
  return z
    .string({ error: () => tr('{label} is required', { label: tr(label) }) })
    .min(PASSWORD_MIN_LENGTH, {
      error: () =>
        tr('{label} must be at least {min} characters', {
          label: tr(label),
          min: PASSWORD_MIN_LENGTH,
        }),
    })
    .max(PASSWORD_MAX_LENGTH, {
      error: () =>
        tr('{label} must be at most {max} characters', {
          label: tr(label),
          max: PASSWORD_MAX_LENGTH,
        }),
    });
}

/** better-auth's sign-up body: `name` is the user's full name. */
export const signUpSchema = z.object({
  name: text(key('Full Name'), { required: true }).schema,
  email: emailAddress,
  password: newPassword('Password'),
  passcode,
});
export type SignUpInput = z.input<typeof signUpSchema>;

export const signInSchema = z.object({
  email: emailAddress,
  password: z
    .string({ error: () => tr('Password is required') })
    .min(1, { error: () => tr('Password is required') }),
  passcode,
});
export type SignInInput = z.input<typeof signInSchema>;

export const profileUpdateSchema = z.object({
  full_name: text(key('Full Name'), { required: true }).schema,
});

export interface Profile {
  id: string;
  email: string;
  full_name: string;
  /** Whether the password chosen at sign-up is one of the most common breached ones. */
  password_common: boolean;
  /** The vaccine schedule the account follows ('none' when off). */
  vaccine_schedule: string;
  /** The units measures are shown in ('metric' or 'us'). */
  units: UnitSystem;
  /** The language chosen in Profile Settings; null until one is. */
  language: LanguageCode | null;
}
