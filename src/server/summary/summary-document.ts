/**
 * The summary as a pdfmake document: a title block, then one table per section, each made by
 * `sectionTable` from a list of columns. Texts from records go in as plain text only, never as
 * links, images or any other node that would point somewhere.
 */
import type {
  Column as PdfColumn,
  Content,
  ContentTable,
  CustomTableLayout,
  TableCell,
  TDocumentDefinitions,
} from 'pdfmake/interfaces';
import type { PersonSummary, SummaryList } from '../../shared/person-summary';
import { formatCalendarDate, formatDateTime, formatDay } from './summary-dates';
import { shapedWidth, summaryFontFor, textWidth } from './summary-pdfmake';
import { isLeftToRight, paragraphLines } from './right-to-left-lines';
import { rangeText } from '../../shared/labs/lab-flag';
import { SEVERITY_MAX } from '../../shared/records/symptoms';
import { currentLanguage, key, tr } from '../../shared/i18n/translate';
import { formatList, formatNumber } from '../../shared/dates';
import { languageOf } from '../../shared/i18n/languages';
import { allergyDefinition } from '../../shared/records/allergies';
import { conditionDefinition } from '../../shared/records/conditions';
import { choiceLabel, type FieldSpec } from '../../shared/records/fields';
import { medicationDefinition } from '../../shared/records/medications';

// The summary's words are keys: each is shown in the language in force (`tr`), English as is.
export const APP_NAME = 'Kin Health';
export const TITLE = key('Health Summary');
export const EMPTY_SECTION = key('None recorded');
export const VACCINES_OVERDUE_HEADING = key('Vaccine Doses Overdue');
export const LAB_RESULTS_HEADING = key('Lab Results');
export const LATEST_VITALS_HEADING = key('Latest Vitals');
export const RECENT_SYMPTOMS_HEADING = key('Recent Symptoms');
/** Under a section that shows only its first rows (person-summary-source.ts `rowsPerSection`). */
export const NOT_SHOWN = key('…and {number} more, not shown in this summary');
export const NOT_CLINICAL_NOTE = key(
  'Prepared by the person or their family with Kin Health, from the records they keep. It is not a clinical document: please confirm anything important with the person and their care team.',
);

const ACCENT = '#20c997';
const INK = '#1f2a30';
const MUTED = '#5a6a72';
const HEADER_RULE = '#b9c4c9';
/** What an empty cell shows, so that a blank is never taken for a value lost in printing. */
const NO_VALUE = '–';

/**
 * A4 with margins that leave the page whole on Letter too (50 pt shorter, 17 pt wider) when a
 * printer centres or shrinks it. The content is 499 pt wide.
 */
const PAGE_MARGINS: [number, number, number, number] = [48, 48, 48, 60];
const CONTENT_WIDTH = 595.28 - PAGE_MARGINS[0] - PAGE_MARGINS[2];
const BODY_SIZE = 9;
/** The widest calendar date, 'September 30, 2030', at the body size, and a margin. */
const DATE_WIDTH = 86;
const CELL_GAP = 5;
const SECTION_SPACING: [number, number, number, number] = [0, 0, 0, 16];

interface Column<R> {
  header: string;
  /** Points, or '*' for what the other columns leave. */
  width: number | '*';
  value: (row: R) => string | null;
  /**
   * The summary's own words (a choice, a vaccine's name), set right to left in Arabic whatever
   * letter they start with, as the app shows them. Else a value reads in the direction of its
   * first letter, as what a person typed does ('250 mg', an English note).
   */
  ours?: true;
}

// The accent rule under a section's heading and a grey one under the column headers. Records
// are told apart by spacing alone: pdfmake draws a rule as one line per cell, thousands of
// them in a busy summary, for little gain in reading.
const sectionLayout: CustomTableLayout = {
  hLineWidth: (i) => (i === 1 ? 1.2 : i === 2 ? 0.6 : 0),
  hLineColor: (i) => (i === 1 ? ACCENT : HEADER_RULE),
  vLineWidth: () => 0,
  paddingLeft: (i) => (i === 0 ? 0 : CELL_GAP),
  paddingRight: (i, node) => (i === (node.table.widths?.length ?? 1) - 1 ? 0 : CELL_GAP),
  paddingTop: (i) => (i === 0 ? 0 : i === 1 ? 5 : 2.5),
  paddingBottom: (i) => (i <= 1 ? 3 : 2.5),
};
/** An empty section: its heading, the accent rule, and the words saying so. */
const emptySectionLayout: CustomTableLayout = {
  ...sectionLayout,
  hLineWidth: (i) => (i === 1 ? 1.2 : 0),
};

