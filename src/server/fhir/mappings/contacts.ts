/**
 * Contacts both ways. Out: a person contact is a Practitioner and their PractitionerRole,
 * any other an Organization; the contacts of a person are their CareTeam. In: a
 * Practitioner (with its role), a role alone, or an Organization that is no insurer is a
 * contact.
 */
import type {
  CareTeam,
  ContactPoint,
  Organization,
  Practitioner,
  PractitionerRole,
} from '@medplum/fhirtypes';
import { CONTACT_TYPES } from '../../../shared/records/contacts';
import {
  SYSTEM,
  codedConcept,
  codesOf,
  derivedId,
  humanName,
  kinExtension,
  kinExtensions,
  listOf,
  pick,
  referenceTo,
  telecom,
  textConcept,
  textOf,
} from '../fhir-elements';
import type { FhirRows } from '../fhir-source';
import {
  IGNORE,
  SKIP,
  one,
  type ImportContext,
  type MapResult,
  type MappingContext,
} from './mapping';

/** Contact types that are people; the others (pharmacy, hospital, other) are organisations. */
export const PERSON_CONTACT_TYPES: readonly string[] = ['Doctor', 'Nurse', 'Specialist'];

const ROLE_CODE: Record<string, string> = { Doctor: 'doctor', Nurse: 'nurse' };

function telecomOf(contact: FhirRows['contact']): ContactPoint[] | undefined {
  const telecom: ContactPoint[] = [];
  if (contact.phone_number) telecom.push({ system: 'phone', value: contact.phone_number });
  if (contact.email) telecom.push({ system: 'email', value: contact.email });
  return telecom.length > 0 ? telecom : undefined;
}

/** A person contact is a Practitioner and their role; any other contact an Organization. */
export function contactResources(
  contact: FhirRows['contact'],
): [Practitioner, PractitionerRole] | [Organization] {
  const telecom = telecomOf(contact);
  const address = contact.address ? [{ text: contact.address }] : undefined;
  if (!PERSON_CONTACT_TYPES.includes(contact.contact_type)) {
    return [
      {
        resourceType: 'Organization',
        id: contact.id,
        extension: kinExtensions({
          'contact-specialty': contact.specialty,
          'contact-notes': contact.notes,
        }),
        type: [{ text: contact.contact_type }],
        name: contact.contact_name,
        telecom,
        address,
      },
    ];
  }
  const roleCode = ROLE_CODE[contact.contact_type];
  return [
    {
      resourceType: 'Practitioner',
      id: contact.id,
      extension: kinExtensions({ 'contact-notes': contact.notes }),
      name: [{ text: contact.contact_name }],
      telecom,
      address,
    },
    {
      resourceType: 'PractitionerRole',
      id: derivedId(contact.id, 'role'),
      practitioner: referenceTo(contact.id),
      code: [
        roleCode
          ? codedConcept(
              SYSTEM.practitionerRole,
              roleCode,
              contact.contact_type,
              contact.contact_type,
            )
          : { text: contact.contact_type },
      ],
      specialty: listOf(textConcept(contact.specialty)),
    },
  ];
}

export interface CareTeamMember {
  id: string;
  contactType: string;
}

/** The contacts that care for one person, as their care team. */
export function careTeamResource(
  personId: string,
  members: readonly CareTeamMember[],
  context: MappingContext,
): CareTeam | undefined {
  if (members.length === 0) return undefined;
  return {
    resourceType: 'CareTeam',
    id: derivedId(personId, 'care-team'),
    status: 'active',
    name: 'Care team',
    subject: context.patient,
    participant: members.map((member) => ({
      role: [{ text: member.contactType }],
      member: referenceTo(member.id),
    })),
  };
}

// ---- import ---------------------------------------------------------------------------

function addressText(resource: Practitioner | Organization): string | null {
  const [address] = resource.address ?? [];
  if (!address) return null;
  const parts = [
    ...(address.line ?? []),
    address.city,
    address.state,
    address.postalCode,
    address.country,
  ];
  return address.text ?? (parts.filter(Boolean).join(', ') || null);
}

const CONTACT_TYPE_OF_ROLE: Record<string, (typeof CONTACT_TYPES)[number]> = {
  doctor: 'Doctor',
  nurse: 'Nurse',
};

/** A person's contact type, from their role: a doctor unless the role says otherwise. */
function personContactType(role: PractitionerRole | undefined) {
  const concept = role?.code?.[0];
  const named = pick(CONTACT_TYPES, concept?.text);
  if (named && PERSON_CONTACT_TYPES.includes(named)) return named;
  return (
    codesOf(concept, SYSTEM.practitionerRole)
      .map((code) => CONTACT_TYPE_OF_ROLE[code])
      .find(Boolean) ?? 'Doctor'
  );
}

export function practitionerRecord(
  practitioner: Practitioner,
  role: PractitionerRole | undefined,
): MapResult {
  const name = humanName(practitioner.name);
  if (!name) return SKIP;
  return one('contact', {
    contact_name: name,
    contact_type: personContactType(role),
    specialty: textOf(role?.specialty?.[0]),
    phone_number: telecom(practitioner.telecom, 'phone') ?? telecom(role?.telecom, 'phone'),
    email: telecom(practitioner.telecom, 'email') ?? telecom(role?.telecom, 'email'),
    address: addressText(practitioner),
    notes: kinExtension(practitioner, 'contact-notes'),
  });
}

export function organizationRecord(organization: Organization, context: ImportContext): MapResult {
  // An insurer is the provider of a policy, not a contact.
  if (context.isPartOfAnother(organization)) return IGNORE;
  if (!organization.name) return SKIP;
  return one('contact', {
    contact_name: organization.name,
    contact_type:
      organization.type
        ?.map((type) => pick(CONTACT_TYPES, type.text))
        .find((type) => type && !PERSON_CONTACT_TYPES.includes(type)) ?? 'Other',
    specialty: kinExtension(organization, 'contact-specialty'),
    phone_number: telecom(organization.telecom, 'phone'),
    email: telecom(organization.telecom, 'email'),
    address: addressText(organization),
    notes: kinExtension(organization, 'contact-notes'),
  });
}

/** A role is read with its practitioner; alone (its practitioner elsewhere), as a contact. */
export function practitionerRoleRecord(role: PractitionerRole, context: ImportContext): MapResult {
  if (context.resolve(role.practitioner)?.resourceType === 'Practitioner') return IGNORE;
  const name = role.practitioner?.display;
  if (!name) return SKIP;
  return practitionerRecord({ resourceType: 'Practitioner', name: [{ text: name }] }, role);
}
