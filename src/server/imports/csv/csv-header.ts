/**
 * What a CSV holds, told by its header row (CONTRACT §6): measurements (§5's vitals labels,
 * the unit in brackets when it is not the metric one, and a 'Date' or 'Measured At'
 * column), lab results (§5's lab labels), or Dexcom Clarity's export (its own header). The
 * labels are the record definitions' own, so a renamed label renames the column read. A
 * header of none of these is refused with a message naming the columns each kind needs.
 */
import { formatChoices } from '../../../shared/dates';
import { tr } from '../../../shared/i18n/translate';
import { labResultDefinition } from '../../../shared/records/lab-results';
import { VITAL_COLUMNS, vitalDefinition, type VitalColumn } from '../../../shared/records/vitals';
import { MEASURES, type MeasureName, type UnitSystem } from '../../../shared/units';

/** The name a header cell is matched by: case and spacing do not count. */
export const keyOf = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** Other ways a file writes a unit, beside its symbol and UCUM code (units.ts). */
const UNIT_ALIASES: Record<string, string[]> = {
  kg: ['kgs', 'kilograms'],
  lb: ['lbs', 'pounds'],
  cm: ['centimetres', 'centimeters'],
  in: ['inch', 'inches'],
  // 'º' (the ordinal sign) is how many keyboards type the degree sign.
  '°c': ['c', 'ºc', 'degc', 'deg c', 'celsius'],
  '°f': ['f', 'ºf', 'degf', 'deg f', 'fahrenheit'],
  mmhg: ['mm hg'],
  '/min': ['bpm', 'per min', 'beats/min', 'breaths/min'],
  '/10': ['0-10'],
};

/** The unit system a bracketed unit belongs to for a measure, or null when it knows none. */
export function unitSystemOf(measure: MeasureName, unit: string): UnitSystem | null {
  const wanted = keyOf(unit);
  for (const system of ['metric', 'us'] as const) {
    const spec = MEASURES[measure].units[system];
    const symbol = keyOf(spec.symbol);
    const names = [symbol, keyOf(spec.ucum), ...(UNIT_ALIASES[symbol] ?? [])];
    if (names.includes(wanted)) return system;
  }
  return null;
}

/** The units a measure is read in, as a message names them: 'kg or lb'. */
function unitNames(measure: MeasureName): string {
  const { metric, us } = MEASURES[measure].units;
  return metric.symbol === us.symbol ? metric.symbol : formatChoices([metric.symbol, us.symbol]);
}

export interface MeasureColumn {
  index: number;
  header: string;
  column: VitalColumn;
  measure: MeasureName;
  label: string;
  system: UnitSystem;
}

export interface MeasurementHeader {
  kind: 'measurements';
  date: { index: number; header: string };
  measures: MeasureColumn[];
  glucoseTiming: number | null;
  notes: number | null;
  unread: { index: number; header: string }[];
}

export type LabField = Exclude<keyof typeof labResultDefinition.fields, 'family_member_id'>;

export interface LabHeader {
  kind: 'lab-results';
  columns: Partial<Record<LabField, { index: number; header: string }>>;
  unread: { index: number; header: string }[];
}

export interface DexcomHeader {
  kind: 'dexcom';
  timestamp: number;
  eventType: number;
  patientInfo: number | null;
  glucose: { index: number; system: UnitSystem };
}

export type CsvHeader = MeasurementHeader | LabHeader | DexcomHeader;

export const MEASURED_AT_LABEL = vitalDefinition.fields.measured_at.label;
export const DATE_COLUMNS = ['Date', MEASURED_AT_LABEL];

const measureColumns = (Object.keys(VITAL_COLUMNS) as VitalColumn[]).map((column) => ({
  column,
  measure: VITAL_COLUMNS[column],
  label: vitalDefinition.fields[column].label,
}));

const labFields = Object.keys(labResultDefinition.fields).filter(
  (field): field is LabField => field !== 'family_member_id',
);
const LAB_REQUIRED: LabField[] = labFields.filter(
  (field) => labResultDefinition.fields[field].required,
);
const labLabel = (field: LabField) => labResultDefinition.fields[field].label;

/**
 * The refusal of an unknown header, in the language in force: the columns named as a file
 * must name them (in English, as the reader matches them), the words around them translated.
 */
export const unknownHeader = () =>
  tr(
    "This CSV's first row names no columns Kin Health reads. Measurements need a {dateColumns} column and one or more of {measureColumns}, 'Glucose Timing', 'Notes' (with the unit in brackets when it is not the metric one, such as 'Weight (lb)'); lab results need {labColumns} (and may have {optionalColumns}); a Dexcom Clarity export is read as Clarity writes it.",
    {
      dateColumns: formatChoices(DATE_COLUMNS.map((column) => `'${column}'`)),
      measureColumns: measureColumns.map(({ label }) => `'${label}'`).join(', '),
      labColumns: LAB_REQUIRED.map((field) => `'${labLabel(field)}'`).join(', '),
      optionalColumns: labFields
        .filter((field) => !LAB_REQUIRED.includes(field))
        .map((field) => `'${labLabel(field)}'`)
        .join(', '),
    },
  );

