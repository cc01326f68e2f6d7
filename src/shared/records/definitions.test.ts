/** The definitions agree with SPEC.md and CONTRACT.md on labels, enums and messages. */
import { describe, expect, it } from 'vitest';
import { definitionsByType, recordDefinitions } from '.';

describe('record definitions', () => {
  it('label every form field as CONTRACT.md §2 names it', () => {
    const labels = Object.fromEntries(
      recordDefinitions.map((definition) => [
        definition.type,
        Object.values(definition.fields as Record<string, { label: string }>).map(
          (field) => field.label,
        ),
      ]),
    );
    expect(labels).toEqual({
      visit: [
        'Visit Purpose',
        'Doctor Name',
        'Visit Date',
        'Frequency',
        'Office/Hospital',
        'Notes',
        'Family Member',
      ],
      medication: [
        'Medication Name',
        'Dosage',
        'Frequency',
        'Morning',
        'Noon',
        'Evening',
        'Night',
        'No set time',
        'Start Date',
        'End Date',
        'Condition',
        'Prescribed By',
        // CONTRACT §6 'Medication supply'.
        'Quantity On Hand',
        'Dose Amount',
        'Refills Left',
        'Prescription Ends',
        'Notes',
        'Family Member',
      ],
      // CONTRACT §5 adds 'Vaccine' (a CVX code) to the shot form.
      shot: ['Shot Name', 'Vaccine', 'Date Administered', 'Location', 'Notes', 'Family Member'],
      note: ['Title', 'Note Type', 'Note Date', 'Content', 'Family Member'],
      condition: [
        'Condition Name',
        'Diagnosis Date',
        'Status',
        'Family History',
        'Relation',
        'Notes',
        'Family Member',
      ],
      insurance: [
        'Insurance Type',
        'Provider Name',
        'Policy Number',
        'Group Number',
        'Coverage Details',
        'Deductible',
        'Copay',
        'Effective Date',
        'Expiry Date',
        'Status',
        'Family Member',
      ],
      vital: [
        'Measured At',
        'Weight',
        'Height',
        'Head Circumference',
        'Systolic',
        'Diastolic',
        'Heart Rate',
        'Respiratory Rate',
        'Temperature',
        'Oxygen Saturation',
        'Pain Score',
        'Blood Glucose',
        'Glucose Timing',
        'Notes',
        'Family Member',
      ],
      symptom: ['Symptom', 'Severity', 'Started At', 'Ended At', 'Notes', 'Family Member'],
      contact: [
        'Cares For',
        'Contact Name',
        'Contact Type',
        'Specialty',
        'Phone Number',
        'Email',
        'Address',
        'Notes',
      ],
      allergy: [
        'Substance',
        'Reaction',
        'Severity',
        'Category',
        'Status',
        'Noted Date',
        'Notes',
        'Family Member',
      ],
      lab_result: [
        'Test Name',
        'LOINC Code',
        'Result',
        'Unit',
        'Range Low',
        'Range High',
        'Collected Date',
        'Lab',
        'Ordered By',
        'Notes',
        'Family Member',
      ],
    });
  });

  it('make the note content 8 rows and other multi-line inputs 4', () => {
    for (const definition of recordDefinitions) {
      for (const [name, field] of Object.entries(
        definition.fields as Record<string, { kind: string; rows?: number }>,
      )) {
        if (field.kind !== 'textarea') continue;
        expect(field.rows, `${definition.type}.${name}`).toBe(
          definition.type === 'note' && name === 'content' ? 8 : 4,
        );
      }
    }
  });

  it('use the toasts of SPEC.md §8', () => {
    expect(definitionsByType.visit.messages).toMatchObject({
      created: { title: 'Visit created', description: 'The visit has been created successfully' },
      updated: { title: 'Visit updated', description: 'The visit has been updated successfully' },
      deleted: { title: 'Visit deleted', description: 'The visit has been deleted successfully' },
      createError: 'Error saving visit',
      deleteError: 'Error deleting visit',
      loadListError: 'Error loading visits',
      loadOneError: 'Error loading visit',
    });
    expect(definitionsByType.medication.messages.deleted).toEqual({
      title: 'Medication deleted',
      description: 'The medication has been deleted successfully',
    });
    expect(definitionsByType.condition.messages).toMatchObject({
      created: { title: 'Condition added' },
      updated: { title: 'Condition updated' },
      deleted: {
        title: 'Condition deleted',
        description: 'The condition has been removed successfully.',
      },
      createError: 'Error adding condition',
      updateError: 'Error updating condition',
      loadListError: 'Error loading health history',
      notFound: 'Condition not found',
    });
    expect(definitionsByType.note.messages.notFound).toBe('Note not found');
    expect(definitionsByType.insurance.messages).toMatchObject({
      notFound: 'Insurance not found',
      loadListError: 'Error loading insurance',
    });
    expect(definitionsByType.contact.messages).toMatchObject({
      notFound: 'Contact not found',
      createError: 'Error adding contact',
    });
  });

  it('go back to the detail after editing visits, medications and shots, to the list otherwise', () => {
    expect(
      Object.fromEntries(
        recordDefinitions.map((definition) => [definition.type, definition.afterEdit]),
      ),
    ).toEqual({
      visit: 'detail',
      medication: 'detail',
      shot: 'detail',
      note: 'list',
      condition: 'list',
      insurance: 'list',
      vital: 'detail',
      contact: 'list',
      allergy: 'detail',
      lab_result: 'detail',
      symptom: 'detail',
    });
  });
});

describe('record definitions, pairs of fields', () => {
  it('pair two fields of the type, the second right after the first in the form', () => {
    for (const definition of recordDefinitions) {
      const names = Object.keys(definition.fields);
      for (const [first, second] of definition.pairs ?? []) {
        expect(names.indexOf(second), `${definition.type}: ${first}, ${second}`).toBe(
          names.indexOf(first) + 1,
        );
        expect(names.indexOf(first)).toBeGreaterThanOrEqual(0);
        for (const name of [first, second]) {
          expect(['checkbox', 'member', 'persons']).not.toContain(definition.fields[name]?.kind);
        }
      }
    }
  });

  it('put the dates, ranges and measures that belong together side by side', () => {
    const pairs = Object.fromEntries(
      recordDefinitions.map((definition) => [definition.type, definition.pairs ?? []]),
    );
    expect(pairs.medication).toContainEqual(['start_date', 'end_date']);
    expect(pairs.medication).toContainEqual(['dosage', 'frequency']);
    expect(pairs.insurance).toContainEqual(['effective_date', 'expiry_date']);
    expect(pairs.lab_result).toContainEqual(['range_low', 'range_high']);
    expect(pairs.vital).toContainEqual(['systolic_mmhg', 'diastolic_mmhg']);
  });
});
