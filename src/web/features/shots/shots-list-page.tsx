/**
 * /shots: upcoming and past shots by date administered (undated shots are in neither), and
 * the person's vaccine schedule.
 */
import { Syringe } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { key } from '../../../shared/i18n/translate';
import { shotDefinition } from '../../../shared/records';
import type { StoredRecord } from '../../../shared/records/definition';
import {
  RecordCard,
  RecordCards,
  RecordListScreen,
  RecordViewTabs,
} from '../records/record-list-parts';
import { VaccineScheduleTab } from './vaccine-schedule-tab';
import { ListEmptyState } from '../family-members/list-empty-state';

type Shot = StoredRecord<typeof shotDefinition>;

function ShotCard({ shot }: { shot: Shot }) {
  return (
    <RecordCard
      definition={shotDefinition}
      id={shot.id}
      title={shot.shot_name}
      member={{ name: shot.family_member_name, color: shot.family_member_color }}
      details={
        <>
          {shot.date_administered ? (
            <span className="block">{formatDate(shot.date_administered, DAY_GROUP_FORMAT)}</span>
          ) : null}
          {shot.location ? <span className="block">{shot.location}</span> : null}
        </>
      }
    />
  );
}

const tabs = [
  { view: 'upcoming', label: key('Upcoming') },
  { view: 'past', label: key('Past') },
] as const;

export function ShotsListPage() {
  const { t } = useTranslation();
  return (
    <RecordListScreen definition={shotDefinition} addLabel={t('Add Shot')}>
      <RecordViewTabs
        definition={shotDefinition}
        tabs={tabs.map((tab) => ({ ...tab, label: t(tab.label) }))}
        spaced={false}
        extra={{ value: 'schedule', label: t('Schedule'), content: <VaccineScheduleTab /> }}
        render={(view, list) =>
          list.items.length === 0 ? (
            <ListEmptyState
              icon={Syringe}
              title={view === 'upcoming' ? t('No upcoming shots') : t('No past shots')}
            />
          ) : (
            <RecordCards list={list} renderItem={(shot) => <ShotCard shot={shot} />} />
          )
        }
      />
    </RecordListScreen>
  );
}
