/**
 * A panel of lab results entered in one go (/labs/new?panel): one 'Collected Date', 'Lab',
 * 'Ordered By' and 'Family Member' for all, and a row per test (Test Name, Result, Unit,
 * Range Low, Range High). Choosing a 'Panel' adds a row for each of its tests, each with its
 * LOINC code and usual unit. Saved all or none; a refusal shows under the row's field.
 * Like every form, it asks before what was typed is left, and keeps a draft for the tab
 * (the records' shared mechanism, useUnsavedChanges).
 */
import { useQueryClient } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../shared/api-error';
import { sortMembersByName } from '../../../shared/family-members';
import { key } from '../../../shared/i18n/translate';
import { labPanelSchema, PANEL_ROW_FIELDS } from '../../../shared/labs/lab-panel';
import {
  labPanels,
  labTestNamed,
  labTests,
  type RangeBounds,
} from '../../../shared/labs/lab-tests';
import { labFlag } from '../../../shared/labs/lab-flag';
import { formatNumber } from '../../../shared/dates';
import { labResultDefinition } from '../../../shared/records';
import { LabFlagBadge } from '../../components/lab-flag-badge';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import {
  FieldError,
  fieldErrorProps,
  FormField,
  PAIRED_FIELDS,
} from '../../components/ui/form-field';
import { Input, Select } from '../../components/ui/input';
import { labResultsApi } from './lab-results-api';
import { cn } from '../../lib/cn';
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
import { PageHeader } from '../shell/page-header';
import { useRangeSuggestions } from './lab-ranges';

type RowField = (typeof PANEL_ROW_FIELDS)[number];
type RangeFields = { range_low: string; range_high: string };
/** A row, and the range last suggested for it (so that a typed one is never replaced). */
type Row = Record<RowField, string> & { key: number; suggested?: RangeFields };

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

const fields = labResultDefinition.fields;
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

export const PANEL_TITLE = key('New Lab Panel');

/** A row's fields, in the order they are typed (and its columns at a desk). */
const ROW_FIELDS = ['test_name', 'result', 'unit', 'range_low', 'range_high'] as const;
/** The row's columns at a desk: the fields, the flag, the remove button. */
const ROW_COLUMNS = 'lg:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))_5rem_2.75rem]';
/** The flag's column header: 'High', 'Low' or 'Normal', as the lists show it. */
const FLAG_HEADER = key('Flag');

/** A row's field's element id, and where its error is kept. */
const rowFieldId = (rowKey: number, name: RowField) =>
  `lab-panel-${rowKey}-${name.replace(/_/g, '-')}`;
const rowErrorPath = (index: number, name: RowField) => `results.${index}.${name}`;

const EMPTY_COMMON = { collected_date: '', lab: '', ordered_by: '', family_member_id: '' };

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

