/**
 * Whose records a file holds (CONTRACT §6 'Bring records in'): the person (the account
 * holder or a family member) its patient matches, by this server's own id (a FHIR export of
 * this server names the person by it), else by name and date of birth (case, accents and the
 * order of given and family names aside; a birth date one side does not give is no
 * difference, a different one is); a file without a name (Apple Health's) by date of
 * birth, and sex when both say it, when exactly one person matches. None matches: the file's
 * patient is offered as a new family member. The account holder is never taken by default.
 */
import type { Kysely } from 'kysely';
import type { FileImportPreview } from '../../shared/imports';
import { ownedRows } from '../access/scope';
import type { DB } from '../db/schema';
import type { Person } from '../persons/person-records';
import type { FilePatient } from './file-readers';
import { tr } from '../../shared/i18n/translate';

/** A person the file may be for, with their sex when it is recorded. */
export type Candidate = Person & { sex: string | null };

/** The account holder and their family members. */
export async function candidatesOf(db: Kysely<DB>, userId: string): Promise<Candidate[]> {
  const user = await ownedRows(db, 'user', userId).select(['id', 'name', 'email']).execute();
  const members = await ownedRows(db, 'family_members', userId)
    .select(['id', 'name', 'date_of_birth', 'sex'])
    .execute();
  return [
    ...user.map((row) => ({ ...row, date_of_birth: null, family_member_id: null, sex: null })),
    ...members.map((row) => ({ ...row, email: null, family_member_id: row.id })),
  ];
}

/** A name's words, lower case and without accents, in order: 'José  Smith' → ['jose', 'smith']. */
const wordsOf = (name: string): string[] =>
  name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .sort();

/** Two names are one when they hold the same words, in any order. */
export function sameName(a: string, b: string): boolean {
  const left = wordsOf(a);
  const right = wordsOf(b);
  return left.length > 0 && left.join(' ') === right.join(' ');
}

/** The person the file's patient is, or undefined when none or more than one could be. */
export function matchPerson(
  patient: FilePatient,
  candidates: readonly Candidate[],
): Candidate | undefined {
  const byId = candidates.find((candidate) => patient.ids.includes(candidate.id));
  if (byId) return byId;
  let found: Candidate[];
  if (patient.name !== null) {
    const name = patient.name;
    const named = candidates.filter((candidate) => sameName(candidate.name, name));
    // The same name and birth date; else the same name where one of the two gives no birth
    // date (the account holder has none here; a file may not say), never a different one.
    const born = named.filter((candidate) => candidate.date_of_birth === patient.birth_date);
    found =
      born.length > 0
        ? born
        : named.filter((candidate) => !candidate.date_of_birth || !patient.birth_date);
  } else if (patient.birth_date !== null) {
    found = candidates.filter(
      (candidate) =>
        candidate.date_of_birth === patient.birth_date &&
        (patient.sex === null || candidate.sex === null || candidate.sex === patient.sex),
    );
  } else found = [];
  return found.length === 1 ? found[0] : undefined;
}

/** 'Leo Smith (born 2019-03-02)', or whichever of the two the file gives. */
function patientWords(patient: FilePatient): string | null {
  if (patient.name && patient.birth_date) {
    return tr('{name} (born {date})', { name: patient.name, date: patient.birth_date });
  }
  if (patient.name) return patient.name;
  return patient.birth_date ? tr('someone born {date}', { date: patient.birth_date }) : null;
}

/**
 * Said when the chosen person is not the file's patient: "This file is for Leo Smith (born
 * 2019-03-02), not Maria Smith". Null when they agree, or the file does not say.
 */
export function mismatchOf(patient: FilePatient | null, person: Candidate): string | null {
  if (!patient || patient.ids.includes(person.id)) return null;
  const nameDiffers = patient.name !== null && !sameName(patient.name, person.name);
  const birthDiffers =
    patient.birth_date !== null &&
    person.date_of_birth !== null &&
    patient.birth_date !== person.date_of_birth;
  if (!nameDiffers && !birthDiffers) return null;
  const words = patientWords(patient);
  return words
    ? tr('This file is for {patient}, not {name}', { patient: words, name: person.name })
    : null;
}

/** The family member a file's patient would become: their name, birth date and sex. */
export function newMemberOf(patient: FilePatient | null): FileImportPreview['new_member'] {
  if (!patient?.name) return null;
  return { name: patient.name, date_of_birth: patient.birth_date, sex: patient.sex };
}
