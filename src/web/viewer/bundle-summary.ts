/**
 * What the viewer shows of a shared FHIR bundle: the person's name and birth date, and the
 * sections of their summary, each a list of lines, read off the resources as the server's
 * FHIR mapping writes them (src/server/fhir/fhir-resources.ts).
 */
import type {
  AllergyIntolerance,
  Appointment,
  Dosage,
  Bundle,
  CodeableConcept,
  Condition,
  Coverage,
  DocumentReference,
  Encounter,
  FamilyMemberHistory,
  Immunization,
  ImmunizationRecommendation,
  MedicationStatement,
  Observation,
  Organization,
  Patient,
  Practitioner,
  PractitionerRole,
  Resource,
} from '@medplum/fhirtypes';
import { DOCUMENT_MIME_TYPES } from '../../shared/documents';
import {
  isComputed,
  KIN_EXTENSION,
  SHARE_UNITS_TAG_SYSTEM,
  SYMPTOM_LOINC,
} from '../../shared/fhir-extensions';
import { downloadName } from '../../shared/file-names';
import { rangeText } from '../../shared/labs/lab-flag';
import { formatMeasure, MEASURES, type MeasureName, type UnitSystem } from '../../shared/units';
import { LATEST_VITAL_MEASURES } from '../../shared/vitals-trend';

export interface SummaryItem {
  title: string;
  details: string[];
  /** What must not be missed about it, shown beside its title: a severe allergy, a lab result out of range. */
  badge?: 'Severe' | 'High' | 'Low';
}

export interface SummarySection {
  heading: string;
  items: SummaryItem[];
}

export interface BundleSummary {
  name: string;
  birthDate: string | null;
  sections: SummarySection[];
}

const text = (concept: CodeableConcept | undefined): string =>
  concept?.text ?? concept?.coding?.[0]?.display ?? concept?.coding?.[0]?.code ?? '';

