/**
 * /medications: current ones grouped by time of day, past ones grouped by condition.
 */
import { Pill, PillBottle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { key } from '../../../shared/i18n/translate';
import { medicationDefinition } from '../../../shared/records';
import type { StoredRecord } from '../../../shared/records/definition';
import { groupByCondition, groupByTimeOfDay } from '../../../shared/records/medications';
import { LoadMore } from '../../components/ui/load-more';
import {
  EmptyLink,
  RecordCard,
  RecordListScreen,
  RecordViewTabs,
} from '../records/record-list-parts';
import type { useRecordList } from '../records/record-queries';
import { ListEmptyState } from '../family-members/list-empty-state';

type Medication = StoredRecord<typeof medicationDefinition>;

function MedicationCard({ medication, dimmed }: { medication: Medication; dimmed?: boolean }) {
  const { t } = useTranslation();
  const details = [medication.dosage, medication.frequency && t(medication.frequency)]
    .filter(Boolean)
    .join(' · ');
  return (
    <RecordCard
      definition={medicationDefinition}
      id={medication.id}
      title={medication.medication_name}
      member={{ name: medication.family_member_name, color: medication.family_member_color }}
      details={details || undefined}
      dimmed={dimmed}
    />
  );
}

function GroupedMedications({
  list,
  groups,
  dimmed,
}: {
  list: ReturnType<typeof useRecordList<typeof medicationDefinition>>;
  groups: { label: string; medications: Medication[] }[];
  dimmed?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="space-y-5">
      {groups.map((group) => (
        <section key={group.label} aria-label={t(group.label)}>
          <h2 className="mb-2 text-sm font-semibold text-muted-foreground">{t(group.label)}</h2>
          <ul className="space-y-2">
            {group.medications.map((medication) => (
              <li key={medication.id}>
                <MedicationCard medication={medication} dimmed={dimmed} />
              </li>
            ))}
          </ul>
        </section>
      ))}
      <LoadMore query={list} />
    </div>
  );
}

const tabs = [
  { view: 'current', label: key('Current') },
  { view: 'past', label: key('Past') },
] as const;

export function MedicationsListPage() {
  const { t } = useTranslation();
  return (
    <RecordListScreen definition={medicationDefinition} addLabel={t('Add Medication')}>
      <RecordViewTabs
        definition={medicationDefinition}
        tabs={tabs.map((tab) => ({ ...tab, label: t(tab.label) }))}
        spaced={false}
        render={(view, list) => {
          if (list.items.length === 0) {
            return view === 'current' ? (
              <ListEmptyState icon={Pill} title={t('No current medications')}>
                <EmptyLink to="/medications/new">{t('Add your first medication')}</EmptyLink>
              </ListEmptyState>
            ) : (
              <ListEmptyState icon={PillBottle} title={t('No past medications')} />
            );
          }
          return view === 'current' ? (
            <GroupedMedications list={list} groups={groupByTimeOfDay(list.items)} />
          ) : (
            <GroupedMedications list={list} groups={groupByCondition(list.items)} dimmed />
          );
        }}
      />
    </RecordListScreen>
  );
}
