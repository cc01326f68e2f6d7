/** The Add New dialog of the centre button: one entry per record type that has a form. */
import { ChevronRight } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { recordIdentities } from '../../../shared/records/catalogue';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { DocumentIcon, RecordTypeIcon } from '../../components/record-type-icon';
import { personOfParams, withPerson } from '../family-members/person-in-view';

const entries = recordIdentities
  .filter((identity) => identity.addNew)
  .map((definition) => ({
    label: `New ${definition.noun}`,
    to: `/${definition.path}/new`,
    type: definition.type,
  }));

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
          {entries.map((entry) => {
            return (
              <li key={entry.to}>
                <Link
                  to={withPerson(entry.to, person)}
                  onClick={() => onOpenChange(false)}
                  className="flex min-h-20 flex-col justify-between gap-2 rounded-2xl border border-border bg-surface p-3 font-semibold transition-colors hover:border-primary hover:bg-primary-soft"
                >
                  <RecordTypeIcon type={entry.type} size="sm" />
                  <span className="flex items-center justify-between text-sm">
                    {entry.label}
                    <ChevronRight className="size-4 text-muted-foreground" aria-hidden="true" />
                  </span>
                </Link>
              </li>
            );
          })}
          <li>
            <Link
              to={withPerson('/documents?upload', person)}
              onClick={() => onOpenChange(false)}
              className="flex min-h-20 flex-col justify-between gap-2 rounded-2xl border border-border bg-surface p-3 font-semibold transition-colors hover:border-primary hover:bg-primary-soft"
            >
              <DocumentIcon size="sm" />
              <span className="flex items-center justify-between text-sm">
                Upload Document
                <ChevronRight className="size-4 text-muted-foreground" aria-hidden="true" />
              </span>
            </Link>
          </li>
        </ul>
      </DialogContent>
    </Dialog>
  );
}
