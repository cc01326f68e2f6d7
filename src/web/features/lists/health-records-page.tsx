/** /list: the Health Records menu, a card for each kind of record. */
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import {
  conditionDefinition,
  insuranceDefinition,
  medicationDefinition,
  noteDefinition,
  shotDefinition,
  visitDefinition,
} from '../../../shared/records';
import { RecordTypeIcon } from '../../components/record-type-icon';
import { PageHeader } from '../shell/page-header';

const cards = [
  { definition: visitDefinition, title: 'Visits', description: 'Appointments, past and upcoming' },
  {
    definition: medicationDefinition,
    title: 'Medications',
    description: 'What you take, and when',
  },
  { definition: shotDefinition, title: 'Shots', description: 'Vaccinations and boosters' },
  {
    definition: noteDefinition,
    title: 'Notes',
    description: 'Letters, referrals and your own notes',
  },
  {
    definition: conditionDefinition,
    title: 'Health History',
    description: 'Conditions, yours and the family’s',
  },
  {
    definition: insuranceDefinition,
    title: 'Insurance',
    description: 'Policies, current and past',
  },
];

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
