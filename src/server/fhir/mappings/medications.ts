/**
 * Medications both ways. Out: a MedicationStatement (its prescription, when there is one, a
 * contained MedicationRequest), and each dose of the log as a MedicationAdministration or a
 * 'not-taken' MedicationStatement. In: a MedicationStatement or a MedicationRequest is a
 * medication; one a statement is based on is read as its prescription.
 */
import type {
  Dosage,
  MedicationAdministration,
  MedicationRequest,
  MedicationStatement,
  TimingRepeat,
} from '@medplum/fhirtypes';
import { MAX_DOSE_AMOUNT } from '../../../shared/medication-supply';
import {
  calendarDate,
  kinExtension,
  kinExtensions,
  listOf,
  noteText,
  notes,
  period,
  referenceTo,
  textConcept,
  textOf,
} from '../fhir-elements';
import type { DoseRow, FhirRows, FhirValues } from '../fhir-source';
import {
  IGNORE,
  SKIP,
  absentStatement,
  displayOf,
  one,
  type ImportContext,
  type MapResult,
  type MappingContext,
} from './mapping';

const WHEN_OF_TIME = {
  time_morning: 'MORN',
  time_noon: 'NOON',
  time_evening: 'EVE',
  time_night: 'NIGHT',
} as const;

const REPEAT_OF_FREQUENCY: Record<string, TimingRepeat> = {
  Daily: { frequency: 1, period: 1, periodUnit: 'd' },
  'Twice Daily': { frequency: 2, period: 1, periodUnit: 'd' },
  Weekly: { frequency: 1, period: 1, periodUnit: 'wk' },
};

/** How a medication is taken: its dosage text, times of day and frequency. */
function dosageOf(medication: FhirRows['medication']): Dosage | undefined {
  const when = (Object.keys(WHEN_OF_TIME) as (keyof typeof WHEN_OF_TIME)[])
    .filter((field) => medication[field])
    .map((field) => WHEN_OF_TIME[field]);
  const repeat: TimingRepeat = {
    ...(medication.frequency ? REPEAT_OF_FREQUENCY[medication.frequency] : {}),
    ...(when.length > 0 ? { when } : {}),
  };
  // What a dose takes from the supply, said where a supply is kept (else it is 1, and no news).
  const amount =
    medication.quantity_on_hand !== null && medication.dose_amount !== null
      ? medication.dose_amount
      : undefined;
  const dosage: Dosage = {
    text: medication.dosage ?? undefined,
    timing: Object.keys(repeat).length > 0 ? { repeat } : undefined,
    doseAndRate: amount === undefined ? undefined : [{ doseQuantity: { value: amount } }],
    asNeededBoolean: medication.frequency === 'As Needed' ? true : undefined,
  };
  return Object.values(dosage).some((value) => value !== undefined) ? dosage : undefined;
}

/** Current as the medication list has it: not ended before today; 'intended' until started. */
function medicationStatus(medication: FhirRows['medication'], today: string) {
  if (medication.end_date !== null && medication.end_date < today) return 'completed';
  if (medication.start_date !== null && medication.start_date > today) return 'intended';
  return 'active';
}

/**
 * What the prescription still allows, as FHIR's dispense request: the pack a refill brings
 * (the last 'Refilled'), the refills left and when the prescription ends (decision 0061).
 */
function dispenseRequestOf(
  medication: FhirRows['medication'] & { pack_size?: number | null },
): MedicationRequest['dispenseRequest'] {
  const request = {
    quantity:
      typeof medication.pack_size === 'number' ? { value: medication.pack_size } : undefined,
    numberOfRepeatsAllowed: medication.refills_left ?? undefined,
    validityPeriod: medication.prescription_ends
      ? { end: medication.prescription_ends }
      : undefined,
  };
  return Object.values(request).some((value) => value !== undefined) ? request : undefined;
}

