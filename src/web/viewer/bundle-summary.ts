/**
 * What the viewer shows of a shared FHIR bundle: the person's name and birth date, and the
 * sections of their summary, each a list of lines, read off the resources as the server's
 * FHIR mapping writes them (src/server/fhir/mappings/). The lines are written in the
 * viewer's language (`tr`), and so are the product's own words the mapping carries (a
 * status, a contact's type); a section's heading stays its English key, translated where it
 * is shown.
 */
import type {
  AllergyIntolerance,
  Appointment,
  Bundle,
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
import { key, tr } from '../../shared/i18n/translate';
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
import {
  byType,
  capitalized,
  dateTime,
  day,
  decode,
  dueText,
  frequencyOf,
  number,
  present,
  referenceResolver,
  text,
  timesOf,
  word,
} from './bundle-words';

export interface SummaryItem {
  title: string;
  details: string[];
  /** What must not be missed about it, shown beside its title: a severe allergy, a lab result out of range. */
  badge?: 'Severe' | 'High' | 'Low';
}

export interface SummarySection {
  /** The English heading: the key its words are found by, and its section's id. */
  heading: string;
  items: SummaryItem[];
}

export interface BundleSummary {
  name: string;
  birthDate: string | null;
  sections: SummarySection[];
}
function allergyItems(resources: Resource[]): SummaryItem[] {
  return byType<AllergyIntolerance>(resources, 'AllergyIntolerance').map((a) => {
    const severity = a.reaction?.[0]?.severity;
    return {
      title: text(a.code),
      details: present(
        a.reaction?.[0] && text(a.reaction[0].manifestation[0]),
        severity &&
          severity !== 'severe' &&
          tr('Severity: {severity}', { severity: tr(capitalized(severity)) }),
        text(a.clinicalStatus) && tr('Status: {status}', { status: word(text(a.clinicalStatus)) }),
      ),
      ...(severity === 'severe' ? { badge: 'Severe' as const } : {}),
    };
  });
}

/** Lab results: out of range first (their flag as the badge), then the newest. */
function labItems(observations: Observation[]): SummaryItem[] {
  return observations
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
              ? `${number(quantity.value)}${unit ? ` ${unit}` : ''}`
              : (o.valueString ?? text(o.valueCodeableConcept)),
            rangeLine && tr('Range: {range}', { range: rangeLine }),
            flag === 'N' && tr('Normal'),
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
}

/** Symptoms as the person reported them (LOINC 'Symptom', mappings/symptoms.ts), newest first. */
function symptomItems(observations: Observation[]): SummaryItem[] {
  return observations
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
            severity !== undefined && tr('Severity {severity}/10', { severity }),
            dateTime(started),
            ended ? tr('Ended {time}', { time: dateTime(ended) }) : tr('Ongoing'),
          ),
        },
      };
    })
    .sort((a, b) => b.started.localeCompare(a.started))
    .map((symptom) => symptom.item);
}

/** The owner's Units when the link names them (share-link-queries.ts), else metric. */
function unitsOf(bundle: Bundle): UnitSystem {
  return bundle.meta?.tag?.some((tag) => tag.system === SHARE_UNITS_TAG_SYSTEM && tag.code === 'us')
    ? 'us'
    : 'metric';
}

function medicationItems(resources: Resource[]): SummaryItem[] {
  return byType<MedicationStatement>(resources, 'MedicationStatement')
    .filter((m) => m.status === 'active' || m.status === 'intended')
    .map((m) => ({
      title: text(m.medicationCodeableConcept),
      details: present(
        m.dosage?.[0]?.text,
        word(frequencyOf(m.dosage?.[0])),
        timesOf(m.dosage?.[0]),
        m.reasonCode?.[0] && tr('For {reason}', { reason: text(m.reasonCode[0]) }),
        m.effectivePeriod?.start && tr('Since {date}', { date: day(m.effectivePeriod.start) }),
      ),
    }));
}

function conditionItems(resources: Resource[]): SummaryItem[] {
  return byType<Condition>(resources, 'Condition').map((c) => ({
    title: text(c.code),
    details: present(
      word(text(c.clinicalStatus)),
      c.onsetDateTime && tr('Diagnosed {date}', { date: day(c.onsetDateTime) }),
    ),
  }));
}

