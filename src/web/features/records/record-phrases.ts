/**
 * The sentences the generic record screens say about one type: 'Visit Details', 'Delete
 * Allergy', 'This note will be saved when you are back online.' Each is a whole sentence of
 * the catalogue, one per type, since a language names a record with its own gender and case
 * ('diese Impfung', 'ce vaccin', 'прививку'): a noun dropped into one sentence would not do.
 * Their English is the type's noun in the sentence the screens always said.
 */
import type { RecordType } from '../../../shared/records/catalogue';
import type { Toast } from '../../../shared/records/definition';
import { key, tr } from '../../../shared/i18n/translate';

export { choiceLabel } from '../../../shared/records/fields';

/** A definition's toast (its words keys of the catalogue) in the language in force. */
export function translatedToast(toast: Toast): Toast {
  return {
    title: tr(toast.title),
    ...(toast.description ? { description: tr(toast.description) } : {}),
  };
}

export interface RecordPhrases {
  /** The detail screen's title: 'Visit Details'. */
  details: string;
  /** The edit form's title and the detail's edit button: 'Edit Visit'. */
  edit: string;
  /** The new record form's title: 'New Visit'. */
  create: string;
  /** The detail's delete button: 'Delete Visit'. */
  delete: string;
  /** What the delete step says. */
  deleteWarning: string;
  /** The form's button, new and edit: 'Save Visit', 'Update Visit'. */
  save: string;
  update: string;
  /** The form's notice while a save waits for the network. */
  savedOnline: string;
}

export const RECORD_PHRASES: Readonly<Record<RecordType, RecordPhrases>> = {
  visit: {
    details: key('Visit Details'),
    edit: key('Edit Visit'),
    create: key('New Visit'),
    delete: key('Delete Visit'),
    deleteWarning: key(
      'This action cannot be undone. This will permanently delete this visit. Its documents stay with the person, no longer attached to it.',
    ),
    save: key('Save Visit'),
    update: key('Update Visit'),
    savedOnline: key('This visit will be saved when you are back online.'),
  },
  medication: {
    details: key('Medication Details'),
    edit: key('Edit Medication'),
    create: key('New Medication'),
    delete: key('Delete Medication'),
    deleteWarning: key(
      'This action cannot be undone. This will permanently delete this medication. Its documents stay with the person, no longer attached to it.',
    ),
    save: key('Save Medication'),
    update: key('Update Medication'),
    savedOnline: key('This medication will be saved when you are back online.'),
  },
  shot: {
    details: key('Shot Details'),
    edit: key('Edit Shot'),
    create: key('New Shot'),
    delete: key('Delete Shot'),
    deleteWarning: key(
      'This action cannot be undone. This will permanently delete this shot. Its documents stay with the person, no longer attached to it.',
    ),
    save: key('Save Shot'),
    update: key('Update Shot'),
    savedOnline: key('This shot will be saved when you are back online.'),
  },
  note: {
    details: key('Note Details'),
    edit: key('Edit Note'),
    create: key('New Note'),
    delete: key('Delete Note'),
    deleteWarning: key(
      'This action cannot be undone. This will permanently delete this note. Its documents stay with the person, no longer attached to it.',
    ),
    save: key('Save Note'),
    update: key('Update Note'),
    savedOnline: key('This note will be saved when you are back online.'),
  },
  condition: {
    details: key('Condition Details'),
    edit: key('Edit Condition'),
    create: key('New Condition'),
    delete: key('Delete Condition'),
    deleteWarning: key(
      'This action cannot be undone. This will permanently delete this condition. Its documents stay with the person, no longer attached to it.',
    ),
    save: key('Save Condition'),
    update: key('Update Condition'),
    savedOnline: key('This condition will be saved when you are back online.'),
  },
  allergy: {
    details: key('Allergy Details'),
    edit: key('Edit Allergy'),
    create: key('New Allergy'),
    delete: key('Delete Allergy'),
    deleteWarning: key(
      'This action cannot be undone. This will permanently delete this allergy. Its documents stay with the person, no longer attached to it.',
    ),
    save: key('Save Allergy'),
    update: key('Update Allergy'),
    savedOnline: key('This allergy will be saved when you are back online.'),
  },
  lab_result: {
    details: key('Lab Result Details'),
    edit: key('Edit Lab Result'),
    create: key('New Lab Result'),
    delete: key('Delete Lab Result'),
    deleteWarning: key(
      'This action cannot be undone. This will permanently delete this lab result. Its documents stay with the person, no longer attached to it.',
    ),
    save: key('Save Lab Result'),
    update: key('Update Lab Result'),
    savedOnline: key('This lab result will be saved when you are back online.'),
  },
  insurance: {
    details: key('Insurance Details'),
    edit: key('Edit Insurance'),
    create: key('New Insurance'),
    delete: key('Delete Insurance'),
    deleteWarning: key(
      'This action cannot be undone. This will permanently delete this insurance. Its documents stay with the person, no longer attached to it.',
    ),
    save: key('Save Insurance'),
    update: key('Update Insurance'),
    savedOnline: key('This insurance will be saved when you are back online.'),
  },
  vital: {
    details: key('Vitals Details'),
    edit: key('Edit Vitals'),
    create: key('New Vitals'),
    delete: key('Delete Vitals'),
    deleteWarning: key(
      'This action cannot be undone. This will permanently delete this vitals. Its documents stay with the person, no longer attached to it.',
    ),
    save: key('Save Vitals'),
    update: key('Update Vitals'),
    savedOnline: key('This vitals will be saved when you are back online.'),
  },
  symptom: {
    details: key('Symptom Details'),
    edit: key('Edit Symptom'),
    create: key('New Symptom'),
    delete: key('Delete Symptom'),
    deleteWarning: key(
      'This action cannot be undone. This will permanently delete this symptom. Its documents stay with the person, no longer attached to it.',
    ),
    save: key('Save Symptom'),
    update: key('Update Symptom'),
    savedOnline: key('This symptom will be saved when you are back online.'),
  },
  contact: {
    details: key('Contact Details'),
    edit: key('Edit Contact'),
    create: key('New Contact'),
    delete: key('Delete Contact'),
    deleteWarning: key(
      'This action cannot be undone. This will permanently delete this contact. Its documents stay with the person, no longer attached to it.',
    ),
    save: key('Save Contact'),
    update: key('Update Contact'),
    savedOnline: key('This contact will be saved when you are back online.'),
  },
};

