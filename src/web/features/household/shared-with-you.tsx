/** 'Shared with you' (/profiles): the persons other accounts shared with the user. */
import { Cake } from 'lucide-react';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { GRANT_ROLE_LABELS } from '../../../shared/household';
import { PersonAvatar } from '../../components/person-avatar';
import { Card } from '../../components/ui/card';
import { useSharedPersons } from './household-queries';

export function SharedWithYou() {
  const shared = useSharedPersons();
  if (shared.length === 0) return null;
  return (
    <section aria-labelledby="shared-with-you" className="mt-8">
      <h2 id="shared-with-you" className="mb-3 text-lg font-semibold">
        Shared with you
      </h2>
      <ul className="space-y-3">
        {shared.map((person) => (
          <li key={person.grantId}>
            <Card className="flex items-center gap-4 overflow-hidden p-4">
              <PersonAvatar name={person.name} color={person.color} />
              <div className="min-w-0 flex-1">
                <h3 className="font-semibold break-words">{person.name}</h3>
                <p className="text-sm text-muted-foreground">Shared by {person.ownerName}</p>
                <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
                  {person.dateOfBirth ? (
                    <span className="inline-flex items-center gap-1.5">
                      <Cake className="size-4" aria-hidden="true" />
                      Born {formatDate(person.dateOfBirth, DAY_GROUP_FORMAT)}
                    </span>
                  ) : null}
                  {person.accessEnds ? (
                    <span>Access ends {formatDate(person.accessEnds, DAY_GROUP_FORMAT)}</span>
                  ) : null}
                </p>
              </div>
              <span className="shrink-0 rounded-full bg-primary-soft px-3 py-1 text-xs font-semibold text-primary">
                {GRANT_ROLE_LABELS[person.role]}
              </span>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