/** A relative's condition, recorded for this person: apart from their own, as in the PDF. */
function familyHistoryItems(resources: Resource[]): SummaryItem[] {
  return byType<FamilyMemberHistory>(resources, 'FamilyMemberHistory').flatMap((history) =>
    (history.condition ?? []).map((condition) => ({
      title: text(condition.code),
      details: present(
        word(text(history.relationship)),
        word(
          condition.extension?.find((e) => e.url === `${KIN_EXTENSION}condition-status`)
            ?.valueString,
        ),
        condition.onsetPeriod?.start &&
          tr('Diagnosed {date}', { date: day(condition.onsetPeriod.start) }),
      ),
    })),
  );
}

/** The shots given, then the doses recommended by hand (not by the owner's schedule). */
function immunizationItems(
  resources: Resource[],
  recommendations: ImmunizationRecommendation[],
): SummaryItem[] {
  return [
    ...byType<Immunization>(resources, 'Immunization').map((i) => ({
      title: text(i.vaccineCode),
      details: present(i.occurrenceDateTime ? day(i.occurrenceDateTime) : tr('Date unknown')),
    })),
    ...recommendations
      .filter((r) => !isComputed(r))
      .map((r) => ({
        title: text(r.recommendation[0]?.vaccineCode?.[0]),
        details: present(dueText(r.recommendation[0]?.dateCriterion?.[0]?.value)),
      })),
  ];
}

/** The doses the owner's vaccine schedule has overdue, as the summary PDF lists them. */
function overdueItems(recommendations: ImmunizationRecommendation[]): SummaryItem[] {
  return recommendations
    .filter(isComputed)
    .flatMap((r) => r.recommendation)
    .sort((a, b) =>
      (a.dateCriterion?.[0]?.value ?? '').localeCompare(b.dateCriterion?.[0]?.value ?? ''),
    )
    .map((item) => ({
      // The schedule's name of the vaccine (the product's word, not a shot's name).
      title: tr(text(item.vaccineCode?.[0])),
      details: present(
        item.doseNumberPositiveInt !== undefined &&
          (item.seriesDosesPositiveInt
            ? tr('Dose {dose} of {doses}', {
                dose: item.doseNumberPositiveInt,
                doses: item.seriesDosesPositiveInt,
              })
            : tr('Dose {dose}', { dose: item.doseNumberPositiveInt })),
        dueText(item.dateCriterion?.[0]?.value),
      ),
    }));
}

/** The visits to come, soonest first, with whom (not the person themself). */
function upcomingItems(resources: Resource[], name: string): SummaryItem[] {
  return byType<Appointment>(resources, 'Appointment')
    .sort((a, b) => (a.start ?? '').localeCompare(b.start ?? ''))
    .map((a) => ({
      title: a.description ?? tr('Appointment'),
      details: present(
        dateTime(a.start),
        ...(a.participant ?? [])
          .map((p) => p.actor?.display)
          .filter((display) => display && display !== name),
      ),
    }));
}

function pastVisitItems(resources: Resource[]): SummaryItem[] {
  return byType<Encounter>(resources, 'Encounter')
    .sort((a, b) => (b.period?.start ?? '').localeCompare(a.period?.start ?? ''))
    .map((e) => ({
      title: text(e.reasonCode?.[0]) || tr('Visit'),
      details: present(
        day(e.period?.start),
        e.participant?.[0]?.individual?.display,
        e.location?.[0]?.location.display,
      ),
    }));
}

function insuranceItems(
  coverages: Coverage[],
  payorOf: (coverage: Coverage) => Organization | undefined,
): SummaryItem[] {
  return coverages.map((c) => {
    const payor = payorOf(c);
    return {
      title: payor?.name ?? word(text(c.type)),
      details: present(
        word(text(c.type)),
        c.identifier?.[0]?.value && tr('Policy {number}', { number: c.identifier[0].value }),
        c.class?.[0]?.value && tr('Group {number}', { number: c.class[0].value }),
        c.status === 'cancelled' ? tr('Past') : tr('Current'),
      ),
    };
  });
}

const telecom = (points: { value?: string }[] | undefined) =>
  (points ?? []).map((point) => point.value).filter(Boolean) as string[];