/** The width of each column's text: '*' columns share what the others and the gaps leave. */
function contentWidths<R>(columns: readonly Column<R>[]): number[] {
  const fixed = columns.reduce((sum, c) => sum + (c.width === '*' ? 0 : c.width), 0);
  const stars = columns.filter((c) => c.width === '*').length;
  const star = (CONTENT_WIDTH - fixed - 2 * CELL_GAP * (columns.length - 1)) / stars;
  return columns.map((c) => (c.width === '*' ? star : c.width));
}

/**
 * How many lines a text takes in a column, at least: the width of each paragraph over the
 * column's (with a margin), ignoring the room that wrapping between words wastes. It is exact
 * enough for the two things it decides, below. It leaves out kerning, which only narrows
 * DejaVu text, so a text it puts on one line does fit on one line.
 */
function estimatedLines(text: string, width: number, font: string, fontSize = BODY_SIZE): number {
  const paragraphs = text.includes('\n') ? text.split('\n') : [text];
  let lines = 0;
  for (const paragraph of paragraphs) {
    const measured = textWidth(paragraph, fontSize, font);
    lines += Math.max(1, Math.ceil(measured / (width * 0.98)));
  }
  return lines;
}

/**
 * A record stays whole on one page, and the first one with the headings, unless one of the
 * section's records has a value this many lines long (a long note): then records may break
 * across pages, since pdfmake cuts off a record it must keep whole that is taller than a page.
 */
const MAX_UNBROKEN_LINES = 20;

/**
 * A bookmark to the section, set on its first record: the heading row itself repeats on every
 * page of the table, and so would its bookmark.
 */
const bookmark = (heading: string) => ({ outline: true, outlineText: heading });

/**
 * One section: its heading and column headers repeat at the top of every page the table runs
 * onto, and the heading never ends a page without a record under it. With no records the
 * section says so.
 */
/** Whether the reader's language is written right to left (Arabic). */
const rightToLeft = () => languageOf(currentLanguage()).dir === 'rtl';

/** A style's size and weight: what the width of its text depends on. */
interface TextStyle {
  fontSize: number;
  bold?: boolean;
}

const BODY: TextStyle = { fontSize: BODY_SIZE };
const STYLES = {
  title: { fontSize: 11, bold: true, color: MUTED },
  name: { fontSize: 20, bold: true, margin: [0, 2, 0, 6] as [number, number, number, number] },
  label: { color: MUTED },
  note: { fontSize: 8, color: MUTED, margin: [0, 8, 0, 16] as [number, number, number, number] },
  sectionHeading: { fontSize: 12, bold: true },
  columnHeader: { fontSize: 8, bold: true, color: MUTED },
  footer: { fontSize: 7.5, color: MUTED },
};
const BIRTH_LINE: TextStyle = { fontSize: 10 };
const PAGE_NUMBER_WIDTH = 70;

/** Text as a table cell or paragraph gets it, and how many lines it takes. */
interface SetText {
  text: string | Content[];
  lines: number;
}

/**
 * Text in a right-to-left summary, `width` points wide: each paragraph broken into lines
 * here and each line cut into runs of one direction, side by side in the order they are seen
 * (right-to-left-lines.ts). pdfmake draws each run as one piece, laid out whole by fontkit
 * (which reverses a right-to-left one), and draws nothing out of order. A paragraph with
 * nothing right to left in it that reads left to right (a drug's name, '250 mg') is left to
 * pdfmake as it is. `direction` 'auto' reads a paragraph's direction from its first letter,
 * as a browser does for what a person typed; the summary's own words are right to left.
 */
