/** The Add New dialog of the centre button: one entry per record type that has a form. */
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { recordIdentities } from '../../../shared/records/catalogue';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { DocumentIcon, RecordTypeIcon } from '../../components/record-type-icon';

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
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Add New" description="What would you like to record?">
        <ul className="grid grid-cols-2 gap-3">
          {entries.map((entry) => {
            return (
              <li key={entry.to}>
                <Link
                  to={entry.to}
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
              to="/documents?upload"
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
