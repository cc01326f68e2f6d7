/** /list: the Health Records menu, a card for each kind of record. */
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { recordIdentities } from '../../../shared/records/catalogue';
import { RecordTypeIcon } from '../../components/record-type-icon';
import { PageHeader } from '../shell/page-header';

/** A card for each record type the menu lists, as the catalogue says. */
const cards = recordIdentities.flatMap((identity) =>
  identity.menu ? [{ definition: identity, ...identity.menu }] : [],
);

export function HealthRecordsPage() {
  return (
    <>
      <PageHeader title="Health Records" subtitle="Everything you keep, by kind" />
      <ul className="grid gap-3 sm:grid-cols-2">
        {cards.map(({ definition, title, description }) => {
          return (
            <li key={definition.path}>
              <Link
                to={`/${definition.path}`}
                className="flex min-h-20 items-center gap-4 rounded-2xl border border-border bg-surface p-4 shadow-[0_1px_2px_rgb(15_31_36/0.05)] transition-colors hover:border-primary"
              >
                <RecordTypeIcon type={definition.type} size="lg" />
                <span className="min-w-0 flex-1">
                  <span className="block font-semibold">{title}</span>
                  <span className="block text-sm text-muted-foreground">{description}</span>
                </span>
                <ChevronRight className="size-5 text-muted-foreground" aria-hidden="true" />
              </Link>
            </li>
          );
        })}
      </ul>
    </>
  );
}

export default HealthRecordsPage;
