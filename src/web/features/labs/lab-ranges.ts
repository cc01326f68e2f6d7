/**
 * What the lab result forms suggest for 'Range Low' and 'Range High' (shared/labs/lab-ranges):
 * the person's past results, read from the list of their lab results (every page, up to the
 * trend's own limit), and who the person is (an adult, their sex) for a typical range.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { MAX_PAGE_SIZE } from '../../../shared/constants';
import { localToday } from '../../../shared/dates';
import {
  suggestedRange,
  type PastRange,
  type RangeSuggestion,
} from '../../../shared/labs/lab-ranges';
import { labResultDefinition } from '../../../shared/records';
import { recordsApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';
import { useSession } from '../auth/session';
import { usePersons } from '../family-members/person-select';
import type { FormFill } from '../records/form-fill';
import type { FormValues } from '../records/form-values';

/** The most past results read for a suggestion (the trend's own limit). */
const MAX_HISTORY = 5000;

async function pastRanges(personId: string): Promise<PastRange[]> {
  const rows: PastRange[] = [];
  let offset: number | null = 0;
  while (offset !== null && rows.length < MAX_HISTORY) {
    const page = await recordsApi(labResultDefinition).list({
      member: personId,
      limit: MAX_PAGE_SIZE,
      offset,
    });
    rows.push(...page.items);
    offset = page.next;
  }
  return rows;
}

/**
 * The range suggested for a test of a person ('' the user themself, as the Family Member
 * select has it): a function of the test and unit, ready once the person's results are in.
 */
export function useRangeSuggestions(member: string) {
  const me = useSession().data?.user.id;
  const personId = member || me || '';
  const history = useQuery({
    // Under the lab results' key: a result saved or deleted refreshes it.
    queryKey: [...queryKeys.records(labResultDefinition.type), 'ranges', personId],
    queryFn: () => pastRanges(personId),
    enabled: personId !== '',
  });
  const persons = usePersons({ shared: true });
  const person = persons.find((candidate) => candidate.id === personId);
  const dateOfBirth = person?.dateOfBirth ?? null;
  const sex = person?.sex ?? null;
  const today = localToday();
  return useMemo(() => {
    const rangePerson = { dateOfBirth, sex, holder: personId === me };
    const past = history.data ?? [];
    return (test: { name: string; loinc: string }, unit: string): RangeSuggestion | null =>
      suggestedRange(past, test, unit, rangePerson, today);
  }, [history.data, dateOfBirth, sex, personId, me, today]);
}

const text = (value: FormValues[string] | undefined) => (typeof value === 'string' ? value : '');

/** The single result form's fill: its range from its test, for its person, in its unit. */
export function useLabRangeFill(values: FormValues): FormFill {
  const suggest = useRangeSuggestions(text(values.family_member_id));
  return useMemo(
    () => ({
      inputs: (current) =>
        ['family_member_id', 'test_name', 'loinc_code', 'unit']
          .map((name) => text(current[name]))
          .join('|'),
      fill: (current) => {
        const range = suggest(
          { name: text(current.test_name), loinc: text(current.loinc_code) },
          text(current.unit),
        );
        return {
          values: { range_low: range?.low ?? '', range_high: range?.high ?? '' },
          note: range?.note,
        };
      },
      noteAfter: 'range_high',
    }),
    [suggest],
  );
}
