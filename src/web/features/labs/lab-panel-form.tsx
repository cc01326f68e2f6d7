/**
 * A panel of lab results entered in one go (/labs/new?panel): one 'Collected Date', 'Lab',
 * 'Ordered By' and 'Family Member' for all, and a row per test (Test Name, Result, Unit,
 * Range Low, Range High). Choosing a 'Panel' adds a row for each of its tests, each with its
 * LOINC code and usual unit. Saved all or none; a refusal shows under the row's field.
 * Like every form, it asks before what was typed is left, and keeps a draft for the tab
 * (the records' shared mechanism, useUnsavedChanges).
 */
import { Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { key } from '../../../shared/i18n/translate';
import { labPanels, labTests } from '../../../shared/labs/lab-tests';
import { labResultDefinition } from '../../../shared/records';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import {
  FieldError,
  fieldErrorProps,
  FormField,
  PAIRED_FIELDS,
} from '../../components/ui/form-field';
import { Input, Select } from '../../components/ui/input';
import { useSession } from '../auth/session';
import { PageHeader } from '../shell/page-header';
import { LabPanelRows } from './lab-panel-rows';
import { useLabPanelForm, type CommonFields } from './use-lab-panel-form';

const fields = labResultDefinition.fields;

export const PANEL_TITLE = key('New Lab Panel');

/** One of the fields every row shares ('Collected Date', 'Lab', 'Ordered By'). */
function CommonField({
  name,
  type,
  value,
  error,
  onChange,
}: {
  name: keyof CommonFields;
  type: 'date' | 'text';
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const field = fields[name];
  const id = `lab-panel-${name.replace(/_/g, '-')}`;
  return (
    <FormField id={id} label={t(field.label)} required={field.required} error={error}>
      <Input
        id={id}
        type={type}
        required={field.required}
        maxLength={field.maxLength}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...fieldErrorProps(id, error)}
      />
    </FormField>
  );
}

export function LabPanelForm() {
  const { t } = useTranslation();
  const session = useSession();
  const lab = useLabPanelForm();
  const commonField = (name: keyof CommonFields, type: 'date' | 'text') => (
    <CommonField
      name={name}
      type={type}
      value={lab.common[name]}
      error={lab.errors[name]}
      onChange={(value) => lab.setCommonField(name, value)}
    />
  );

  const memberId = 'lab-panel-family-member-id';
  const collectedDate = commonField('collected_date', 'date');
  const labField = commonField('lab', 'text');
  const orderedBy = commonField('ordered_by', 'text');
  return (
    <>
      <PageHeader title={t(PANEL_TITLE)} backTo={lab.listPath} />
      {lab.unsaved.restore}
      {/* The rows' table takes a wider column at a desk (shell/app-layout.tsx). */}
      <Card className="p-5" data-wide>
        <form onSubmit={lab.submit} className="space-y-5" aria-label={t(PANEL_TITLE)} noValidate>
          <FormField
            id={memberId}
            label={t(fields.family_member_id.label)}
            error={lab.errors.family_member_id}
          >
            <Select
              id={memberId}
              value={lab.common.family_member_id}
              onChange={(event) => lab.setCommonField('family_member_id', event.target.value)}
              {...fieldErrorProps(memberId, lab.errors.family_member_id)}
            >
              <option value="">
                {session.data ? t('{name} (you)', { name: session.data.user.name }) : t('You')}
              </option>
              {lab.persons.map((person) => (
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
              value={lab.panel}
              onChange={(event) => lab.choosePanel(event.target.value)}
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
          <FieldError id="lab-panel-results-error" message={lab.errors.results} />
          {/* From 1024 px the rows are a table: a column per field under one header, each
              field's label kept for assistive tools, and the flag the range gives the result. */}
          <LabPanelRows
            rows={lab.rows}
            errors={lab.errors}
            rangeNote={lab.rangeNote}
            setRow={lab.setRow}
            removeRow={lab.removeRow}
          />
          <Button type="button" variant="outline" onClick={lab.addRow}>
            <Plus aria-hidden="true" />
            {t('Add Test')}
          </Button>
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Link to={lab.listPath} className={buttonVariants({ variant: 'outline' })}>
              {t('Cancel')}
            </Link>
            <Button type="submit" disabled={lab.saving} className="sm:min-w-40">
              {lab.saving ? t('Saving...') : t('Save Panel')}
            </Button>
          </div>
        </form>
      </Card>
      {lab.unsaved.confirm}
    </>
  );
}