export function medicationResource(
  medication: FhirRows['medication'],
  context: MappingContext,
): MedicationStatement {
  const name = { text: medication.medication_name };
  const dispenseRequest = dispenseRequestOf(medication);
  // The prescriber and what is left to dispense belong to the prescription, not to the
  // statement of taking it.
  const prescription: MedicationRequest | undefined =
    medication.prescribed_doctor || dispenseRequest
      ? {
          resourceType: 'MedicationRequest',
          id: 'prescription',
          status: 'unknown',
          intent: 'order',
          medicationCodeableConcept: name,
          subject: context.patient,
          requester: medication.prescribed_doctor
            ? { type: 'Practitioner', display: medication.prescribed_doctor }
            : undefined,
          dispenseRequest,
        }
      : undefined;
  return {
    resourceType: 'MedicationStatement',
    id: medication.id,
    contained: listOf(prescription),
    basedOn: prescription ? [{ reference: '#prescription' }] : undefined,
    // What is on hand has no home in R4: it travels as one of our extensions.
    extension: kinExtensions({
      'medication-quantity-on-hand':
        medication.quantity_on_hand === null ? null : String(medication.quantity_on_hand),
    }),
    status: medicationStatus(medication, context.today),
    medicationCodeableConcept: name,
    subject: context.patient,
    effectivePeriod: period(medication.start_date, medication.end_date),
    reasonCode: listOf(textConcept(medication.condition)),
    note: notes(medication.notes),
    dosage: listOf(dosageOf(medication)),
  };
}

/**
 * A dose of the log: taken, a completed MedicationAdministration at the moment it was
 * marked, pointing to its medication's statement as supporting information; skipped, a
 * MedicationStatement 'not-taken' (status reason 'Skipped') on the day it was due, part of
 * its medication's statement. Each says which dose it was in a note.
 */
export function doseResource(
  dose: DoseRow,
  medicationName: string,
  context: MappingContext,
): MedicationAdministration | MedicationStatement {
  const which = { text: `${dose.slot} dose of ${dose.day}` };
  if (dose.status === 'taken') {
    return {
      resourceType: 'MedicationAdministration',
      id: dose.id,
      status: 'completed',
      medicationCodeableConcept: { text: medicationName },
      subject: context.patient,
      effectiveDateTime: dose.marked_at,
      supportingInformation: [referenceTo(dose.medication_id)],
      note: [which],
    };
  }
  return {
    resourceType: 'MedicationStatement',
    id: dose.id,
    status: 'not-taken',
    statusReason: [{ text: 'Skipped' }],
    medicationCodeableConcept: { text: medicationName },
    subject: context.patient,
    effectiveDateTime: dose.day,
    dateAsserted: dose.marked_at,
    partOf: [referenceTo(dose.medication_id)],
    note: [which],
  };
}

// ---- import ---------------------------------------------------------------------------

const TIME_OF_WHEN: [RegExp, 'time_morning' | 'time_noon' | 'time_evening' | 'time_night'][] = [
  [/^MORN/, 'time_morning'],
  [/^NOON$/, 'time_noon'],
  [/^EVE/, 'time_evening'],
  [/^NIGHT$/, 'time_night'],
];

/** How a medication is taken, from a Dosage: our frequencies only where they match exactly. */
function dosageValues(dosage: Dosage | undefined): Partial<FhirValues['medication']> {
  const repeat = dosage?.timing?.repeat;
  const times = Object.fromEntries(
    TIME_OF_WHEN.map(([pattern, field]) => [
      field,
      (repeat?.when ?? []).some((when) => pattern.test(when)),
    ]),
  );
  const every = `${repeat?.frequency ?? ''}/${repeat?.period ?? ''}${repeat?.periodUnit ?? ''}`;
  const frequency =
    dosage?.asNeededBoolean || dosage?.asNeededCodeableConcept
      ? 'As Needed'
      : (({ '1/1d': 'Daily', '2/1d': 'Twice Daily', '1/1wk': 'Weekly' } as const)[every] ?? null);
  const amount = doseCount(dosage?.doseAndRate?.[0]?.doseQuantity);
  return {
    dosage: dosage?.text ?? null,
    frequency,
    ...times,
    ...(amount === null ? {} : { dose_amount: amount }),
  };
}

/**
 * A dose as a count of what the supply is counted in (2 tablets, 1 puff): a quantity with no
 * unit, or a UCUM count ('1', '{tbl}'). A dose in mg or IU is the strength, not what it
 * takes from the pack, and is left for the dosage text.
 */
