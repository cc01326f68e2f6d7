/**
 * Business constants of the product (SPEC.md §9) and the input limits the server enforces.
 */
import { key } from './i18n/translate';

export const APP_NAME = 'Kin Health';
export const APP_TAGLINE = key("Your family's health, in one private place");

export const PASSCODE_LENGTH = 6;
export const PASSWORD_MIN_LENGTH = 6;
/** better-auth's own ceiling for a password; longer ones are refused before hashing. */
export const PASSWORD_MAX_LENGTH = 128;
export const MAX_INITIALS = 2;

export const MEMBER_COLORS = [
  '#20c997',
  '#3b82f6',
  '#8b5cf6',
  '#ec4899',
  '#f59e0b',
  '#10b981',
] as const;
export type MemberColor = (typeof MEMBER_COLORS)[number];
/**
 * Each member colour's name in words: a swatch is named by its hex value (CONTRACT §2), and
 * described by this, so that a screen reader says 'Blue', not only '#3b82f6'.
 */
export const MEMBER_COLOR_NAMES: Record<MemberColor, string> = {
  '#20c997': key('Teal'),
  '#3b82f6': key('Blue'),
  '#8b5cf6': key('Violet'),
  '#ec4899': key('Pink'),
  '#f59e0b': key('Amber'),
  '#10b981': key('Green'),
};
export const DEFAULT_MEMBER_COLOR: MemberColor = '#20c997';

/** Limits on free text, so one request can never store an unbounded blob. */
export const NAME_MAX_LENGTH = 200;
export const SHORT_TEXT_MAX_LENGTH = 500;
export const LONG_TEXT_MAX_LENGTH = 10_000;

/** Page size of the timeline and of record lists. */
export const PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** `?contacts=whole-family`: a person's export carries the whole family's contacts too. */
export const WHOLE_FAMILY_CONTACTS = 'whole-family';