function rtlText(
  text: string,
  width: number,
  style: TextStyle,
  font: string,
  direction: 'rtl' | 'auto' = 'rtl',
): SetText {
  const paragraphs = text.split('\n');
  if (paragraphs.every((paragraph) => isLeftToRight(paragraph, direction))) {
    return { text, lines: estimatedLines(text, width, font, style.fontSize) };
  }
  const measure = (piece: string) => shapedWidth(piece, style.fontSize, font, style.bold);
  // Each line measured run by run as pdfkit lays it out; half a point spare for rounding.
  const breaking = { measure, width: width - 0.5, direction };
  const pieces: Content[] = [];
  let lines = 0;
  paragraphs.forEach((paragraph, p) => {
    if (p > 0) pieces.push('\n');
    if (isLeftToRight(paragraph, direction)) {
      pieces.push(paragraph);
      lines += estimatedLines(paragraph, width, font, style.fontSize);
      return;
    }
    paragraphLines(paragraph, breaking).forEach((runs, l) => {
      if (l > 0) pieces.push('\n');
      // Font features, even none, make pdfkit lay a piece out as one run, not word by word.
      for (const run of runs) pieces.push({ text: run, noWrap: true, fontFeatures: [] });
      lines++;
    });
  });
  return { text: pieces, lines };
}

function sectionTable<R>(
  heading: string,
  rows: readonly R[],
  columns: readonly Column<R>[],
  font: string,
  notShown = 0,
): ContentTable {
  heading = tr(heading);
  const rtl = rightToLeft();
  const headingText = rtl
    ? rtlText(heading, CONTENT_WIDTH, STYLES.sectionHeading, font).text
    : heading;
  const headingCell: TableCell = { text: headingText, style: 'sectionHeading' };
  if (rows.length === 0) {
    return {
      table: {
        widths: ['*'],
        headerRows: 1,
        body: [
          [headingCell],
          [
            {
              text: rtl
                ? rtlText(tr(EMPTY_SECTION), CONTENT_WIDTH, BODY, font).text
                : tr(EMPTY_SECTION),
              color: MUTED,
              ...bookmark(heading),
            },
          ],
        ],
      },
      layout: emptySectionLayout,
    };
  }
  const headingRow: TableCell[] = [{ ...headingCell, colSpan: columns.length }];
  for (let i = 1; i < columns.length; i++) headingRow.push('');
  const widths = contentWidths(columns);
  const body: TableCell[][] = [
    headingRow,
    columns.map((column, c) => {
      const header = tr(column.header);
      const text = rtl ? rtlText(header, widths[c]!, STYLES.columnHeader, font).text : header;
      return { text, style: 'columnHeader' };
    }),
  ];
  let tallest = 0;
  rows.forEach((row, r) => {
    body.push(
      columns.map((column, c): TableCell => {
        const value = column.value(row) || NO_VALUE;
        // Right to left, broken into lines here; left to right, by pdfmake.
        const { text, lines } = rtl
          ? rtlText(value, widths[c]!, BODY, font, column.ours ? 'rtl' : 'auto')
          : { text: value, lines: estimatedLines(value, widths[c]!, font) };
        tallest = Math.max(tallest, lines);
        // pdfmake measures, places and draws text word by word, which is most of the time a
        // summary takes: a text that fits on one line goes over as one piece instead.
        const oneLine = lines === 1 && typeof text === 'string';
        if (r === 0 && c === 0) return { text, noWrap: oneLine, ...bookmark(heading) };
        return oneLine ? { text, noWrap: true } : typeof text === 'string' ? text : { text };
      }),
    );
  });
  // Right to left, the first column is the rightmost (the heading row spans them all).
  if (rtl) {
    widths.reverse();
    for (const row of body.slice(1)) row.reverse();
  }
  if (notShown > 0) {
    const words = tr(NOT_SHOWN, { count: notShown, number: formatNumber(notShown) });
    const text = rtl ? rtlText(words, CONTENT_WIDTH, BODY, font).text : words;
    const row: TableCell[] = [{ text, color: MUTED, colSpan: columns.length }];
    for (let i = 1; i < columns.length; i++) row.push('');
    body.push(row);
  }
  return {
    table: {
      // In points, '*' resolved: pdfmake widens a '*' column to its longest unbreakable word
      // (a pasted link), off the page; a column of fixed width breaks the word instead.
      widths,
      headerRows: 2,
      ...(tallest <= MAX_UNBROKEN_LINES ? { keepWithHeaderRows: 1, dontBreakRows: true } : {}),
      body,
    },
    layout: sectionLayout,
  };
}

/** The values given, one per line. */
const lines = (...values: (string | null | undefined)[]) => values.filter(Boolean).join('\n');

function coverage(from: string | null, until: string | null): string {
  if (from && until) return `${formatCalendarDate(from)} –\n${formatCalendarDate(until)}`;
  if (from) return tr('From {date}', { date: formatCalendarDate(from) });
  if (until) return tr('Until {date}', { date: formatCalendarDate(until) });
  return '';
}

