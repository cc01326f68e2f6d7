/** /visits: upcoming and past visits, split at now, with counts on the tabs. */
import { CalendarCheck, CalendarClock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CARD_DAY_FORMAT, CARD_TIME_FORMAT, formatDate } from '../../../shared/dates';
import { key } from '../../../shared/i18n/translate';
import { visitDefinition } from '../../../shared/records';
import type { StoredRecord } from '../../../shared/records/definition';
import {
  EmptyLink,
  RecordCard,
  RecordCards,
  RecordListScreen,
  RecordViewTabs,
} from '../records/record-list-parts';
import { ListEmptyState } from '../family-members/list-empty-state';

type Visit = StoredRecord<typeof visitDefinition>;

function VisitCard({ visit }: { visit: Visit }) {
  const { t } = useTranslation();
  return (
    <RecordCard
      definition={visitDefinition}
      id={visit.id}
      title={visit.visit_name}
      member={{ name: null, color: visit.family_member_color }}
      details={
        <>
          {visit.doctor_name ? <span className="block">{visit.doctor_name}</span> : null}
          {visit.family_member_name ? (
            <span className="block">{t('For: {name}', { name: visit.family_member_name })}</span>
          ) : null}
          {visit.frequency ? <span className="block">{visit.frequency}</span> : null}
        </>
      }
      aside={
        <>
          <span className="block text-sm font-semibold">
            {formatDate(visit.visit_date, CARD_DAY_FORMAT)}
          </span>
          <span className="block text-xs text-muted-foreground">
            {formatDate(visit.visit_date, CARD_TIME_FORMAT)}
          </span>
        </>
      }
    />
  );
}

const tabs = [
  { view: 'upcoming', label: key('Upcoming') },
  { view: 'past', label: key('Past') },
] as const;

export function VisitsListPage() {
  const { t } = useTranslation();
  return (
    <RecordListScreen definition={visitDefinition} addLabel={key('Add New Visit')}>
      <RecordViewTabs
        definition={visitDefinition}
        tabs={tabs}
        spaced
        render={(view, list) =>
          list.items.length === 0 ? (
            view === 'upcoming' ? (
              <ListEmptyState icon={CalendarClock} title={t('No upcoming visits')}>
                <EmptyLink to="/visits/new">{t('Schedule your first visit')}</EmptyLink>
              </ListEmptyState>
            ) : (
              <ListEmptyState icon={CalendarCheck} title={t('No past visits')} />
            )
          ) : (
            <RecordCards list={list} renderItem={(visit) => <VisitCard visit={visit} />} />
          )
        }
      />
    </RecordListScreen>
  );
}
