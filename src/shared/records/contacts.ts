/** Healthcare contacts: doctors, pharmacies, hospitals (SPEC.md §2 Contacts). */
import { choiceWithDefault, email, tel, text, textarea } from './fields';
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

const fields = {
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
