import { describe, expect, it } from 'vitest';
import { matchPerson, type Candidate } from './match-person';

const person = (id: string, name: string, date_of_birth: string | null = null): Candidate => ({
  id,
  name,
  email: null,
  date_of_birth,
  family_member_id: id === 'holder' ? null : id,
  sex: null,
});
const patient = (name: string | null, birth_date: string | null = null) => ({
  name,
  birth_date,
  sex: null,
  ids: [],
});

describe('the person a file is for', () => {
  const family = [
    person('holder', 'Maria Smith'),
    person('leo', 'Leo Smith'),
    person('mia', 'Mia Smith', '2021-06-01'),
  ];

  it('is the one of that name when a birth date is missing on either side', () => {
    expect(matchPerson(patient('Leo Smith'), family)?.id).toBe('leo');
    expect(matchPerson(patient('Smith Maria', '1985-02-03'), family)?.id).toBe('holder');
    expect(matchPerson(patient('Mia Smith'), family)?.id).toBe('mia');
  });

  it('is never one whose birth date differs, nor one of two of the same name', () => {
    expect(matchPerson(patient('Mia Smith', '2020-01-01'), family)).toBeUndefined();
    const twins = [...family, person('leo2', 'Leo Smith')];
    expect(matchPerson(patient('Leo Smith'), twins)).toBeUndefined();
  });

  it('prefers the same birth date over a name alone', () => {
    const two = [person('a', 'Ann Lee'), person('b', 'Ann Lee', '1990-01-01')];
    expect(matchPerson(patient('Ann Lee', '1990-01-01'), two)?.id).toBe('b');
  });
});
