/**
 * Field helpers: each one is a form field (kind, label, options) and the zod schema that
 * validates it, with messages that name the field. Record definitions are built from them,
 * so the browser form and the API route check a value with the very same rule.
 */
import { z } from 'zod';
import { LONG_TEXT_MAX_LENGTH, NAME_MAX_LENGTH, SHORT_TEXT_MAX_LENGTH } from '../constants';
import {
  addDays,
  CALENDAR_SLACK_DAYS,
  calendarDayOf,
  EARLIEST_YEAR,
  isCalendarDate,
  isTimestamp,
  latestToday,
  toUtcTimestamp,
} from '../date-values';
import { MEASURES, outOfRangeMessage, type MeasureName } from '../units';
import { key, tr } from '../i18n/translate';

export type FieldKind =
  | 'text'
  | 'textarea'
  | 'email'
  | 'tel'
  | 'date'
  | 'datetime'
  | 'number'
  | 'select'
  | 'checkbox'
  | 'member'
  | 'persons';

export interface ChoiceOption {
  value: string;
  label: string;
}

export interface FieldSpec<S extends z.ZodType = z.ZodType> {
  kind: FieldKind;
  label: string;
  required: boolean;
  schema: S;
  /** Select options, in display order. */
  options?: readonly ChoiceOption[];
  /** A select's label for no choice ('Select…' unless told). */
  emptyLabel?: string;
  /** The label of an accepted value the options do not offer (a code from an import). */
  describe?: (value: string) => string | undefined;
  /** The value a new form starts with. */
  initial: string | boolean | readonly string[];
  /** Rows of a multi-line input. */
  rows?: number;
  maxLength?: number;
  /**
   * A date that cannot come before the birth of the person the record is about (a shot, a
   * visit, a diagnosis); the server checks it against the family member's Date of Birth.
   */
  sinceBirth?: boolean;
  /**
   * Suggestions of a text input (a <datalist>): choosing one fills other fields of the form,
   * and `codeField` (the code the suggestion carries) is emptied when the text is none of them.
   */
  suggest?: {
    codeField: string;
    options: readonly { value: string; fills: Readonly<Record<string, string>> }[];
  };
  /** A number field's measure: stored in its canonical unit, typed and shown in the user's. */
  measure?: MeasureName;
  /** A moment a new record's form starts at: the present (vitals' 'Measured At'). */
  startsNow?: boolean;
}

/*
 * Messages are worded when a value is checked, not when the field is made: in the language
 * in force then (the browser's chosen language, the request's on the server). A field's
 * label is a key of the catalogue, translated where it is named.
 */
/** A choice's label in the language in force ('Severe'); a value it does not offer as it is. */
export function choiceLabel(field: FieldSpec | undefined, value: string): string {
  const label = field?.options?.find((option) => option.value === value)?.label;
  return label ? tr(label) : value;
}

const requiredMessage = (label: string) => tr('{label} is required', { label: tr(label) });
const tooLongMessage = (label: string, max: number) =>
  tr('{label} must be at most {max} characters', { label: tr(label), max });

/**
 * Control characters (C0 but tab and line breaks, DEL, C1), the bidirectional overrides and
 * isolates that make text read other than it is stored (a name that spoofs another), and
 * unpaired surrogates are not text anyone typed, and PostgreSQL cannot store a NUL: such a
 * value is refused, not mangled. Right-to-left scripts need none of them.
 */
/* eslint-disable no-control-regex -- matching control characters is the point */
const NOT_TEXT =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/* eslint-enable no-control-regex */

/** A text value as it arrives: a string, or nothing. Anything else is refused by name. */
function textInput(label: string) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? requiredMessage(label)
          : tr('{label} must be text', { label: tr(label) }),
    })
    .refine((value) => !NOT_TEXT.test(value), {
      error: () => tr('{label} must not contain control characters', { label: tr(label) }),
    })
    .nullish();
}

function requiredText(label: string, max: number) {
  return textInput(label)
    .transform((value) => value?.trim() ?? '')
    .refine((value) => value.length > 0, { error: () => requiredMessage(label) })
    .refine((value) => value.length <= max, { error: () => tooLongMessage(label, max) });
}

function optionalText(label: string, max: number) {
  return textInput(label)
    .transform((value) => value?.trim() || null)
    .refine((value) => value === null || value.length <= max, {
      error: () => tooLongMessage(label, max),
    });
}

interface TextOptions {
  required?: boolean;
  max?: number;
}