/** The practitioners, with their role, then the organizations that are not an insurer. */
function careTeamItems(
  resources: Resource[],
  resolve: ReturnType<typeof referenceResolver>,
  payors: ReadonlySet<Organization | undefined>,
): SummaryItem[] {
  const roles = new Map(
    byType<PractitionerRole>(resources, 'PractitionerRole').map((role) => [
      resolve<Practitioner>(role.practitioner?.reference, 'Practitioner'),
      role,
    ]),
  );
  return [
    ...byType<Practitioner>(resources, 'Practitioner').map((p) => {
      const role = roles.get(p);
      return {
        title: p.name?.[0]?.text ?? tr('Practitioner'),
        details: present(
          role?.code?.[0] && word(text(role.code[0])),
          role?.specialty?.[0] && text(role.specialty[0]),
          ...telecom(p.telecom),
          p.address?.[0]?.text,
        ),
      };
    }),
    ...byType<Organization>(resources, 'Organization')
      .filter((org) => !payors.has(org))
      .map((org) => ({
        title: org.name ?? tr('Organization'),
        details: present(
          word(text(org.type?.[0])),
          ...telecom(org.telecom),
          org.address?.[0]?.text,
        ),
      })),
  ];
}

function noteItems(resources: Resource[]): SummaryItem[] {
  return byType<DocumentReference>(resources, 'DocumentReference')
    .filter((d) => !isSharedDocument(d))
    .map((d) => ({
      title: d.description ?? tr('Note'),
      details: present(
        word(text(d.type)),
        d.context?.period?.start && day(d.context.period.start),
        decode(d.content[0]?.attachment.data),
      ),
    }));
}

export function summarizeBundle(bundle: Bundle): BundleSummary {
  const resources = (bundle.entry ?? []).flatMap((entry) =>
    entry.resource ? [entry.resource] : [],
  );
  const resolve = referenceResolver(bundle);
  const patient = byType<Patient>(resources, 'Patient')[0];
  const name = patient?.name?.[0]?.text ?? patient?.name?.[0]?.family ?? tr('Unnamed person');
  const observations = byType<Observation>(resources, 'Observation');
  const recommendations = byType<ImmunizationRecommendation>(
    resources,
    'ImmunizationRecommendation',
  );
  const coverages = byType<Coverage>(resources, 'Coverage');
  const payorOf = (coverage: Coverage) =>
    resolve<Organization>(coverage.payor[0]?.reference, 'Organization');
  return {
    name,
    birthDate: patient?.birthDate ?? null,
    sections: [
      { heading: key('Allergies'), items: allergyItems(resources) },
      { heading: key('Current Medications'), items: medicationItems(resources) },
      { heading: key('Conditions'), items: conditionItems(resources) },
      { heading: key('Family History'), items: familyHistoryItems(resources) },
      { heading: key('Immunizations'), items: immunizationItems(resources, recommendations) },
      { heading: key('Lab Results'), items: labItems(observations) },
      { heading: key('Vitals'), items: latestVitalItems(observations, unitsOf(bundle)) },
      { heading: key('Symptoms'), items: symptomItems(observations) },
      { heading: key('Vaccine Doses Overdue'), items: overdueItems(recommendations) },
      { heading: key('Upcoming Visits'), items: upcomingItems(resources, name) },
      { heading: key('Past Visits'), items: pastVisitItems(resources) },
      { heading: key('Insurance'), items: insuranceItems(coverages, payorOf) },
      {
        heading: key('Care Team'),
        items: careTeamItems(resources, resolve, new Set(coverages.map(payorOf))),
      },
      { heading: key('Notes'), items: noteItems(resources) },
    ],
  };
}

/**
 * The measure a vital-sign Observation holds, by its LOINC code, as the server's mapping
 * writes them (src/server/fhir/mappings/vitals.ts); null for any other Observation. Blood
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
        title: tr(vital),
        details: present(
          vitalValue(o, vital, units),
          word(timing?.valueString),
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

/** A document (a PDF or an image), not a note (text), as fhir-documents.ts writes them. */
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
        type: word(text(resource.type)),
        date: day(resource.content[0]?.attachment.creation ?? resource.date),
        file: original,
        shown: shown ?? null,
      },
    ];
  });
}
