/**
 * The lab result screens: the list (each result with its flag), the detail with the test's
 * trend, and the generic form; /labs/new?panel opens the panel form instead (several
 * results of one date and lab in one go).
 */
import { FlaskConical } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { labFlag, rangeText } from '../../../shared/labs/lab-flag';
import { labResultDefinition } from '../../../shared/records';
import type { StoredRecord } from '../../../shared/records/definition';
import { LabFlagBadge } from '../../components/lab-flag-badge';
import { Button } from '../../components/ui/button';
import { usePersonInView, withPerson } from '../family-members/person-in-view';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';
import {
  RecordCard,
  RecordCards,
  RecordListScreen,
  RecordPlainList,
} from '../records/record-list-parts';
import { LabPanelForm } from './lab-panel-form';
import { useLabRangeFill } from './lab-ranges';
import { LabTrend } from './lab-trend';
import { ListEmptyState } from '../family-members/list-empty-state';

type LabResult = StoredRecord<typeof labResultDefinition>;

const valueText = (lab: LabResult) => `${lab.result}${lab.unit ? ` ${lab.unit}` : ''}`;

function LabCard({ lab }: { lab: LabResult }) {
  const { t } = useTranslation();
  const range = rangeText(lab.range_low, lab.range_high);
  return (
    <RecordCard
      definition={labResultDefinition}
      id={lab.id}
      title={lab.test_name}
      badges={<LabFlagBadge flag={labFlag(lab)} />}
      member={{ name: lab.family_member_name, color: lab.family_member_color }}
      details={
        <>
          <span className="block">
            {valueText(lab)}
            {range ? ` · ${t('Range {range}', { range })}` : ''}
          </span>
          <span className="block">
            {formatDate(lab.collected_date, DAY_GROUP_FORMAT)}
            {lab.lab ? ` · ${lab.lab}` : ''}
          </span>
        </>
      }
    />
  );
}

export function ListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [person] = usePersonInView();
  return (
    <RecordListScreen definition={labResultDefinition} addLabel={t('Add Lab Result')}>
      <div className="mb-4 flex justify-end">
        <Button
          variant="outline"
          onClick={() => navigate(withPerson(`/${labResultDefinition.path}/new?panel`, person))}
        >
          <FlaskConical aria-hidden="true" />
          {t('Add Panel')}
        </Button>
      </div>
      <RecordPlainList
        definition={labResultDefinition}
        render={(list) =>
          list.items.length === 0 ? (
            <ListEmptyState icon={FlaskConical} title={t('No lab results recorded yet')} />
          ) : (
            <RecordCards list={list} renderItem={(lab) => <LabCard lab={lab} />} />
          )
        }
      />
    </RecordListScreen>
  );
}

export function DetailPage() {
  return (
    <RecordDetailPage
      definition={labResultDefinition}
      customisation={{
        badges: (lab) => <LabFlagBadge flag={labFlag(lab)} />,
        after: (lab) => (
          <LabTrend
            id={lab.id}
            testName={lab.test_name}
            personId={lab.family_member_id ?? lab.user_id}
          />
        ),
      }}
    />
  );
}

export function FormPage() {
  const [searchParams] = useSearchParams();
  if (searchParams.has('panel')) return <LabPanelForm />;
  return (
    <RecordFormPage
      definition={labResultDefinition}
      // The LOINC code comes with a suggestion chosen; it is not typed.
      fieldRule={(name) => (name === 'loinc_code' ? 'hidden' : undefined)}
      // The range last used for the person and test, else the test's typical adult range.
      useFill={useLabRangeFill}
    />
  );
}