export const day = (value: string | undefined): string => {
  if (!value) return '';
  const date = new Date(value.length === 10 ? `${value}T00:00:00` : value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
};

const dateTime = (value: string | undefined): string => {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
};

/** A FHIR code as the product's screens write it: 'severe' is shown 'Severe'. */
const capitalized = (code: string): string => code.charAt(0).toUpperCase() + code.slice(1);

const present = (...parts: (string | undefined | null | false)[]): string[] =>
  parts.filter((part): part is string => Boolean(part));

/**
 * A medication's frequency and times of day, in the words of its form and of the PDF ('Twice
 * Daily', 'Morning, Evening'), read back from the timing the server's FHIR mapping writes
 * (src/server/fhir/fhir-resources.ts, dosageOf; the viewer's tests go through it).
 */
const TIME_OF_WHEN: Record<string, string> = {
  MORN: 'Morning',
  NOON: 'Noon',
  EVE: 'Evening',
  NIGHT: 'Night',
};

function frequencyOf(dosage: Dosage | undefined): string | undefined {
  if (dosage?.asNeededBoolean) return 'As Needed';
  const repeat = dosage?.timing?.repeat;
  if (repeat?.period !== 1) return undefined;
  if (repeat.periodUnit === 'd' && repeat.frequency === 1) return 'Daily';
  if (repeat.periodUnit === 'd' && repeat.frequency === 2) return 'Twice Daily';
  if (repeat.periodUnit === 'wk' && repeat.frequency === 1) return 'Weekly';
  return undefined;
}

function timesOf(dosage: Dosage | undefined): string | undefined {
  const times = (dosage?.timing?.repeat?.when ?? []).flatMap((when) => TIME_OF_WHEN[when] ?? []);
  return times.length > 0 ? times.join(', ') : undefined;
}

const byType = <T extends Resource>(resources: Resource[], type: T['resourceType']): T[] =>
  resources.filter((resource) => resource.resourceType === type) as T[];

function decode(data: string | undefined): string | null {
  if (!data) return null;
  try {
    const binary = atob(data);
    return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
}

/**
 * Finds what a reference points to in the bundle: an entry's fullUrl (`urn:uuid:…`, as the
 * server's mapping writes every reference) or `Type/id`.
 */
function referenceResolver(bundle: Bundle) {
  const byAddress = new Map<string, Resource>();
  for (const { fullUrl, resource } of bundle.entry ?? []) {
    if (!resource) continue;
    if (fullUrl) byAddress.set(fullUrl, resource);
    if (resource.id) byAddress.set(`${resource.resourceType}/${resource.id}`, resource);
  }
  return <T extends Resource>(reference: string | undefined, type: T['resourceType']) => {
    const resource = reference === undefined ? undefined : byAddress.get(reference);
    return resource?.resourceType === type ? (resource as T) : undefined;
  };
}

export function summarizeBundle(bundle: Bundle): BundleSummary {
  const resources = (bundle.entry ?? []).flatMap((entry) =>
    entry.resource ? [entry.resource] : [],
  );
  const resolve = referenceResolver(bundle);
  const patient = byType<Patient>(resources, 'Patient')[0];
  const name = patient?.name?.[0]?.text ?? patient?.name?.[0]?.family ?? 'Unnamed person';
  const roles = new Map(
    byType<PractitionerRole>(resources, 'PractitionerRole').map((role) => [
      resolve<Practitioner>(role.practitioner?.reference, 'Practitioner'),
      role,
    ]),
  );

  const allergies = byType<AllergyIntolerance>(resources, 'AllergyIntolerance').map((a) => {
    const severity = a.reaction?.[0]?.severity;
    return {
      title: text(a.code),
      details: present(
        a.reaction?.[0] && text(a.reaction[0].manifestation[0]),
        severity && severity !== 'severe' && `Severity: ${capitalized(severity)}`,
        text(a.clinicalStatus) && `Status: ${text(a.clinicalStatus)}`,
      ),
      ...(severity === 'severe' ? { badge: 'Severe' as const } : {}),
    };
  });

  // Lab results: out of range first (their flag as the badge), then the newest.
  const observations = byType<Observation>(resources, 'Observation');
  const labs = observations
    .filter((o) => o.category?.some((c) => c.coding?.some((x) => x.code === 'laboratory')))
    .filter((o) => vitalOf(o) === null)
    .map((o) => {
      const flag = o.interpretation?.[0]?.coding?.[0]?.code;
      const quantity = o.valueQuantity;
      const unit = quantity?.unit ?? quantity?.code;
      const range = o.referenceRange?.[0];
      const rangeLine = rangeText(range?.low?.value, range?.high?.value);
      return {
        date: o.effectiveDateTime ?? '',
        outOfRange: flag === 'H' || flag === 'L',
        item: {
          title: text(o.code),
          details: present(
            quantity?.value !== undefined
              ? `${quantity.value}${unit ? ` ${unit}` : ''}`
              : (o.valueString ?? text(o.valueCodeableConcept)),
            rangeLine && `Range: ${rangeLine}`,
            flag === 'N' && 'Normal',
            day(o.effectiveDateTime),
            o.performer?.[0]?.display,
          ),
          ...(flag === 'H'
            ? { badge: 'High' as const }
            : flag === 'L'
              ? { badge: 'Low' as const }
              : {}),
        },
      };
    })
    .sort((a, b) => Number(b.outOfRange) - Number(a.outOfRange) || b.date.localeCompare(a.date))
    .map((lab) => lab.item);

  // Symptoms as the person reported them (LOINC 'Symptom', fhir-symptoms.ts), newest first.
  const symptoms = observations
    .filter((o) => o.code.coding?.some((c) => c.code === SYMPTOM_LOINC))
    .map((o) => {
      const started = o.effectivePeriod?.start ?? o.effectiveDateTime ?? '';
      const ended = o.effectivePeriod?.end;
      const severity = o.valueQuantity?.value;
      return {
        started,
        item: {
          title: text(o.code),
          details: present(
            severity !== undefined && `Severity ${severity}/10`,
            dateTime(started),
            ended ? `Ended ${dateTime(ended)}` : 'Ongoing',
          ),
        },
      };
    })
    .sort((a, b) => b.started.localeCompare(a.started))
    .map((symptom) => symptom.item);

  // In the owner's Units when the link names them (share-link-queries.ts), else metric.
  const units: UnitSystem = bundle.meta?.tag?.some(
    (tag) => tag.system === SHARE_UNITS_TAG_SYSTEM && tag.code === 'us',
  )
    ? 'us'
    : 'metric';
  const vitals = latestVitalItems(observations, units);

  const medications = byType<MedicationStatement>(resources, 'MedicationStatement')
    .filter((m) => m.status === 'active' || m.status === 'intended')
    .map((m) => ({
      title: text(m.medicationCodeableConcept),
      details: present(
        m.dosage?.[0]?.text,
        frequencyOf(m.dosage?.[0]),
        timesOf(m.dosage?.[0]),
        m.reasonCode?.[0] && `For ${text(m.reasonCode[0])}`,
        m.effectivePeriod?.start && `Since ${day(m.effectivePeriod.start)}`,
      ),
    }));

  const conditions = byType<Condition>(resources, 'Condition').map((c) => ({
    title: text(c.code),
    details: present(
      text(c.clinicalStatus),
      c.onsetDateTime && `Diagnosed ${day(c.onsetDateTime)}`,
    ),
  }));

  // A relative's condition, recorded for this person: apart from their own, as in the PDF.
  const familyHistory = byType<FamilyMemberHistory>(resources, 'FamilyMemberHistory').flatMap(
    (history) =>
      (history.condition ?? []).map((condition) => ({
        title: text(condition.code),
        details: present(
          text(history.relationship),
          condition.extension?.find((e) => e.url === `${KIN_EXTENSION}condition-status`)
            ?.valueString,
          condition.onsetPeriod?.start && `Diagnosed ${day(condition.onsetPeriod.start)}`,
        ),
      })),
  );

  const recommendations = byType<ImmunizationRecommendation>(
    resources,
    'ImmunizationRecommendation',
  );
  const immunizations = [
    ...byType<Immunization>(resources, 'Immunization').map((i) => ({
      title: text(i.vaccineCode),
      details: present(i.occurrenceDateTime ? day(i.occurrenceDateTime) : 'Date unknown'),
    })),
    ...recommendations
      .filter((r) => !isComputed(r))
      .map((r) => ({
        title: text(r.recommendation[0]?.vaccineCode?.[0]),
        details: present(`Due ${day(r.recommendation[0]?.dateCriterion?.[0]?.value)}`.trim()),
      })),
  ];

  // The doses the owner's vaccine schedule has overdue, as the summary PDF lists them.
  const overdue = recommendations
    .filter(isComputed)
    .flatMap((r) => r.recommendation)
    .sort((a, b) =>
      (a.dateCriterion?.[0]?.value ?? '').localeCompare(b.dateCriterion?.[0]?.value ?? ''),
    )
    .map((item) => ({
      title: text(item.vaccineCode?.[0]),
      details: present(
        item.doseNumberPositiveInt !== undefined &&
          `Dose ${item.doseNumberPositiveInt}${item.seriesDosesPositiveInt ? ` of ${item.seriesDosesPositiveInt}` : ''}`,
        `Due ${day(item.dateCriterion?.[0]?.value)}`.trim(),
      ),
    }));

  const upcoming = byType<Appointment>(resources, 'Appointment')
    .sort((a, b) => (a.start ?? '').localeCompare(b.start ?? ''))
    .map((a) => ({
      title: a.description ?? 'Appointment',
      details: present(
        dateTime(a.start),
        ...(a.participant ?? [])
          .map((p) => p.actor?.display)
          .filter((display) => display && display !== name),
      ),
    }));

  const past = byType<Encounter>(resources, 'Encounter')
    .sort((a, b) => (b.period?.start ?? '').localeCompare(a.period?.start ?? ''))
    .map((e) => ({
      title: text(e.reasonCode?.[0]) || 'Visit',
      details: present(
        day(e.period?.start),
        e.participant?.[0]?.individual?.display,
        e.location?.[0]?.location.display,
      ),
    }));

  const coverages = byType<Coverage>(resources, 'Coverage');
  const payorOf = (coverage: Coverage) =>
    resolve<Organization>(coverage.payor[0]?.reference, 'Organization');
  const insurance = coverages.map((c) => {
    const payor = payorOf(c);
    return {
      title: payor?.name ?? text(c.type),
      details: present(
        text(c.type),
        c.identifier?.[0]?.value && `Policy ${c.identifier[0].value}`,
        c.class?.[0]?.value && `Group ${c.class[0].value}`,
        c.status === 'cancelled' ? 'Past' : 'Current',
      ),
    };
  });

  const payors = new Set(coverages.map(payorOf));
  const telecom = (points: { value?: string }[] | undefined) =>
    (points ?? []).map((point) => point.value).filter(Boolean) as string[];
  const careTeam = [
    ...byType<Practitioner>(resources, 'Practitioner').map((p) => {
      const role = roles.get(p);
      return {
        title: p.name?.[0]?.text ?? 'Practitioner',
        details: present(
          role?.code?.[0] && text(role.code[0]),
          role?.specialty?.[0] && text(role.specialty[0]),
          ...telecom(p.telecom),
          p.address?.[0]?.text,
        ),
      };
    }),
    ...byType<Organization>(resources, 'Organization')
      .filter((org) => !payors.has(org))
      .map((org) => ({
        title: org.name ?? 'Organization',
        details: present(text(org.type?.[0]), ...telecom(org.telecom), org.address?.[0]?.text),
      })),
  ];

  const notes = byType<DocumentReference>(resources, 'DocumentReference')
    .filter((d) => !isSharedDocument(d))
    .map((d) => ({
      title: d.description ?? 'Note',
      details: present(
        text(d.type),
        d.context?.period?.start && day(d.context.period.start),
        decode(d.content[0]?.attachment.data),
      ),
    }));

  return {
    name,
    birthDate: patient?.birthDate ?? null,
    sections: [
      { heading: 'Allergies', items: allergies },
      { heading: 'Current Medications', items: medications },
      { heading: 'Conditions', items: conditions },
      { heading: 'Family History', items: familyHistory },
      { heading: 'Immunizations', items: immunizations },
      { heading: 'Lab Results', items: labs },
      { heading: 'Vitals', items: vitals },
      { heading: 'Symptoms', items: symptoms },
      { heading: 'Vaccine Doses Overdue', items: overdue },
      { heading: 'Upcoming Visits', items: upcoming },
      { heading: 'Past Visits', items: past },
      { heading: 'Insurance', items: insurance },
      { heading: 'Care Team', items: careTeam },
      { heading: 'Notes', items: notes },
    ],
  };
}

/**
 * The measure a vital-sign Observation holds, by its LOINC code, as the server's mapping
 * writes them (src/server/fhir/fhir-vitals.ts); null for any other Observation. Blood
 * glucose is category laboratory there, but its two codes belong to vitals, as the import
 * reads them (decision 0030).
 */
const VITAL_OF_CODE: Record<string, (typeof LATEST_VITAL_MEASURES)[number]> = {
  '29463-7': 'Weight',
  '8302-2': 'Height',
  '39156-5': 'BMI',
  '85354-9': 'Blood Pressure',
  '8867-4': 'Heart Rate',
  '8310-5': 'Temperature',
  '59408-5': 'Oxygen Saturation',
  '2708-6': 'Oxygen Saturation',
  '2339-0': 'Blood Glucose',
  '1558-6': 'Blood Glucose',
};
const MEASURE_OF_VITAL: Record<
  Exclude<(typeof LATEST_VITAL_MEASURES)[number], 'Blood Pressure'>,
  MeasureName
> = {
  Weight: 'weight',
  Height: 'height',
  BMI: 'bmi',
  'Heart Rate': 'heart_rate',
  Temperature: 'temperature',
  'Oxygen Saturation': 'oxygen_saturation',
  'Blood Glucose': 'blood_glucose',
};

function vitalOf(o: Observation): (typeof LATEST_VITAL_MEASURES)[number] | null {
  for (const coding of o.code.coding ?? []) {
    const measure = coding.code && VITAL_OF_CODE[coding.code];
    if (measure) return measure;
  }
  return null;
}

/** A quantity as the app shows it in the units: '72.5 kg', '98.6 °F', '5.5 mmol/L'. */
function vitalValue(
  o: Observation,
  vital: (typeof LATEST_VITAL_MEASURES)[number],
  units: UnitSystem,
): string {
  if (vital === 'Blood Pressure') {
    const part = (code: string) =>
      o.component?.find((c) => c.code.coding?.some((x) => x.code === code))?.valueQuantity?.value;
    return `${part('8480-6') ?? '?'}/${part('8462-4') ?? '?'} mmHg`;
  }
  const quantity = o.valueQuantity;
  if (quantity?.value === undefined) return '';
  const measure = MEASURE_OF_VITAL[vital];
  return quantity.code === MEASURES[measure].canonical
    ? formatMeasure(measure, quantity.value, units)
    : `${quantity.value}${quantity.unit ? ` ${quantity.unit}` : ''}`;
}

/** The newest value of each vital sign, in the measures' order, each with its date. */
function latestVitalItems(observations: readonly Observation[], units: UnitSystem): SummaryItem[] {
  const newest = new Map<string, Observation>();
  for (const o of observations) {
    const vital = vitalOf(o);
    if (!vital) continue;
    const known = newest.get(vital);
    if (!known || Date.parse(o.effectiveDateTime ?? '') > Date.parse(known.effectiveDateTime ?? ''))
      newest.set(vital, o);
  }
  return LATEST_VITAL_MEASURES.flatMap((vital) => {
    const o = newest.get(vital);
    if (!o) return [];
    const timing = o.extension?.find((e) => e.url === `${KIN_EXTENSION}glucose-timing`);
    return [
      {
        title: vital,
        details: present(
          vitalValue(o, vital, units),
          timing?.valueString,
          day(o.effectiveDateTime),
        ),
      },
    ];
  });
}

/** A file of a shared document: its kind, name and bytes (base64, as the bundle has them). */
export interface SharedFile {
  contentType: string;
  fileName: string;
  data: string;
}

/** A document the owner chose to share, with its file and the copy a browser shows. */
export interface SharedDocument {
  id: string;
  title: string;
  type: string;
  /** The Document Date, else the day it was uploaded. */
  date: string;
  file: SharedFile;
  /** What to show: a HEIC photo's JPEG, else the file itself when a browser shows it. */
  shown: SharedFile | null;
}

/** A document (a PDF or an image), not a note (text), as fhir-resources.ts writes them. */
function isSharedDocument(reference: DocumentReference): boolean {
  const type = reference.content[0]?.attachment.contentType ?? '';
  return (DOCUMENT_MIME_TYPES as readonly string[]).includes(type);
}

const fileOf = (attachment: DocumentReference['content'][number]['attachment'] | undefined) =>
  attachment?.data && attachment.contentType
    ? {
        contentType: attachment.contentType,
        // Saved under the name the server gives a download (shared/file-names.ts).
        fileName: downloadName(attachment.title ?? 'document', attachment.contentType),
        data: attachment.data,
      }
    : null;

/** A browser shows these itself (an image in the page, a PDF in its viewer). */
const SHOWN_TYPES = new Set(['application/pdf', 'image/jpeg', 'image/png', 'image/webp']);

/** The documents a shared bundle carries, with their files, oldest first as written. */
export function sharedDocuments(bundle: Bundle): SharedDocument[] {
  return (bundle.entry ?? []).flatMap(({ resource }) => {
    if (resource?.resourceType !== 'DocumentReference' || !isSharedDocument(resource)) return [];
    const [original, ...others] = resource.content.map((content) => fileOf(content.attachment));
    if (!original) return [];
    const shown = [original, ...others].find((file) => file && SHOWN_TYPES.has(file.contentType));
    return [
      {
        id: resource.id ?? original.fileName,
        title: resource.description ?? original.fileName,
        type: text(resource.type),
        date: day(resource.content[0]?.attachment.creation ?? resource.date),
        file: original,
        shown: shown ?? null,
      },
    ];
  });
}
