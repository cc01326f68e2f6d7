/** The Add New dialog of the centre button: one entry per record type that has a form. */
import { ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { key } from '../../../shared/i18n/translate';
import { recordIdentities, type RecordType } from '../../../shared/records/catalogue';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { DocumentIcon, ImportIcon, RecordTypeIcon } from '../../components/record-type-icon';
import { personOfParams, withPerson } from '../family-members/person-in-view';

/** 'New {noun}', each written whole: a language's 'new' agrees with the noun it goes with. */
const NEW_LABELS: Partial<Record<RecordType, string>> = {
  visit: key('New Visit'),
  medication: key('New Medication'),
  shot: key('New Shot'),
  note: key('New Note'),
  condition: key('New Condition'),
  allergy: key('New Allergy'),
  lab_result: key('New Lab Result'),
  insurance: key('New Insurance'),
  vital: key('New Vitals'),
  symptom: key('New Symptom'),
};

const entries = recordIdentities
  .filter((identity) => identity.addNew)
  .map((definition) => ({
    label: NEW_LABELS[definition.type] ?? definition.noun,
    to: `/${definition.path}/new`,
    type: definition.type,
  }));

function AddNewEntry({
  to,
  icon,
  label,
  onChosen,
}: {
  to: string;
  icon: ReactNode;
  label: string;
  onChosen: () => void;
}) {
  return (
    <li>
      <Link
        to={to}
        onClick={onChosen}
        className="flex min-h-20 flex-col justify-between gap-2 rounded-2xl border border-border bg-surface p-3 font-semibold transition-colors hover:border-primary hover:bg-primary-soft"
      >
        {icon}
        <span className="flex items-center justify-between text-sm">
          {label}
          <ChevronRight className="size-4 text-muted-foreground" aria-hidden="true" />
        </span>
      </Link>
    </li>
  );
}

export function AddNewDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  // Opened on a screen filtered to one person, each form starts on that person.
  const [params] = useSearchParams();
  const person = personOfParams(params);
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={t('Add New')} description={t('What would you like to record?')}>
        <ul className="grid grid-cols-2 gap-3">
          {entries.map((entry) => (
            <AddNewEntry
              key={entry.to}
              to={withPerson(entry.to, person)}
              icon={<RecordTypeIcon type={entry.type} size="sm" />}
              label={t(entry.label)}
              onChosen={() => onOpenChange(false)}
            />
          ))}
          <AddNewEntry
            to={withPerson('/documents?upload', person)}
            icon={<DocumentIcon size="sm" />}
            label={t('Upload Document')}
            onChosen={() => onOpenChange(false)}
          />
          <AddNewEntry
            to="/import"
            icon={<ImportIcon size="sm" />}
            label={t('Import Records')}
            onChosen={() => onOpenChange(false)}
          />
        </ul>
      </DialogContent>
    </Dialog>
  );
}