const BRACKETED = /^(.*?)\s*\(([^)]*)\)\s*$/;

/** What the header row says the file holds, or a refusal for the user. */
export function readHeader(cells: string[]): CsvHeader | { refusal: string } {
  const keys = cells.map(keyOf);
  const find = (name: string) => keys.indexOf(keyOf(name));
  const seen = new Set<string>();
  for (const [index, key] of keys.entries()) {
    if (key && seen.has(key))
      return {
        refusal: tr("The column '{column}' appears twice.", { column: cells[index]!.trim() }),
      };
    seen.add(key);
  }

  const eventType = find('Event Type');
  const timestamp = keys.findIndex((key) => key.startsWith('timestamp'));
  const glucose = keys.findIndex((key) => key.startsWith('glucose value'));
  if (eventType >= 0 && timestamp >= 0 && glucose >= 0) {
    const unit = BRACKETED.exec(cells[glucose]!)?.[2] ?? 'mg/dL';
    const system = unitSystemOf('blood_glucose', unit);
    if (!system) {
      return {
        refusal: tr(
          "The column '{column}' is in a unit Kin Health does not read (it reads mg/dL or mmol/L).",
          { column: cells[glucose]!.trim() },
        ),
      };
    }
    const patientInfo = find('Patient Info');
    return {
      kind: 'dexcom',
      timestamp,
      eventType,
      patientInfo: patientInfo >= 0 ? patientInfo : null,
      glucose: { index: glucose, system },
    };
  }

  if (find(labLabel('test_name')) >= 0 && find(labLabel('result')) >= 0) {
    const columns: LabHeader['columns'] = {};
    for (const field of labFields) {
      const index = find(labLabel(field));
      if (index >= 0) columns[field] = { index, header: cells[index]!.trim() };
    }
    columns.collected_date ??= (() => {
      const index = find('Date');
      return index >= 0 ? { index, header: cells[index]!.trim() } : undefined;
    })();
    const missing = LAB_REQUIRED.filter((field) => !columns[field]);
    if (missing.length > 0) {
      return {
        refusal: tr('This CSV of lab results has no {columns} column.', {
          columns: formatChoices(missing.map((field) => `'${labLabel(field)}'`)),
        }),
      };
    }
    const used = new Set(Object.values(columns).map((column) => column.index));
    return { kind: 'lab-results', columns, unread: unreadOf(cells, used) };
  }

  const measures: MeasureColumn[] = [];
  for (const [index, cell] of cells.entries()) {
    const bracketed = BRACKETED.exec(cell);
    const name = keyOf(bracketed ? bracketed[1]! : cell);
    const known = measureColumns.find(({ label }) => keyOf(label) === name);
    if (!known) continue;
    const system = bracketed ? unitSystemOf(known.measure, bracketed[2]!) : 'metric';
    if (!system) {
      return {
        refusal: tr(
          "The column '{column}' is in a unit Kin Health does not read: {measure} is read in {units}.",
          { column: cell.trim(), measure: known.label, units: unitNames(known.measure) },
        ),
      };
    }
    if (measures.some((measure) => measure.column === known.column)) {
      return { refusal: tr("The column '{column}' appears twice.", { column: known.label }) };
    }
    measures.push({ index, header: cell.trim(), ...known, system });
  }
  const glucoseTiming = find(vitalDefinition.fields.glucose_timing.label);
  if (measures.length === 0 && glucoseTiming < 0) return { refusal: unknownHeader() };
  const dateIndex = DATE_COLUMNS.map(find).find((index) => index >= 0);
  if (dateIndex === undefined) {
    return {
      refusal: tr(
        'This CSV of measurements has no {columns} column to say when each row was measured.',
        {
          columns: formatChoices(DATE_COLUMNS.map((column) => `'${column}'`)),
        },
      ),
    };
  }
  const notes = find(vitalDefinition.fields.notes.label);
  const used = new Set([
    dateIndex,
    glucoseTiming,
    notes,
    ...measures.map((measure) => measure.index),
  ]);
  return {
    kind: 'measurements',
    date: { index: dateIndex, header: cells[dateIndex]!.trim() },
    measures,
    glucoseTiming: glucoseTiming >= 0 ? glucoseTiming : null,
    notes: notes >= 0 ? notes : null,
    unread: unreadOf(cells, used),
  };
}

function unreadOf(cells: string[], used: Set<number>) {
  return cells.flatMap((header, index) =>
    used.has(index) || !header.trim() ? [] : [{ index, header: header.trim() }],
  );
}