function textField(kind: 'text' | 'textarea' | 'email' | 'tel', defaultMax: number) {
  function build(
    label: string,
    options: TextOptions & { required: true },
  ): FieldSpec<ReturnType<typeof requiredText>>;
  function build(
    label: string,
    options?: TextOptions & { rows?: number },
  ): FieldSpec<ReturnType<typeof optionalText>>;
  function build(
    label: string,
    options: TextOptions & { rows?: number } = {},
  ): FieldSpec<ReturnType<typeof requiredText> | ReturnType<typeof optionalText>> {
    const max = options.max ?? defaultMax;
    return {
      kind,
      label,
      required: options.required === true,
      schema: options.required ? requiredText(label, max) : optionalText(label, max),
      initial: '',
      maxLength: max,
      ...(kind === 'textarea' ? { rows: options.rows ?? 4 } : {}),
    };
  }
  return build;
}

/** A one-line text input. */
export const text = textField('text', NAME_MAX_LENGTH);
/** A multi-line text input (4 rows unless told). */
export const textarea = textField('textarea', LONG_TEXT_MAX_LENGTH);
/** An email input. */
export const email = (label: string) => {
  const field = textField('email', SHORT_TEXT_MAX_LENGTH)(label);
  return {
    ...field,
    schema: field.schema.refine((value) => value === null || z.email().safeParse(value).success, {
      error: () => tr('{label} must be an email address', { label: tr(label) }),
    }),
  };
};
/** A telephone input. */
export const tel = textField('tel', 50);

function dateInput(label: string, isValid: (value: string) => boolean, notValid: () => string) {
  return (
    textInput(label)
      .transform((value) => value?.trim() || null)
      // A value that is no date stops here: the rules after it read it as one.
      .refine((value) => value === null || isValid(value), {
        error: notValid,
        abort: true,
      })
      .refine((value) => value === null || Number(value.slice(0, 4)) >= EARLIEST_YEAR, {
        error: () =>
          tr('{label} cannot be before {year}', { label: tr(label), year: EARLIEST_YEAR }),
      })
  );
}

const notCalendarDate = (label: string) => () =>
  tr('{label} must be a date (YYYY-MM-DD)', { label: tr(label) });
const notTimestamp = (label: string) => () =>
  tr('{label} must be a date and time', { label: tr(label) });

export const futureDateMessage = (label: string) =>
  tr('{label} cannot be in the future', { label: tr(label) });

interface DateOptions {
  required?: boolean;
  /** The date something happened (a diagnosis, a birth): never after today. */
  happened?: boolean;
  /** Never before the Date of Birth of the person the record is about. */
  sinceBirth?: boolean;
  /** A new record's form starts at the present (a measurement is mostly typed as it is taken). */
  startsNow?: boolean;
}

function dateField(
  kind: 'date' | 'datetime',
  label: string,
  base: z.ZodType<string | null, unknown>,
  options: DateOptions,
): FieldSpec {
  let schema = base;
  if (options.happened) {
    schema = schema.refine((value) => value === null || dayOfDateValue(value) <= latestToday(), {
      error: () => futureDateMessage(label),
    });
  }
  if (options.required) {
    schema = schema.refine((value) => value !== null, { error: () => requiredMessage(label) });
  }
  return {
    kind,
    label,
    required: options.required === true,
    schema,
    initial: '',
    ...(options.sinceBirth ? { sinceBirth: true } : {}),
    ...(options.startsNow ? { startsNow: true } : {}),
  };
}

/** A calendar date, `YYYY-MM-DD`, that never shifts with the time zone. */
export function date(
  label: string,
  options: DateOptions & { required: true },
): FieldSpec<z.ZodType<string, unknown>>;
export function date(
  label: string,
  options?: DateOptions & { required?: false },
): FieldSpec<z.ZodType<string | null, unknown>>;
export function date(label: string, options: DateOptions = {}): FieldSpec {
  return dateField(
    'date',
    label,
    dateInput(label, isCalendarDate, notCalendarDate(label)),
    options,
  );
}

/** A moment in time, stored as a UTC ISO timestamp and shown in the browser's zone. */
export function dateTime(
  label: string,
  options: DateOptions & { required: true },
): FieldSpec<z.ZodType<string, unknown>>;
export function dateTime(
  label: string,
  options?: DateOptions & { required?: false },
): FieldSpec<z.ZodType<string | null, unknown>>;
export function dateTime(label: string, options: DateOptions = {}): FieldSpec {
  const base = dateInput(label, isTimestamp, notTimestamp(label)).transform((value) =>
    value === null ? null : toUtcTimestamp(value),
  );
  return dateField('datetime', label, base, options);
}

/** The calendar day of a date field's value: a calendar date itself, a timestamp's day. */
function dayOfDateValue(value: string): string {
  return isCalendarDate(value) ? value : calendarDayOf(value);
}

/** The person a record is about, as far as its dates go. */
export interface BornPerson {
  name: string;
  date_of_birth: string | null;
}