const allergies = allergyDefinition.fields;
const medications = medicationDefinition.fields;
const conditions = conditionDefinition.fields;

/** A stored choice ('Severe') in the reader's language. */
function choice(field: FieldSpec, value: string | null): string | null {
  return value === null ? null : choiceLabel(field, value);
}

type Row<K extends keyof PersonSummary> = PersonSummary[K] extends readonly (infer R)[] ? R : never;

/** A column of a stored choice, in the reader's language. */
function choiceColumn<R>(
  header: string,
  width: number,
  field: FieldSpec,
  pick: (row: R) => string | null,
): Column<R> {
  return { header, width, ours: true, value: (row) => choice(field, pick(row)) };
}

/** Each table's columns: a heading, a width in points and what a row shows there. */
const ALLERGIES_COLUMNS: readonly Column<Row<'allergies'>>[] = [
  { header: key('Substance'), width: 104, value: (a) => a.substance },
  { header: key('Reaction'), width: '*', value: (a) => a.reaction },
  choiceColumn(key('Severity'), 40, allergies.severity, (a) => a.severity),
  choiceColumn(key('Category'), 52, allergies.category, (a) => a.category),
  choiceColumn(key('Status'), 38, allergies.status, (a) => a.status),
  { header: key('Noted'), width: DATE_WIDTH, value: (a) => formatCalendarDate(a.noted_date) },
];

const CURRENT_MEDICATIONS_COLUMNS: readonly Column<Row<'current_medications'>>[] = [
  { header: key('Medication'), width: '*', value: (m) => m.medication_name },
  { header: key('Dose'), width: 56, value: (m) => m.dosage },
  {
    header: key('Schedule'),
    width: 80,
    ours: true,
    value: (m) =>
      lines(
        choice(medications.frequency, m.frequency),
        formatList(m.times_of_day.map((time) => tr(time))),
      ),
  },
  { header: key('For'), width: 72, value: (m) => m.condition },
  { header: key('Prescribed by'), width: 74, value: (m) => m.prescribed_doctor },
  { header: key('Since'), width: DATE_WIDTH, value: (m) => formatCalendarDate(m.start_date) },
];

const CONDITIONS_COLUMNS: readonly Column<Row<'conditions'>>[] = [
  { header: key('Condition'), width: 140, value: (c) => c.condition_name },
  choiceColumn(key('Status'), 72, conditions.status, (c) => c.status),
  { header: key('Since'), width: DATE_WIDTH, value: (c) => formatCalendarDate(c.diagnosis_date) },
  { header: key('Notes'), width: '*', value: (c) => c.notes },
];

const FAMILY_HISTORY_COLUMNS: readonly Column<Row<'family_history'>>[] = [
  { header: key('Condition'), width: '*', value: (f) => f.condition_name },
  { header: key('Relation'), width: 110, value: (f) => f.relation },
  choiceColumn(key('Status'), 72, conditions.status, (f) => f.status),
  {
    header: key('Diagnosed'),
    width: DATE_WIDTH,
    value: (f) => formatCalendarDate(f.diagnosis_date),
  },
];

const IMMUNIZATIONS_COLUMNS: readonly Column<Row<'immunizations'>>[] = [
  { header: key('Immunization'), width: '*', value: (i) => i.shot_name },
  { header: key('Date'), width: DATE_WIDTH, value: (i) => formatCalendarDate(i.date_administered) },
  { header: key('Location'), width: 170, value: (i) => i.location },
];

const LAB_RESULTS_COLUMNS: readonly Column<Row<'lab_results'>>[] = [
  { header: key('Test'), width: '*', value: (l) => l.test_name },
  { header: key('Result'), width: 72, value: (l) => (l.unit ? `${l.result} ${l.unit}` : l.result) },
  { header: key('Flag'), width: 44, value: (l) => l.flag },
  { header: key('Range'), width: 60, value: (l) => rangeText(l.range_low, l.range_high) },
  { header: key('Lab'), width: 80, value: (l) => l.lab },
  {
    header: key('Collected'),
    width: DATE_WIDTH,
    value: (l) => formatCalendarDate(l.collected_date),
  },
];

