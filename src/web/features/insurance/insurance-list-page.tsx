/** /insurance: current policies, then past ones, dimmed, with the date they expired. */
import { ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { key } from '../../../shared/i18n/translate';
import { insuranceDefinition } from '../../../shared/records';
import type { StoredRecord } from '../../../shared/records/definition';
import { insuranceStatusOf } from '../../../shared/records/insurance';
import { LoadMore } from '../../components/ui/load-more';
import { Badge, RecordCard, RecordListScreen, RecordPlainList } from '../records/record-list-parts';
import { choiceLabel } from '../records/record-phrases';
import { ListEmptyState } from '../family-members/list-empty-state';

type Insurance = StoredRecord<typeof insuranceDefinition>;

function InsuranceCard({ policy }: { policy: Insurance }) {
  const { t } = useTranslation();
  const past = insuranceStatusOf(policy.status) === 'past';
  return (
    <RecordCard
      definition={insuranceDefinition}
      id={policy.id}
      title={policy.provider_name}
      badges={
        <Badge tone={past ? 'neutral' : 'primary'}>
          {choiceLabel(insuranceDefinition.fields.insurance_type, policy.insurance_type)}
        </Badge>
      }
      member={{ name: policy.family_member_name, color: policy.family_member_color }}
      dimmed={past}
      details={
        <>
          {policy.policy_number ? (
            <span className="block">{t('Policy {number}', { number: policy.policy_number })}</span>
          ) : null}
          {past && policy.expiry_date ? (
            <span className="block">
              {t('Expired {date}', { date: formatDate(policy.expiry_date, DAY_GROUP_FORMAT) })}
            </span>
          ) : null}
        </>
      }
    />
  );
}

function Section({
  title,
  policies,
  empty,
}: {
  /** The section's heading, a key of the catalogue: its English names the heading's id. */
  title: string;
  policies: Insurance[];
  /** What an empty section says. */
  empty: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby={`${title}-heading`.replace(/\s/g, '-')}>
      <h2
        id={`${title}-heading`.replace(/\s/g, '-')}
        className="mb-2 text-sm font-semibold text-muted-foreground"
      >
        {t(title)}
      </h2>
      {policies.length ? (
        <ul className="space-y-2">
          {policies.map((policy) => (
            <li key={policy.id}>
              <InsuranceCard policy={policy} />
            </li>
          ))}
        </ul>
      ) : (
        empty
      )}
    </section>
  );
}

function NoneInSection() {
  const { t } = useTranslation();
  return (
    <p className="rounded-2xl border border-dashed border-border p-4 text-sm text-muted-foreground">
      {t('None')}
    </p>
  );
}

export function InsuranceListPage() {
  const { t } = useTranslation();
  return (
    <RecordListScreen definition={insuranceDefinition} addLabel={key('Add Insurance')}>
      <RecordPlainList
        definition={insuranceDefinition}
        render={(list) => {
          const current = list.items.filter(
            (policy) => insuranceStatusOf(policy.status) === 'current',
          );
          const past = list.items.filter((policy) => insuranceStatusOf(policy.status) === 'past');
          return (
            <div className="space-y-6">
              {/* Both sections always, the first saying so when there is no policy at all. */}
              <Section
                title={key('Current Insurance')}
                policies={current}
                empty={
                  list.items.length === 0 ? (
                    <ListEmptyState icon={ShieldCheck} title={t('No insurance policies yet')} />
                  ) : (
                    <NoneInSection />
                  )
                }
              />
              <Section title={key('Past Insurance')} policies={past} empty={<NoneInSection />} />
              <LoadMore query={list} />
            </div>
          );
        }}
      />
    </RecordListScreen>
  );
}