/**
 * The first date of a record that lies before the birth of the person it is about, as a
 * field and a message naming it; null when there is none. The server reads a day either
 * side of the birth as on it, for a visit's time read in another zone.
 */
export function beforeBirthIssue(
  fields: Readonly<Record<string, FieldSpec>>,
  values: Readonly<Record<string, unknown>>,
  person: BornPerson | null | undefined,
): { field: string; message: string } | null {
  const born = person?.date_of_birth;
  if (!person || !born) return null;
  // A family history entry is a relative's condition, from before the person was born.
  if (values.is_family_history === true) return null;
  const earliest = addDays(born, -CALENDAR_SLACK_DAYS);
  for (const [name, field] of Object.entries(fields)) {
    const value = values[name];
    if (!field.sinceBirth || typeof value !== 'string' || value === '') continue;
    if (dayOfDateValue(value) < earliest) {
      return {
        field: name,
        message: tr("{label} cannot be before {name}'s Date of Birth ({date})", {
          label: tr(field.label),
          name: person.name,
          date: born,
        }),
      };
    }
  }
  return null;
}

type Choices = readonly [string, ...string[]];

function toOptions(values: Choices, labels?: Partial<Record<string, string>>): ChoiceOption[] {
  return values.map((value) => ({ value, label: labels?.[value] ?? value }));
}

function choiceInput<V extends Choices>(
  label: string,
  values: V,
  labels?: Partial<Record<string, string>>,
) {
  const names = toOptions(values, labels).map((option) => option.label);
  const allowed = new Set<string>(values);
  return textInput(label)
    .transform((value) => value?.trim() || null)
    .refine((value) => value === null || allowed.has(value), {
      error: () =>
        tr('{label} must be one of: {choices}', {
          label: tr(label),
          choices: names.map((name) => tr(name)).join(', '),
        }),
    })
    .transform((value) => value as V[number] | null);
}

/** A choice from a fixed list, optional: an empty choice is saved as null. */
export function choice<V extends Choices>(
  label: string,
  values: V,
  options: {
    labels?: Partial<Record<V[number], string>>;
    /** The label of the empty choice. */
    emptyLabel?: string;
  } = {},
): FieldSpec<z.ZodType<V[number] | null, unknown>> {
  return {
    kind: 'select',
    label,
    required: false,
    schema: choiceInput(label, values, options.labels),
    options: toOptions(values, options.labels),
    initial: '',
    ...(options.emptyLabel ? { emptyLabel: options.emptyLabel } : {}),
  };
}

/**
 * A code from a code set, offered as a short list of common choices: any code of the set
 * is accepted (one an import brought keeps its own name), the form offers the list.
 */
export function codeChoice(
  label: string,
  offered: readonly ChoiceOption[],
  codeSet: ReadonlyMap<string, string>,
  /** `notOne`: the message of a code outside the set, worded when a value is checked. */
  options: { emptyLabel: string; notOne: (label: string) => string },
): FieldSpec<z.ZodType<string | null, unknown>> {
  return {
    kind: 'select',
    label,
    required: false,
    schema: textInput(label)
      .transform((value) => value?.trim() || null)
      .refine((value) => value === null || codeSet.has(value), {
        error: () => options.notOne(label),
      }),
    options: offered,
    initial: '',
    emptyLabel: options.emptyLabel,
    describe: (value) => codeSet.get(value),
  };
}

/** A choice from a fixed list with a default: an empty choice is saved as the default. */
export function choiceWithDefault<V extends Choices>(
  label: string,
  values: V,
  defaultValue: V[number],
  options: { labels?: Partial<Record<V[number], string>> } = {},
): FieldSpec<z.ZodType<V[number], unknown>> {
  return {
    kind: 'select',
    label,
    required: false,
    schema: choiceInput(label, values, options.labels).transform((value) => value ?? defaultValue),
    options: toOptions(values, options.labels),
    initial: defaultValue,
  };
}

/** A yes/no switch; missing means no. */
export function flag(label: string): FieldSpec<z.ZodType<boolean, unknown>> {
  return {
    kind: 'checkbox',
    label,
    required: false,
    schema: z
      .boolean({ error: () => tr('{label} must be true or false', { label: tr(label) }) })
      .nullish()
      .transform((value) => value ?? false),
    initial: false,
  };
}

export const FAMILY_MEMBER_LABEL = key('Family Member');
/** A key: the server words it in the request's language. */
export const UNKNOWN_MEMBER_MESSAGE = key('Family Member must be one of your family members');

/**
 * A person's id: a family member's (a UUID) or an account holder's (better-auth's random
 * id), as a record names the person shared with the user who is the owner themself.
 */