const latestVitalsColumns = (timeZone: string): readonly Column<Row<'latest_vitals'>>[] => [
  { header: key('Measure'), width: 140, value: (v) => v.measure },
  { header: key('Value'), width: '*', value: (v) => v.value },
  { header: key('Measured'), width: DATE_WIDTH, value: (v) => formatDay(v.measured_at, timeZone) },
];

const recentSymptomsColumns = (timeZone: string): readonly Column<Row<'recent_symptoms'>>[] => [
  { header: key('Symptom'), width: 110, value: (s) => s.symptom },
  {
    header: key('Severity'),
    width: 44,
    value: (s) => (s.severity === null ? null : `${s.severity}/${SEVERITY_MAX}`),
  },
  { header: key('Started'), width: 100, value: (s) => formatDateTime(s.started_at, timeZone) },
  {
    header: key('Ended'),
    width: 100,
    value: (s) => (s.ended_at ? formatDateTime(s.ended_at, timeZone) : tr('Ongoing')),
  },
  { header: key('Notes'), width: '*', value: (s) => s.notes },
];

const VACCINES_OVERDUE_COLUMNS: readonly Column<Row<'vaccines_overdue'>>[] = [
  { header: key('Vaccine'), width: '*', ours: true, value: (d) => tr(d.vaccine) },
  {
    header: key('Dose'),
    width: 60,
    ours: true,
    value: (d) => tr('{dose} of {of}', { dose: d.dose, of: d.of }),
  },
  { header: key('Due'), width: DATE_WIDTH, value: (d) => formatCalendarDate(d.due) },
];

const upcomingVisitsColumns = (timeZone: string): readonly Column<Row<'upcoming_visits'>>[] => [
  {
    header: key('Date and time'),
    width: 130,
    value: (v) => formatDateTime(v.visit_date, timeZone),
  },
  { header: key('Visit'), width: '*', value: (v) => v.visit_name },
  { header: key('Doctor'), width: 100, value: (v) => v.doctor_name },
  { header: key('Place'), width: 120, value: (v) => v.office_name },
];

const INSURANCE_COLUMNS: readonly Column<Row<'insurance'>>[] = [
  { header: key('Provider'), width: '*', value: (p) => p.provider_name },
  { header: key('Type'), width: 62, value: (p) => p.insurance_type },
  { header: key('Policy number'), width: 80, value: (p) => p.policy_number },
  { header: key('Group number'), width: 72, value: (p) => p.group_number },
  {
    header: key('Status'),
    width: 36,
    ours: true,
    value: (p) => (p.status === 'past' ? tr('Past') : tr('Current')),
  },
  {
    header: key('Coverage'),
    width: DATE_WIDTH,
    value: (p) => coverage(p.effective_date, p.expiry_date),
  },
];

const CARE_TEAM_COLUMNS: readonly Column<Row<'care_team'>>[] = [
  { header: key('Name'), width: 96, value: (c) => c.contact_name },
  { header: key('Type'), width: 54, value: (c) => c.contact_type },
  { header: key('Specialty'), width: 76, value: (c) => c.specialty },
  { header: key('Phone and email'), width: 124, value: (c) => lines(c.phone_number, c.email) },
  { header: key('Address'), width: '*', value: (c) => c.address },
];

/** The summary's tables, in the document's order. */
function sections(summary: PersonSummary, timeZone: string, font: string): ContentTable[] {
  const table = <L extends SummaryList>(
    heading: string,
    list: L,
    columns: readonly Column<PersonSummary[L][number]>[],
  ) => sectionTable(heading, summary[list], columns, font, summary.not_shown[list]);
  const ifAny = <L extends SummaryList>(
    heading: string,
    list: L,
    columns: readonly Column<PersonSummary[L][number]>[],
  ) => (summary[list].length ? [table(heading, list, columns)] : []);
  return [
    table(key('Allergies'), 'allergies', ALLERGIES_COLUMNS),
    table(key('Current Medications'), 'current_medications', CURRENT_MEDICATIONS_COLUMNS),
    table(key('Conditions'), 'conditions', CONDITIONS_COLUMNS),
    table(key('Family History'), 'family_history', FAMILY_HISTORY_COLUMNS),
    table(key('Immunizations'), 'immunizations', IMMUNIZATIONS_COLUMNS),
    // Only when there are any: the headings every summary has stay as they are.
    ...ifAny(LAB_RESULTS_HEADING, 'lab_results', LAB_RESULTS_COLUMNS),
    ...ifAny(LATEST_VITALS_HEADING, 'latest_vitals', latestVitalsColumns(timeZone)),
    ...ifAny(RECENT_SYMPTOMS_HEADING, 'recent_symptoms', recentSymptomsColumns(timeZone)),
    ...ifAny(VACCINES_OVERDUE_HEADING, 'vaccines_overdue', VACCINES_OVERDUE_COLUMNS),
    table(key('Upcoming Visits'), 'upcoming_visits', upcomingVisitsColumns(timeZone)),
    table(key('Insurance'), 'insurance', INSURANCE_COLUMNS),
    table(key('Care Team'), 'care_team', CARE_TEAM_COLUMNS),
  ];
}

