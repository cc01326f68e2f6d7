/**
 * How strong a password is, with zxcvbn (offline dictionaries, no network): a score from 0
 * to 4 in words, and whether it is one of the most common breached passwords ('123456',
 * 'password123'). SPEC's rule stays the only refusal (at least 6 characters); this only
 * tells. The web app loads it in its own chunk once a password is typed (the dictionaries
 * are large); the server asks it at sign-up, to remember a common password.
 */
import { key } from './i18n/translate';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

export const COMMON_PASSWORD_MESSAGE = key(
  'This password is one of the most common. Anyone could guess it.',
);

/** zxcvbn's score, 0 to 4, in words. */
export const STRENGTH_LABELS = [
  key('Very weak'),
  key('Weak'),
  key('Fair'),
  key('Strong'),
  key('Very strong'),
] as const;

export interface PasswordStrength {
  score: 0 | 1 | 2 | 3 | 4;
  label: (typeof STRENGTH_LABELS)[number];
  /** Whether the whole password is one of the common breached ones, in any case. */
  common: boolean;
  /** What to say under the field, if anything. */
  message: string | null;
}

/** The list zxcvbn-ts names its common passwords by. */
const COMMON_PASSWORDS = 'passwords-common';

let factory: ZxcvbnFactory | undefined;

export function passwordStrength(password: string): PasswordStrength {
  factory ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  // zxcvbn's cost grows with the length; what lies past 100 characters changes nothing.
  const result = factory.check(password.slice(0, 100));
  const [only, ...others] = result.sequence;
  const common =
    others.length === 0 &&
    only?.pattern === 'dictionary' &&
    only.dictionaryName === COMMON_PASSWORDS &&
    only.token.length === password.length;
  const score = (common ? 0 : result.score) as PasswordStrength['score'];
  return {
    score,
    label: STRENGTH_LABELS[score],
    common,
    message: common ? COMMON_PASSWORD_MESSAGE : (result.feedback.warning ?? null),
  };
}
