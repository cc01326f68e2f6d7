/**
 * Healthcare contacts: doctors, pharmacies, hospitals (SPEC.md §2 Contacts), each caring for
 * some of the family's persons, or for the whole family when none is named.
 */
import { choiceWithDefault, email, persons, tel, text, textarea } from './fields';
import { recordCatalogue } from './catalogue';
import { defineRecord, objectSchema, standardMessages } from './definition';

export const CONTACT_TYPES = [
  'Doctor',
  'Nurse',
  'Pharmacy',
  'Hospital',
  'Specialist',
  'Other',
] as const;

export const CARES_FOR_LABEL = 'Cares For';

const fields = {
  // The person comes first in every form: here, the persons the contact looks after.
  person_ids: persons(CARES_FOR_LABEL),
  contact_name: text('Contact Name', { required: true }),
  contact_type: choiceWithDefault('Contact Type', CONTACT_TYPES, 'Doctor'),
  specialty: text('Specialty'),
  phone_number: tel('Phone Number'),
  email: email('Email'),
  address: textarea('Address'),
  notes: textarea('Notes'),
};

export const contactDefinition = defineRecord({
  ...recordCatalogue.contact,
  titleField: 'contact_name',
  fields,
  schema: objectSchema(fields),
  memberLinked: false,
  order: [{ column: 'contact_name', direction: 'asc', caseInsensitive: true }],
  afterEdit: 'list',
  messages: standardMessages('Contact', 'contacts', {
    created: 'added',
    deletedDescription: 'removed',
  }),
});