/** The whole document: title block, sections, and a footer with the page count on each page. */
export function buildSummaryDocument(
  summary: PersonSummary,
  options: { timeZone: string },
): TDocumentDefinitions {
  const { name } = summary.person;
  const generated = formatDay(summary.generated_at, options.timeZone);
  // On one line whatever the name's length: the footer has the bottom margin to itself.
  const footerName = name.length > 60 ? `${Array.from(name).slice(0, 58).join('')}…` : name;
  const footerText = `${APP_NAME} · ${footerName} · ${tr('Generated {date}', { date: generated })} · ${tr('Not a clinical document')}`;
  const title = tr(TITLE);
  const language = currentLanguage();
  // The family for the language, looked up once: every cell's width is measured in it.
  const font = summaryFontFor(language);
  const rtl = rightToLeft();
  /** Right to left, text broken into lines and put in order here; else as it is. */
  const set = (text: string, width: number, style: TextStyle, direction?: 'rtl' | 'auto') =>
    rtl ? rtlText(text, width, style, font, direction).text : text;
  return {
    pageSize: 'A4',
    pageMargins: PAGE_MARGINS,
    language,
    displayTitle: true,
    info: {
      title: `${title}: ${name}`,
      author: name,
      subject: tr('Health Summary of {name}, generated {date} with Kin Health', {
        name,
        date: generated,
      }),
      keywords: tr('health summary, allergies, medications, conditions, immunizations, insurance'),
      creator: APP_NAME,
      producer: APP_NAME,
    },
    defaultStyle: {
      // Chinese has a face of its own: DejaVu has no Han characters.
      font,
      fontSize: BODY_SIZE,
      lineHeight: 1.15,
      color: INK,
      ...(rtl ? { alignment: 'right' as const } : {}),
    },
    styles: STYLES,
    content: [
      { text: set(title, CONTENT_WIDTH, STYLES.title), style: 'title' },
      { text: set(name, CONTENT_WIDTH, STYLES.name, 'auto'), style: 'name' },
      {
        text: (() => {
          const born = formatCalendarDate(summary.person.date_of_birth) || tr('Not recorded');
          // Right to left, one paragraph put in order as a whole.
          if (rtl) {
            const line = `${tr('Date of birth:')} ${born}      ${tr('Generated:')} ${generated}`;
            return set(line, CONTENT_WIDTH, BIRTH_LINE);
          }
          return [
            { text: `${tr('Date of birth:')} `, style: 'label' },
            born,
            { text: `      ${tr('Generated:')} `, style: 'label' },
            generated,
          ];
        })(),
        fontSize: BIRTH_LINE.fontSize,
      },
      { text: set(tr(NOT_CLINICAL_NOTE), CONTENT_WIDTH, STYLES.note), style: 'note' },
      // Space after each section but the last: a trailing margin can push an empty last page.
      // A margin, not a named style: every word in the table would look a named style up.
      ...sections(summary, options.timeZone, font).map((section, i, all) =>
        i < all.length - 1 ? { ...section, margin: SECTION_SPACING } : section,
      ),
    ],
    footer: (currentPage, pageCount) => {
      const columns: PdfColumn[] = [
        { text: set(footerText, CONTENT_WIDTH - PAGE_NUMBER_WIDTH, STYLES.footer) },
        {
          text: set(
            tr('Page {page} of {count}', { page: currentPage, count: pageCount }),
            PAGE_NUMBER_WIDTH,
            STYLES.footer,
          ),
          alignment: rtl ? 'left' : 'right',
          width: PAGE_NUMBER_WIDTH,
        },
      ];
      return {
        columns: rtl ? columns.reverse() : columns,
        style: 'footer',
        margin: [PAGE_MARGINS[0], 24, PAGE_MARGINS[2], 0],
      };
    },
  };
}
