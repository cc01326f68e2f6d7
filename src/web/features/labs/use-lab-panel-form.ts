/**
 * What the lab panel form does, apart from how it looks: what it holds (the panel, the fields
 * every row shares, the rows), the range it suggests for each row, its draft, and the save of
 * all rows in one go.
 */
import { useQueryClient } from '@tanstack/react-query';
import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type Dispatch,
  type FormEvent,
  type SetStateAction,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../shared/api-error';
import { sortMembersByName } from '../../../shared/family-members';
import { labPanelSchema, PANEL_ROW_FIELDS } from '../../../shared/labs/lab-panel';
import { labPanels, labTestNamed, type RangeBounds } from '../../../shared/labs/lab-tests';
import { labResultDefinition } from '../../../shared/records';
import { labResultsApi } from './lab-results-api';
import { draftKey } from '../../lib/drafts';
import { queryKeys } from '../../lib/query-client';
import { showError, showSuccess } from '../../lib/toast';
import { useSession } from '../auth/session';
import { useFamilyMembers } from '../family-members/family-member-queries';
import { personOfParams, useFamilyMemberOf, withPerson } from '../family-members/person-in-view';
import { sharedPersonLabel, useSharedPersons } from '../household/household-queries';
import { fillChanges, fillNote } from '../records/form-fill';
import { listLocation } from '../records/list-location';
import { useUnsavedChanges } from '../records/use-unsaved-changes';
import { useRangeSuggestions } from './lab-ranges';

export type RowField = (typeof PANEL_ROW_FIELDS)[number];
type RangeFields = { range_low: string; range_high: string };
/** A row, and the range last suggested for it (so that a typed one is never replaced). */
export type Row = Record<RowField, string> & { key: number; suggested?: RangeFields };

/** A row's range as suggested, filled where the row's range is empty or still the last suggestion. */
function withSuggestedRange(row: Row, range: RangeBounds | null): Row {
  const next = { range_low: range?.low ?? '', range_high: range?.high ?? '' };
  const changes = fillChanges(
    { range_low: row.range_low, range_high: row.range_high },
    row.suggested ?? {},
    next,
  );
  const same =
    Object.keys(changes).length === 0 &&
    row.suggested?.range_low === next.range_low &&
    row.suggested.range_high === next.range_high;
  return same ? row : { ...row, ...changes, suggested: next };
}

let nextKey = 0;
const emptyRow = (): Row => ({
  key: nextKey++,
  test_name: '',
  loinc_code: '',
  result: '',
  unit: '',
  range_low: '',
  range_high: '',
});

const EMPTY_COMMON = { collected_date: '', lab: '', ordered_by: '', family_member_id: '' };
/** The fields every row of the panel shares. */
export type CommonFields = typeof EMPTY_COMMON;

/** What the form holds, as its draft keeps it. */
interface PanelDraft {
  panel: string;
  common: typeof EMPTY_COMMON;
  rows: Row[];
}

/** Whether anything was typed or chosen: the form no longer as it opened (one empty row). */
function panelChanged({ panel, common, rows }: PanelDraft, opened: typeof EMPTY_COMMON): boolean {
  return (
    panel !== '' ||
    (Object.keys(common) as (keyof typeof EMPTY_COMMON)[]).some(
      (name) => common[name] !== opened[name],
    ) ||
    rows.length !== 1 ||
    rows.some((row) => PANEL_ROW_FIELDS.some((field) => row[field] !== ''))
  );
}

/**
 * Each row's range: the person's last one for its test, else the test's typical one; again
 * whenever a row's test or unit, the person, or what is known of them changes. Answers where
 * a row's range comes from, while it holds the one suggested.
 */
function useSuggestedRanges(
  personId: string,
  rows: Row[],
  setRows: Dispatch<SetStateAction<Row[]>>,
) {
  const suggest = useRangeSuggestions(personId);
  const testsKey = rows
    .map((row) => `${row.key}|${row.test_name}|${row.loinc_code}|${row.unit}`)
    .join(';');
  useEffect(() => {
    setRows((current) => {
      const next = current.map((row) =>
        withSuggestedRange(row, suggest({ name: row.test_name, loinc: row.loinc_code }, row.unit)),
      );
      return next.every((row, index) => row === current[index]) ? current : next;
    });
  }, [suggest, testsKey, setRows]);

  /** Where a row's range comes from, while it holds the one suggested. */
  const rangeNote = (row: Row) =>
    row.suggested
      ? fillNote(
          {
            values: row.suggested,
            note: suggest({ name: row.test_name, loinc: row.loinc_code }, row.unit)?.note,
          },
          { range_low: row.range_low, range_high: row.range_high },
        )
      : undefined;
  return rangeNote;
}