export const isPersonId = (value: string): boolean =>
  z.uuid().safeParse(value).success || /^[A-Za-z0-9_-]{16,64}$/.test(value);

/**
 * The family member a record is about; empty means the user's own record. The server
 * checks that the id is one of the user's own members or a person shared with them to keep.
 */
export function familyMember(): FieldSpec<z.ZodType<string | null, unknown>> {
  return {
    kind: 'member',
    label: FAMILY_MEMBER_LABEL,
    required: false,
    schema: textInput(FAMILY_MEMBER_LABEL)
      .transform((value) => value?.trim() || null)
      .refine((value) => value === null || isPersonId(value), {
        error: () => tr(UNKNOWN_MEMBER_MESSAGE),
      }),
    initial: '',
  };
}

/** The most persons one record can name (a family, with room to spare). */
export const MAX_PERSONS = 100;
/** What a record with no persons ticked is shown as: everyone's. */
export const WHOLE_FAMILY = key('Whole family');

/**
 * The persons a record is for, as checkboxes (a contact's 'Cares For'): each an id of the
 * account holder or one of their members, none meaning the whole family. Not a column of
 * the record's table: the repository keeps them beside it (see records/record-persons.ts).
 */
export function persons(label: string): FieldSpec<z.ZodType<string[], unknown>> {
  const unknownPerson = () =>
    tr('{label} must name you or your family members', { label: tr(label) });
  return {
    kind: 'persons',
    label,
    required: false,
    schema: z
      .array(z.string({ error: unknownPerson }).refine(isPersonId, { error: unknownPerson }), {
        error: () => tr('{label} must be a list of persons', { label: tr(label) }),
      })
      .max(MAX_PERSONS, {
        error: () =>
          tr('{label} may name at most {max} persons', { label: tr(label), max: MAX_PERSONS }),
      })
      .nullish()
      .transform((ids) => [...new Set(ids ?? [])]),
    initial: [],
  };
}

/** The marker of a number outside its measure's plausible range (the form words it in the user's units). */
export const OUT_OF_RANGE = 'out_of_range';

/**
 * A number as it arrives, typed ('4,5') or sent as one: empty is null; what is no number, or
 * a fraction where a whole number is wanted, is refused by name; `check` words what is out
 * of range.
 */
function numberSchema(
  label: string,
  whole: boolean,
  outOfRange: (number: number) => { message: string; params?: Record<string, string> } | null,
) {
  const notNumber = () =>
    whole
      ? tr('{label} must be a whole number', { label: tr(label) })
      : tr('{label} must be a number', { label: tr(label) });
  return z
    .union([z.number(), z.string()], { error: notNumber })
    .nullish()
    .transform((value, context) => {
      if (value === null || value === undefined) return null;
      const text = typeof value === 'string' ? value.trim().replace(',', '.') : value;
      if (text === '') return null;
      const number =
        typeof text === 'number' ? text : /^[-+]?\d*\.?\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isFinite(number) || (whole && !Number.isInteger(number))) {
        context.addIssue({ code: 'custom', message: notNumber() });
        return z.NEVER;
      }
      const problem = outOfRange(number);
      if (problem) {
        context.addIssue({ code: 'custom', ...problem });
        return z.NEVER;
      }
      return number;
    });
}

/**
 * A measured number, in its measure's canonical unit (the form converts from the user's
 * units); empty is null. A value outside the measure's plausible range is refused by name.
 */
export function measurement(
  label: string,
  measure: MeasureName,
): FieldSpec<z.ZodType<number | null, unknown>> {
  const { min, max } = MEASURES[measure];
  return {
    kind: 'number',
    label,
    required: false,
    measure,
    schema: numberSchema(label, 'whole' in MEASURES[measure], (number) =>
      number < min || number > max
        ? { message: outOfRangeMessage(label, measure, 'metric'), params: { reason: OUT_OF_RANGE } }
        : null,
    ),
    initial: '',
  };
}

/** A count or amount with no unit of measure (pills on hand, refills left, a score). */
export interface AmountOptions {
  min: number;
  max: number;
  whole?: boolean;
  /** What a new form starts with ('1'). */
  initial?: string;
}

export const amountRangeMessage = (label: string, { min, max }: AmountOptions) =>
  tr('{label} must be between {min} and {max}', { label: tr(label), min, max });

/** A plain number: empty is null; outside `min`–`max` refused by name. */
export function amount(
  label: string,
  options: AmountOptions,
): FieldSpec<z.ZodType<number | null, unknown>> {
  return {
    kind: 'number',
    label,
    required: false,
    schema: numberSchema(label, options.whole ?? false, (number) =>
      number < options.min || number > options.max
        ? { message: amountRangeMessage(label, options) }
        : null,
    ),
    initial: options.initial ?? '',
  };
}
