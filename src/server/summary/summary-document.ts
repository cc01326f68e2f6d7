/**
 * The summary as a pdfmake document: a title block, then one table per section, each made by
 * `sectionTable` from a list of columns. Texts from records go in as plain text only, never as
 * links, images or any other node that would point somewhere.
 */
import type {
  ContentTable,
  CustomTableLayout,
  TableCell,
  TDocumentDefinitions,
} from 'pdfmake/interfaces';
import type { PersonSummary } from '../../shared/person-summary';
import { formatCalendarDate, formatDateTime, formatDay } from './summary-dates';
import { SUMMARY_FONT, textWidth } from './summary-pdfmake';
import { rangeText } from '../../shared/labs/lab-flag';
import { SEVERITY_MAX } from '../../shared/records/symptoms';

export const APP_NAME = 'Kin Health';
export const TITLE = 'Health Summary';
export const EMPTY_SECTION = 'None recorded';
export const VACCINES_OVERDUE_HEADING = 'Vaccine Doses Overdue';
export const LAB_RESULTS_HEADING = 'Lab Results';
export const LATEST_VITALS_HEADING = 'Latest Vitals';
export const RECENT_SYMPTOMS_HEADING = 'Recent Symptoms';
export const NOT_CLINICAL_NOTE =
  `Prepared by the person or their family with ${APP_NAME}, from the records they keep. ` +
  'It is not a clinical document: please confirm anything important with the person and their care team.';

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
function estimatedLines(text: string, width: number): number {
  const paragraphs = text.includes('\n') ? text.split('\n') : [text];
  let lines = 0;
  for (const paragraph of paragraphs) {
    lines += Math.max(1, Math.ceil(textWidth(paragraph, BODY_SIZE) / (width * 0.98)));
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
function sectionTable<R>(
  heading: string,
  rows: readonly R[],
  columns: readonly Column<R>[],
): ContentTable {
  const headingCell: TableCell = { text: heading, style: 'sectionHeading' };
  if (rows.length === 0) {
    return {
      table: {
        widths: ['*'],
        headerRows: 1,
        body: [[headingCell], [{ text: EMPTY_SECTION, color: MUTED, ...bookmark(heading) }]],
      },
      layout: emptySectionLayout,
    };
  }
  const headingRow: TableCell[] = [{ ...headingCell, colSpan: columns.length }];
  for (let i = 1; i < columns.length; i++) headingRow.push('');
  const body: TableCell[][] = [
    headingRow,
    columns.map((column) => ({ text: column.header, style: 'columnHeader' })),
  ];
  const widths = contentWidths(columns);
  let tallest = 0;
  rows.forEach((row, r) => {
    body.push(
      columns.map((column, c): TableCell => {
        const text = column.value(row) || NO_VALUE;
        const lines = estimatedLines(text, widths[c]!);
        tallest = Math.max(tallest, lines);
        // pdfmake measures, places and draws text word by word, which is most of the time a
        // summary takes: a text that fits on one line goes over as one piece instead.
        const oneLine = lines === 1;
        if (r === 0 && c === 0) return { text, noWrap: oneLine, ...bookmark(heading) };
        return oneLine ? { text, noWrap: true } : text;
      }),
    );
  });
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
  if (from) return `From ${formatCalendarDate(from)}`;
  if (until) return `Until ${formatCalendarDate(until)}`;
  return '';
}

type Row<K extends keyof PersonSummary> = PersonSummary[K] extends readonly (infer R)[] ? R : never;

function sections(summary: PersonSummary, timeZone: string): ContentTable[] {
  return [
    sectionTable<Row<'allergies'>>('Allergies', summary.allergies, [
      { header: 'Substance', width: 104, value: (a) => a.substance },
      { header: 'Reaction', width: '*', value: (a) => a.reaction },
      { header: 'Severity', width: 40, value: (a) => a.severity },
      { header: 'Category', width: 52, value: (a) => a.category },
      { header: 'Status', width: 38, value: (a) => a.status },
      {
        header: 'Noted',
        width: DATE_WIDTH,
        value: (a) => formatCalendarDate(a.noted_date),
      },
    ]),
    sectionTable<Row<'current_medications'>>('Current Medications', summary.current_medications, [
      { header: 'Medication', width: '*', value: (m) => m.medication_name },
      { header: 'Dose', width: 56, value: (m) => m.dosage },
      {
        header: 'Schedule',
        width: 80,
        value: (m) => lines(m.frequency, m.times_of_day.join(', ')),
      },
      { header: 'For', width: 72, value: (m) => m.condition },
      { header: 'Prescribed by', width: 74, value: (m) => m.prescribed_doctor },
      {
        header: 'Since',
        width: DATE_WIDTH,
        value: (m) => formatCalendarDate(m.start_date),
      },
    ]),
    sectionTable<Row<'conditions'>>('Conditions', summary.conditions, [
      { header: 'Condition', width: 140, value: (c) => c.condition_name },
      { header: 'Status', width: 72, value: (c) => c.status },
      {
        header: 'Since',
        width: DATE_WIDTH,
        value: (c) => formatCalendarDate(c.diagnosis_date),
      },
      { header: 'Notes', width: '*', value: (c) => c.notes },
    ]),
    sectionTable<Row<'family_history'>>('Family History', summary.family_history, [
      { header: 'Condition', width: '*', value: (f) => f.condition_name },
      { header: 'Relation', width: 110, value: (f) => f.relation },
      { header: 'Status', width: 72, value: (f) => f.status },
      {
        header: 'Diagnosed',
        width: DATE_WIDTH,
        value: (f) => formatCalendarDate(f.diagnosis_date),
      },
    ]),
    sectionTable<Row<'immunizations'>>('Immunizations', summary.immunizations, [
      { header: 'Immunization', width: '*', value: (i) => i.shot_name },
      {
        header: 'Date',
        width: DATE_WIDTH,
        value: (i) => formatCalendarDate(i.date_administered),
      },
      { header: 'Location', width: 170, value: (i) => i.location },
    ]),
    // Only when there are any: the headings every summary has stay as they are.
    ...(summary.lab_results.length
      ? [
          sectionTable<Row<'lab_results'>>(LAB_RESULTS_HEADING, summary.lab_results, [
            { header: 'Test', width: '*', value: (l) => l.test_name },
            {
              header: 'Result',
              width: 72,
              value: (l) => (l.unit ? `${l.result} ${l.unit}` : l.result),
            },
            { header: 'Flag', width: 44, value: (l) => l.flag },
            {
              header: 'Range',
              width: 60,
              value: (l) => rangeText(l.range_low, l.range_high),
            },
            { header: 'Lab', width: 80, value: (l) => l.lab },
            {
              header: 'Collected',
              width: DATE_WIDTH,
              value: (l) => formatCalendarDate(l.collected_date),
            },
          ]),
        ]
      : []),
    ...(summary.latest_vitals.length
      ? [
          sectionTable<Row<'latest_vitals'>>(LATEST_VITALS_HEADING, summary.latest_vitals, [
            { header: 'Measure', width: 140, value: (v) => v.measure },
            { header: 'Value', width: '*', value: (v) => v.value },
            {
              header: 'Measured',
              width: DATE_WIDTH,
              value: (v) => formatDay(v.measured_at, timeZone),
            },
          ]),
        ]
      : []),
    ...(summary.recent_symptoms.length
      ? [
          sectionTable<Row<'recent_symptoms'>>(RECENT_SYMPTOMS_HEADING, summary.recent_symptoms, [
            { header: 'Symptom', width: 110, value: (s) => s.symptom },
            {
              header: 'Severity',
              width: 44,
              value: (s) => (s.severity === null ? null : `${s.severity}/${SEVERITY_MAX}`),
            },
            {
              header: 'Started',
              width: 100,
              value: (s) => formatDateTime(s.started_at, timeZone),
            },
            {
              header: 'Ended',
              width: 100,
              value: (s) => (s.ended_at ? formatDateTime(s.ended_at, timeZone) : 'Ongoing'),
            },
            { header: 'Notes', width: '*', value: (s) => s.notes },
          ]),
        ]
      : []),
    ...(summary.vaccines_overdue.length
      ? [
          sectionTable<Row<'vaccines_overdue'>>(
            VACCINES_OVERDUE_HEADING,
            summary.vaccines_overdue,
            [
              { header: 'Vaccine', width: '*', value: (d) => d.vaccine },
              { header: 'Dose', width: 60, value: (d) => `${d.dose} of ${d.of}` },
              { header: 'Due', width: DATE_WIDTH, value: (d) => formatCalendarDate(d.due) },
            ],
          ),
        ]
      : []),
    sectionTable<Row<'upcoming_visits'>>('Upcoming Visits', summary.upcoming_visits, [
      {
        header: 'Date and time',
        width: 130,
        value: (v) => formatDateTime(v.visit_date, timeZone),
      },
      { header: 'Visit', width: '*', value: (v) => v.visit_name },
      { header: 'Doctor', width: 100, value: (v) => v.doctor_name },
      { header: 'Place', width: 120, value: (v) => v.office_name },
    ]),
    sectionTable<Row<'insurance'>>('Insurance', summary.insurance, [
      { header: 'Provider', width: '*', value: (p) => p.provider_name },
      { header: 'Type', width: 62, value: (p) => p.insurance_type },
      { header: 'Policy number', width: 80, value: (p) => p.policy_number },
      { header: 'Group number', width: 72, value: (p) => p.group_number },
      {
        header: 'Status',
        width: 36,
        value: (p) => (p.status === 'past' ? 'Past' : 'Current'),
      },
      {
        header: 'Coverage',
        width: DATE_WIDTH,
        value: (p) => coverage(p.effective_date, p.expiry_date),
      },
    ]),
    sectionTable<Row<'care_team'>>('Care Team', summary.care_team, [
      { header: 'Name', width: 96, value: (c) => c.contact_name },
      { header: 'Type', width: 54, value: (c) => c.contact_type },
      { header: 'Specialty', width: 76, value: (c) => c.specialty },
      { header: 'Phone and email', width: 124, value: (c) => lines(c.phone_number, c.email) },
      { header: 'Address', width: '*', value: (c) => c.address },
    ]),
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
  const footerText = `${APP_NAME} · ${footerName} · Generated ${generated} · Not a clinical document`;
  return {
    pageSize: 'A4',
    pageMargins: PAGE_MARGINS,
    language: 'en',
    displayTitle: true,
    info: {
      title: `${TITLE}: ${name}`,
      author: name,
      subject: `${TITLE} of ${name}, generated ${generated} with ${APP_NAME}`,
      keywords: 'health summary, allergies, medications, conditions, immunizations, insurance',
      creator: APP_NAME,
      producer: APP_NAME,
    },
    defaultStyle: { font: SUMMARY_FONT, fontSize: BODY_SIZE, lineHeight: 1.15, color: INK },
    styles: {
      title: { fontSize: 11, bold: true, color: MUTED },
      name: { fontSize: 20, bold: true, margin: [0, 2, 0, 6] },
      label: { color: MUTED },
      note: { fontSize: 8, color: MUTED, margin: [0, 8, 0, 16] },
      sectionHeading: { fontSize: 12, bold: true },
      columnHeader: { fontSize: 8, bold: true, color: MUTED },
      footer: { fontSize: 7.5, color: MUTED },
    },
    content: [
      { text: TITLE, style: 'title' },
      { text: name, style: 'name' },
      {
        text: [
          { text: 'Date of birth: ', style: 'label' },
          formatCalendarDate(summary.person.date_of_birth) || 'Not recorded',
          { text: '      Generated: ', style: 'label' },
          generated,
        ],
        fontSize: 10,
      },
      { text: NOT_CLINICAL_NOTE, style: 'note' },
      // Space after each section but the last: a trailing margin can push an empty last page.
      // A margin, not a named style: every word in the table would look a named style up.
      ...sections(summary, options.timeZone).map((section, i, all) =>
        i < all.length - 1 ? { ...section, margin: SECTION_SPACING } : section,
      ),
    ],
    footer: (currentPage, pageCount) => ({
      columns: [
        { text: footerText },
        { text: `Page ${currentPage} of ${pageCount}`, alignment: 'right', width: 70 },
      ],
      style: 'footer',
      margin: [PAGE_MARGINS[0], 24, PAGE_MARGINS[2], 0],
    }),
  };
}