export function useLabPanelForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const members = useFamilyMembers();
  const shared = useSharedPersons();
  const persons = useMemo(
    () => [
      ...sortMembersByName(members.data ?? []).map((m) => ({ id: m.id, name: m.name })),
      ...shared
        .filter((person) => person.role === 'editor')
        .map((person) => ({ id: person.personId, name: sharedPersonLabel(person) })),
    ],
    [members.data, shared],
  );
  const [panel, setPanel] = useState('');
  const [common, setCommon] = useState(EMPTY_COMMON);
  // The person in view of the list (`?person=`): the panel is theirs until another is chosen.
  const [searchParams] = useSearchParams();
  const personInView = personOfParams(searchParams);
  const startsOn = useFamilyMemberOf(personInView);
  const [opened, setOpened] = useState(EMPTY_COMMON);
  const preselected = useRef(false);
  useEffect(() => {
    if (startsOn === undefined || preselected.current) return;
    preselected.current = true;
    setOpened((current) => ({ ...current, family_member_id: startsOn }));
    setCommon((current) =>
      current.family_member_id === '' ? { ...current, family_member_id: startsOn } : current,
    );
  }, [startsOn]);
  const listPath = withPerson(`/${labResultDefinition.path}`, personInView);
  const [rows, setRows] = useState<Row[]>(() => [emptyRow()]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const values = useMemo<PanelDraft>(() => ({ panel, common, rows }), [panel, common, rows]);
  const me = session.data?.user.id;
  const unsaved = useUnsavedChanges<PanelDraft>({
    dirty: panelChanged(values, opened),
    values,
    restoreDraft: (draft) => {
      setPanel(draft.panel);
      setCommon({ ...EMPTY_COMMON, ...draft.common });
      // Each row a key of this page's, whatever the draft's were.
      const restored = draft.rows.map(({ key: _key, ...row }) => ({ ...emptyRow(), ...row }));
      setRows(restored.length ? restored : [emptyRow()]);
    },
    draftKey: me ? draftKey(me, `${labResultDefinition.type}-panel`, undefined) : undefined,
    ready: true,
    noun: t('lab panel'),
  });

  const rangeNote = useSuggestedRanges(common.family_member_id, rows, setRows);

  const choosePanel = (name: string) => {
    setPanel(name);
    const chosen = labPanels.find((candidate) => candidate.name === name);
    if (!chosen) return;
    const filled = rows.filter((row) => row.test_name || row.result);
    setRows([
      ...filled,
      ...chosen.tests.map((test) => ({
        ...emptyRow(),
        test_name: test.name,
        loinc_code: test.loinc,
        unit: test.unit,
      })),
    ]);
  };

  const setRow = (key: number, field: RowField, value: string) =>
    setRows((current) =>
      current.map((row) => {
        if (row.key !== key) return row;
        if (field !== 'test_name') return { ...row, [field]: value };
        const known = labTestNamed(value);
        return known
          ? { ...row, test_name: value, loinc_code: known.loinc, unit: known.unit }
          : { ...row, test_name: value, loinc_code: '' };
      }),
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      ...common,
      results: rows.map(({ key: _key, suggested: _suggested, ...row }) => row),
    };
    const checked = labPanelSchema.safeParse(input);
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) {
        const path = issue.path.map(String).join('.');
        found[path] ??= t(issue.message);
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await labResultsApi.savePanel(input);
      unsaved.saved();
      void queryClient.invalidateQueries({ queryKey: queryKeys.records(labResultDefinition.type) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.timelineAll });
      showSuccess({
        title: t('Lab results added'),
        description: t('{count} results have been added successfully.', { count: rows.length }),
      });
      // The list again, filtered to the panel's person if it was filtered.
      const person = common.family_member_id || me;
      navigate(listLocation(labResultDefinition, undefined, personInView ? person : undefined));
    } catch (error) {
      showError(t(labResultDefinition.messages.createError), error);
      if (error instanceof ApiError && error.field) setErrors({ [error.field]: error.message });
    } finally {
      setSaving(false);
    }
  };

  /** One of the fields every row shares, as typed. */
  const setCommonField = (name: keyof CommonFields, value: string) =>
    setCommon({ ...common, [name]: value });
  const addRow = () => setRows([...rows, emptyRow()]);
  const removeRow = (key: number) => setRows(rows.filter((other) => other.key !== key));

  return {
    persons,
    panel,
    common,
    rows,
    errors,
    saving,
    listPath,
    unsaved,
    rangeNote,
    choosePanel,
    setCommonField,
    setRow,
    addRow,
    removeRow,
    submit,
  };
}
