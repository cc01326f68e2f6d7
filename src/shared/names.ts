/**
 * How a person's full name is shown: the greeting's first name and the avatar's initials.
 */
import { MAX_INITIALS } from './constants';

function nameParts(fullName: string | null | undefined): string[] {
  return (fullName ?? '').trim().split(/\s+/).filter(Boolean);
}

/** The first word of the full name, or 'User' when there is none. */
export function firstName(fullName: string | null | undefined): string {
  return nameParts(fullName)[0] ?? 'User';
}

/** A word that holds a letter or a digit: an emoji or a dash alone is not a name's word. */
const HAS_LETTER = /[\p{L}\p{N}]/u;

/** Up to two capital letters: the first letters of the first and last words of the name. */
export function initials(fullName: string | null | undefined, fallback = 'U'): string {
  // Each word from its first letter ('(Ana)' gives A), words without one left out.
  const parts = nameParts(fullName)
    .map((part) => part.slice(part.search(HAS_LETTER)))
    .filter((part) => HAS_LETTER.test(part));
  if (parts.length === 0) return fallback;
  const picked = parts.length === 1 ? [parts[0]] : [parts[0], parts[parts.length - 1]];
  const letters = picked
    .map((part) => Array.from(part ?? '')[0] ?? '')
    .join('')
    .toLocaleUpperCase();
  return Array.from(letters).slice(0, MAX_INITIALS).join('') || fallback;
}
