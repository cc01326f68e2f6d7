/** The Add New dialog of the centre button: one entry per record type that has a form. */
import { ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { recordIdentities } from '../../../shared/records/catalogue';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { DocumentIcon, ImportIcon, RecordTypeIcon } from '../../components/record-type-icon';
import { personOfParams, withPerson } from '../family-members/person-in-view';

const entries = recordIdentities
  .filter((identity) => identity.addNew)
  .map((definition) => ({
    label: `New ${definition.noun}`,
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
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Add New" description="What would you like to record?">
        <ul className="grid grid-cols-2 gap-3">
          {entries.map((entry) => (
            <AddNewEntry
              key={entry.to}
              to={withPerson(entry.to, person)}
              icon={<RecordTypeIcon type={entry.type} size="sm" />}
              label={entry.label}
              onChosen={() => onOpenChange(false)}
            />
          ))}
          <AddNewEntry
            to={withPerson('/documents?upload', person)}
            icon={<DocumentIcon size="sm" />}
            label="Upload Document"
            onChosen={() => onOpenChange(false)}
          />
          <AddNewEntry
            to="/import"
            icon={<ImportIcon size="sm" />}
            label="Import Records"
            onChosen={() => onOpenChange(false)}
          />
        </ul>
      </DialogContent>
    </Dialog>
  );
}
