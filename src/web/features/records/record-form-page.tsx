/**
 * The create and edit form of every record type, built from its definition. Create or
 * edit is decided by the id in the route; after saving, a create returns to the list and
 * an edit to the detail or the list, as the type says (SPEC.md §4).
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RecordDefinition } from '../../../shared/records/definition';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Loading } from '../../components/ui/feedback';
import { ApiError } from '../../../shared/api-error';
import { withPerson } from '../family-members/person-in-view';
import { PageHeader } from '../shell/page-header';
import type { FormValues } from './form-values';
import type { FormFill } from './form-fill';
import { RECORD_PHRASES } from './record-phrases';
import { RecordFields, type FieldRule } from './record-form-fields';
import type { RepeatGroup } from './repeat-groups';
import { useRecordForm } from './use-record-form';

/** A form that fills nothing in. */
const noFill = (): FormFill | undefined => undefined;

export function RecordFormPage({
  definition,
  fieldRule,
  onePersonList = false,
  useFill = noFill,
  repeat,
}: {
  definition: RecordDefinition;
  fieldRule?: FieldRule;
  /**
   * Fields the form fills in from others, never over what the user typed: a hook, given
   * what the form holds (a lab result's range needs the chosen person's past results).
   */
  useFill?: (values: FormValues) => FormFill | undefined;
  /** Fields a new record's form repeats, each group saved as one more record. */
  repeat?: RepeatGroup;
  /**
   * The type's list shows one person at a time (/vitals: the user's unless filtered): after
   * a save it shows the person saved for, filtered or not.
   */
  onePersonList?: boolean;
}) {
  const { t } = useTranslation();
  const phrases = RECORD_PHRASES[definition.type];
  const { id, editing, record, pending, personInView, listPath, save, submit, unsaved, fields } =
    useRecordForm({ definition, useFill, repeat, onePersonList });

  const title = t(editing ? phrases.edit : phrases.create);
  const backTo = withPerson(editing ? `${listPath}/${id}` : listPath, personInView);
  if (pending) {
    return (
      <>
        <PageHeader title={title} backTo={backTo} />
        <Loading />
      </>
    );
  }
  if (editing && record.error) {
    const missing = record.error instanceof ApiError && record.error.status === 404;
    return (
      <>
        <PageHeader title={title} backTo={withPerson(listPath, personInView)} />
        <Card className="p-6 text-center font-medium">
          {t(missing ? definition.messages.notFound : definition.messages.loadOneError)}
        </Card>
      </>
    );
  }

  return (
    <>
      <PageHeader title={title} backTo={backTo} />
      {unsaved.restore}
      <Card className="p-5">
        <form onSubmit={submit} className="space-y-5" aria-label={title}>
          <RecordFields definition={definition} fieldRule={fieldRule} fields={fields} />
          {/* Always there, so a screen reader hears the notice the moment Save waits. */}
          <div role="status">
            {save.isPaused ? (
              <p className="rounded-xl bg-surface-muted p-3 text-sm font-medium">
                {t(phrases.savedOnline)}
              </p>
            ) : null}
          </div>
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Link to={backTo} className={buttonVariants({ variant: 'outline' })}>
              {t('Cancel')}
            </Link>
            <Button type="submit" disabled={save.isPending} className="sm:min-w-40">
              {save.isPending ? t('Saving...') : t(editing ? phrases.update : phrases.save)}
            </Button>
          </div>
        </form>
      </Card>
      {unsaved.confirm}
    </>
  );
}