export function LabPanelForm() {
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

  // Each row's range: the person's last one for its test, else the test's typical one; again
  // whenever a row's test or unit, the person, or what is known of them changes.
  const suggest = useRangeSuggestions(common.family_member_id);
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
  }, [suggest, testsKey]);

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

  const commonField = (name: keyof typeof common, type: 'date' | 'text') => {
    const field = fields[name];
    const id = `lab-panel-${name.replace(/_/g, '-')}`;
    return (
      <FormField id={id} label={t(field.label)} required={field.required} error={errors[name]}>
        <Input
          id={id}
          type={type}
          required={field.required}
          maxLength={field.maxLength}
          value={common[name]}
          onChange={(event) => setCommon({ ...common, [name]: event.target.value })}
          {...fieldErrorProps(id, errors[name])}
        />
      </FormField>
    );
  };

  const memberId = 'lab-panel-family-member-id';
  const collectedDate = commonField('collected_date', 'date');
  const labField = commonField('lab', 'text');
  const orderedBy = commonField('ordered_by', 'text');
  return (
    <>
      <PageHeader title={t(PANEL_TITLE)} backTo={listPath} />
      {unsaved.restore}
      {/* The rows' table takes a wider column at a desk (shell/app-layout.tsx). */}
      <Card className="p-5" data-wide>
        <form onSubmit={submit} className="space-y-5" aria-label={t(PANEL_TITLE)} noValidate>
          <FormField
            id={memberId}
            label={t(fields.family_member_id.label)}
            error={errors.family_member_id}
          >
            <Select
              id={memberId}
              value={common.family_member_id}
              onChange={(event) => setCommon({ ...common, family_member_id: event.target.value })}
              {...fieldErrorProps(memberId, errors.family_member_id)}
            >
              <option value="">
                {session.data ? t('{name} (you)', { name: session.data.user.name }) : t('You')}
              </option>
              {persons.map((person) => (
                <option key={person.id} value={person.id}>
                  {person.name}
                </option>
              ))}
            </Select>
          </FormField>
          {collectedDate}
          <div className={PAIRED_FIELDS}>
            {labField}
            {orderedBy}
          </div>
          <FormField id="lab-panel-panel" label={t('Panel')}>
            <Select
              id="lab-panel-panel"
              value={panel}
              onChange={(event) => choosePanel(event.target.value)}
            >
              <option value="">{t('Choose a panel to add its tests…')}</option>
              {labPanels.map((choice) => (
                <option key={choice.name} value={choice.name}>
                  {t(choice.name)}
                </option>
              ))}
            </Select>
          </FormField>
          <datalist id="lab-panel-tests">
            {labTests.map((test) => (
              <option key={test.loinc} value={test.name} />
            ))}
          </datalist>
          <FieldError id="lab-panel-results-error" message={errors.results} />
          {/* From 1024 px the rows are a table: a column per field under one header, each
              field's label kept for assistive tools, and the flag the range gives the result. */}
          <div className="space-y-5 lg:space-y-0">
            <div
              aria-hidden="true"
              className={cn(
                'hidden border-b border-border pb-2 text-sm font-semibold text-muted-foreground lg:grid lg:gap-x-2',
                ROW_COLUMNS,
              )}
            >
              {ROW_FIELDS.map((name) => (
                <span key={name}>
                  {t(fields[name].label)}
                  {fields[name].required ? <span className="text-destructive"> *</span> : null}
                </span>
              ))}
              <span>{t(FLAG_HEADER)}</span>
            </div>
            {rows.map((row, index) => (
              <fieldset
                key={row.key}
                className={cn(
                  'space-y-3 rounded-xl border border-border p-3',
                  'lg:grid lg:items-start lg:gap-x-2 lg:space-y-0 lg:rounded-none lg:border-0 lg:border-b lg:px-0 lg:py-2',
                  ROW_COLUMNS,
                )}
                aria-label={t('Row {n}', { n: formatNumber(index + 1) })}
              >
                <legend className="px-1 text-sm font-semibold lg:sr-only">
                  {t('Row {n}', { n: formatNumber(index + 1) })}
                  {row.test_name ? `: ${row.test_name}` : ''}
                </legend>
                {ROW_FIELDS.map((name) => {
                  const id = rowFieldId(row.key, name);
                  const error = errors[rowErrorPath(index, name)];
                  const field = fields[name];
                  return (
                    <FormField
                      key={name}
                      id={id}
                      label={t(field.label)}
                      required={field.required}
                      error={error}
                      labelClassName="lg:sr-only"
                    >
                      <Input
                        id={id}
                        type="text"
                        required={field.required}
                        maxLength={field.maxLength}
                        autoComplete="off"
                        inputMode={
                          name === 'range_low' || name === 'range_high' ? 'decimal' : undefined
                        }
                        list={name === 'test_name' ? 'lab-panel-tests' : undefined}
                        value={row[name]}
                        onChange={(event) => setRow(row.key, name, event.target.value)}
                        {...fieldErrorProps(id, error)}
                      />
                      {name === 'range_high' ? (
                        <p className="text-sm text-muted-foreground lg:text-xs" aria-live="polite">
                          {rangeNote(row)}
                        </p>
                      ) : null}
                    </FormField>
                  );
                })}
                <div className="hidden lg:flex lg:min-h-11 lg:items-center">
                  <LabFlagBadge flag={labFlag(row)} />
                </div>
                {rows.length > 1 ? (
                  <Button
                    type="button"
                    variant="ghost"
                    className="lg:px-2"
                    onClick={() => setRows(rows.filter((other) => other.key !== row.key))}
                  >
                    <Trash2 aria-hidden="true" />
                    <span className="lg:sr-only">
                      {t('Remove row {n}', { n: formatNumber(index + 1) })}
                    </span>
                  </Button>
                ) : null}
              </fieldset>
            ))}
          </div>
          <Button type="button" variant="outline" onClick={() => setRows([...rows, emptyRow()])}>
            <Plus aria-hidden="true" />
            {t('Add Test')}
          </Button>
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Link to={listPath} className={buttonVariants({ variant: 'outline' })}>
              {t('Cancel')}
            </Link>
            <Button type="submit" disabled={saving} className="sm:min-w-40">
              {saving ? t('Saving...') : t('Save Panel')}
            </Button>
          </div>
        </form>
      </Card>
      {unsaved.confirm}
    </>
  );
}