function doseCount(quantity: { value?: number; code?: string; unit?: string } | undefined) {
  const value = quantity?.value;
  if (typeof value !== 'number' || value <= 0 || value > MAX_DOSE_AMOUNT) return null;
  const code = quantity?.code ?? (quantity?.unit ? undefined : '1');
  return code === '1' || (code !== undefined && /^\{[^}]*\}$/.test(code)) ? value : null;
}

/**
 * What a prescription still allows: the refills left and when it ends. What is on hand is
 * read only from our own extension: a portal's dispensed quantity says what was handed out
 * once, not what is left, and a forecast from it would be a date no one can justify.
 */
function supplyValues(
  request: MedicationRequest | undefined,
  statement?: MedicationStatement,
): Partial<FhirValues['medication']> {
  const dispense = request?.dispenseRequest;
  const onHand = statement
    ? Number(kinExtension(statement, 'medication-quantity-on-hand') ?? NaN)
    : NaN;
  return {
    refills_left: dispense?.numberOfRepeatsAllowed ?? null,
    prescription_ends: calendarDate(dispense?.validityPeriod?.end),
    quantity_on_hand: Number.isFinite(onHand) ? onHand : null,
  };
}

function medicationName(
  resource: MedicationStatement | MedicationRequest,
  context: ImportContext,
): string | null {
  return (
    textOf(resource.medicationCodeableConcept) ?? displayOf(resource.medicationReference, context)
  );
}

/** A finished medication with no end date ends, as far as we can tell, when it started. */
function endOf(finished: boolean, start: string | null, end: string | null): string | null {
  return end ?? (finished ? start : null);
}

export function medicationStatementRecord(
  statement: MedicationStatement,
  context: ImportContext,
): MapResult {
  const absent = absentStatement(statement.medicationCodeableConcept);
  if (absent) return absent;
  if (statement.status === 'entered-in-error' || statement.status === 'not-taken') return SKIP;
  const name = medicationName(statement, context);
  if (!name) return SKIP;
  const prescription = statement.basedOn
    ?.map((reference) =>
      reference.reference?.startsWith('#')
        ? statement.contained?.find((c) => `#${c.id}` === reference.reference)
        : context.resolve(reference),
    )
    .find(
      (resource): resource is MedicationRequest => resource?.resourceType === 'MedicationRequest',
    );
  const start =
    calendarDate(statement.effectivePeriod?.start) ?? calendarDate(statement.effectiveDateTime);
  const finished = statement.status === 'completed' || statement.status === 'stopped';
  return one('medication', {
    medication_name: name,
    ...dosageValues(statement.dosage?.[0]),
    start_date: start,
    end_date: endOf(finished, start, calendarDate(statement.effectivePeriod?.end)),
    condition:
      textOf(statement.reasonCode?.[0]) ?? displayOf(statement.reasonReference?.[0], context),
    prescribed_doctor: displayOf(prescription?.requester, context),
    notes: noteText(statement.note),
    ...supplyValues(prescription, statement),
  });
}

export function medicationRequestRecord(
  request: MedicationRequest,
  context: ImportContext,
): MapResult {
  if (context.isPartOfAnother(request)) return IGNORE;
  const absent = absentStatement(request.medicationCodeableConcept);
  if (absent) return absent;
  if (['entered-in-error', 'cancelled', 'draft'].includes(request.status)) return SKIP;
  const name = medicationName(request, context);
  if (!name) return SKIP;
  const start =
    calendarDate(request.dispenseRequest?.validityPeriod?.start) ??
    calendarDate(request.authoredOn);
  const finished = request.status === 'completed' || request.status === 'stopped';
  return one('medication', {
    medication_name: name,
    ...dosageValues(request.dosageInstruction?.[0]),
    start_date: start,
    end_date: endOf(finished, start, calendarDate(request.dispenseRequest?.validityPeriod?.end)),
    condition: textOf(request.reasonCode?.[0]) ?? displayOf(request.reasonReference?.[0], context),
    prescribed_doctor: displayOf(request.requester, context),
    notes: noteText(request.note),
    ...supplyValues(request),
  });
}
