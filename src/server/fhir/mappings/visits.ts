/**
 * Visits both ways. Out: a visit before now happened (Encounter); one from now on is booked
 * (Appointment). In: an Encounter or an Appointment is a visit, unless it was cancelled.
 */
import type { Appointment, Encounter, Location, Practitioner } from '@medplum/fhirtypes';
import {
  SYSTEM,
  UNKNOWN,
  kinExtension,
  kinExtensions,
  listOf,
  namedReference,
  textConcept,
  textOf,
  timestampOf,
} from '../fhir-elements';
import type { FhirRows } from '../fhir-source';
import {
  SKIP,
  displayOf,
  one,
  targetType,
  type ImportContext,
  type MapResult,
  type MappingContext,
  type WithAbsent,
} from './mapping';

/** A visit before now happened (Encounter); one from now on is booked (Appointment). */
export function visitResource(
  visit: FhirRows['visit'],
  context: MappingContext,
): Encounter | WithAbsent<Appointment, 'end'> {
  const doctor = namedReference<Practitioner>('Practitioner', visit.doctor_name);
  const office = namedReference<Location>('Location', visit.office_name);
  if (Date.parse(visit.visit_date) < Date.parse(context.now)) {
    return {
      resourceType: 'Encounter',
      id: visit.id,
      extension: kinExtensions({ 'visit-frequency': visit.frequency, 'visit-notes': visit.notes }),
      status: 'finished',
      // R4 requires a class; the user never says which, so it is the null flavour 'unknown'.
      class: { system: SYSTEM.nullFlavor, code: 'UNK', display: 'unknown' },
      subject: context.patient,
      participant: doctor ? [{ individual: doctor }] : undefined,
      period: { start: visit.visit_date },
      reasonCode: listOf(textConcept(visit.visit_name)),
      location: office ? [{ location: office }] : undefined,
    };
  }
  return {
    resourceType: 'Appointment',
    id: visit.id,
    extension: kinExtensions({ 'visit-frequency': visit.frequency }),
    status: 'booked',
    description: visit.visit_name,
    start: visit.visit_date,
    // A booked appointment needs an end (app-2, app-3); how long it lasts is not known.
    _end: UNKNOWN,
    comment: visit.notes ?? undefined,
    participant: [
      { actor: context.patient, status: 'accepted' as const },
      ...[doctor, office].flatMap((actor) =>
        actor ? [{ actor, status: 'accepted' as const }] : [],
      ),
    ],
  };
}

// ---- import ---------------------------------------------------------------------------

export function encounterRecord(encounter: Encounter, context: ImportContext): MapResult {
  if (encounter.status === 'cancelled' || encounter.status === 'entered-in-error') return SKIP;
  const visitDate = timestampOf(encounter.period?.start) ?? timestampOf(encounter.period?.end);
  if (!visitDate) return SKIP;
  const doctor = encounter.participant?.find((p) => displayOf(p.individual, context));
  return one('visit', {
    visit_name:
      textOf(encounter.reasonCode?.[0]) ??
      textOf(encounter.type?.[0]) ??
      textOf(encounter.serviceType) ??
      'Visit',
    doctor_name: displayOf(doctor?.individual, context),
    visit_date: visitDate,
    frequency: kinExtension(encounter, 'visit-frequency'),
    office_name:
      displayOf(encounter.location?.[0]?.location, context) ??
      displayOf(encounter.serviceProvider, context),
    notes: kinExtension(encounter, 'visit-notes'),
  });
}

export function appointmentRecord(appointment: Appointment, context: ImportContext): MapResult {
  if (['cancelled', 'noshow', 'entered-in-error'].includes(appointment.status)) return SKIP;
  const visitDate = timestampOf(appointment.start);
  if (!visitDate) return SKIP;
  const actorOf = (types: string[]) =>
    appointment.participant
      .map((participant) => participant.actor)
      .find((actor) => types.includes(targetType(actor, context) ?? ''));
  return one('visit', {
    visit_name:
      appointment.description ??
      textOf(appointment.reasonCode?.[0]) ??
      textOf(appointment.serviceType?.[0]) ??
      textOf(appointment.appointmentType) ??
      'Appointment',
    doctor_name: displayOf(actorOf(['Practitioner', 'PractitionerRole']), context),
    visit_date: visitDate,
    frequency: kinExtension(appointment, 'visit-frequency'),
    office_name: displayOf(actorOf(['Location', 'HealthcareService']), context),
    notes: appointment.comment ?? null,
  });
}