/** What a form with unsaved typing asks, by what the form is about ('visit', 'lab panel'). */
export interface UnsavedPhrases {
  /** The question before leaving: 'What you typed in this visit has not been saved. …' */
  discard: string;
  /** The offer of a draft kept: 'Restore your unsaved visit?' */
  restore: string;
}

export const UNSAVED_PHRASES: Readonly<Record<string, UnsavedPhrases>> = {
  visit: {
    discard: key('What you typed in this visit has not been saved. Leave and discard it?'),
    restore: key('Restore your unsaved visit?'),
  },
  medication: {
    discard: key('What you typed in this medication has not been saved. Leave and discard it?'),
    restore: key('Restore your unsaved medication?'),
  },
  shot: {
    discard: key('What you typed in this shot has not been saved. Leave and discard it?'),
    restore: key('Restore your unsaved shot?'),
  },
  note: {
    discard: key('What you typed in this note has not been saved. Leave and discard it?'),
    restore: key('Restore your unsaved note?'),
  },
  condition: {
    discard: key('What you typed in this condition has not been saved. Leave and discard it?'),
    restore: key('Restore your unsaved condition?'),
  },
  allergy: {
    discard: key('What you typed in this allergy has not been saved. Leave and discard it?'),
    restore: key('Restore your unsaved allergy?'),
  },
  'lab result': {
    discard: key('What you typed in this lab result has not been saved. Leave and discard it?'),
    restore: key('Restore your unsaved lab result?'),
  },
  insurance: {
    discard: key('What you typed in this insurance has not been saved. Leave and discard it?'),
    restore: key('Restore your unsaved insurance?'),
  },
  vitals: {
    discard: key('What you typed in this vitals has not been saved. Leave and discard it?'),
    restore: key('Restore your unsaved vitals?'),
  },
  symptom: {
    discard: key('What you typed in this symptom has not been saved. Leave and discard it?'),
    restore: key('Restore your unsaved symptom?'),
  },
  contact: {
    discard: key('What you typed in this contact has not been saved. Leave and discard it?'),
    restore: key('Restore your unsaved contact?'),
  },
  'lab panel': {
    discard: key('What you typed in this lab panel has not been saved. Leave and discard it?'),
    restore: key('Restore your unsaved lab panel?'),
  },
};

/**
 * The questions of a form about `noun`; a form not listed here (none yet) asks in English,
 * its sentence made as before.
 */
export function unsavedPhrasesOf(noun: string): UnsavedPhrases {
  return (
    UNSAVED_PHRASES[noun] ?? {
      discard: `What you typed in this ${noun} has not been saved. Leave and discard it?`,
      restore: `Restore your unsaved ${noun}?`,
    }
  );
}

/** What a form repeats a group of fields for, by the group's noun ('shot'). */
export interface GroupPhrases {
  /** A group's heading: 'Shot 2'. */
  heading: string;
  /** Its button: 'Remove shot 2'. */
  remove: string;
  /** The toast after saving several, with `count`: '3 shots saved'. */
  saved: string;
  savedDescription: string;
  /** The toast when only some were saved, with `count` and the type's `error`. */
  partlySaved: string;
}

export const GROUP_PHRASES: Readonly<Record<string, GroupPhrases>> = {
  shot: {
    heading: key('Shot {number}'),
    remove: key('Remove shot {number}'),
    saved: key('{count} shots saved'),
    savedDescription: key('The {count} shots have been created successfully'),
    partlySaved: key('{error}: {count} shots saved, the rest are still here'),
  },
};

/** The sentences of a repeated group; one not listed here (none yet) speaks English. */
export function groupPhrasesOf(group: { noun: string; plural: string }): GroupPhrases {
  const { noun, plural } = group;
  return (
    GROUP_PHRASES[noun] ?? {
      heading: `${noun.charAt(0).toUpperCase()}${noun.slice(1)} {number}`,
      remove: `Remove ${noun} {number}`,
      saved: `{count} ${plural} saved`,
      savedDescription: `The {count} ${plural} have been created successfully`,
      partlySaved: `{error}: {count} ${plural} saved, the rest are still here`,
    }
  );
}
