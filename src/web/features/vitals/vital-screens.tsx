/**
 * The vitals screens (CONTRACT §5). /vitals shows one person's trend of the chosen
 * 'Measure': a chart named '{Measure} chart' (uPlot, loaded only here) and the same values
 * as a table ('Date', 'Value'), newest first, each date a link to its entry. The person is
 * the one the member filter chose, or the user when it shows everyone. Detail and form are
 * the generic ones; numbers are typed and shown in the account's Units.
 */
import { useQuery } from '@tanstack/react-query';
import { Activity } from 'lucide-react';
import { Suspense, useId, useMemo } from 'react';
import { lazyPart } from '../../lib/when-reachable';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDate, LONG_DATE_TIME_FORMAT } from '../../../shared/dates';
import { currentLanguage } from '../../../shared/i18n/translate';
import { vitalDefinition } from '../../../shared/records';
import { TREND_MEASURES, trendOf, type TrendMeasureLabel } from '../../../shared/vitals-trend';
import { Card } from '../../components/ui/card';
import { EmptyState, Loading } from '../../components/ui/feedback';
import { Label, Select } from '../../components/ui/input';
import { vitalsTrendApi } from './vitals-trend-api';
import { useSession } from '../auth/session';
import { usePersonInView } from '../family-members/person-in-view';
import { useUnits } from '../profile-settings/profile-queries';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';
import { useSymptomMarkers } from '../symptoms/symptom-markers';
import { EmptyLink, RecordListScreen } from '../records/record-list-parts';

const TrendChart = lazyPart(() => import('../../components/charts/trend-chart'));

const MEASURE_PARAM = 'measure';

/** A measure's name inside a sentence: 'blood pressure', but 'BMI' (and German's nouns as they are). */
const measureWords = (label: string) =>
  label === label.toUpperCase() || currentLanguage() === 'de' ? label : label.toLowerCase();

function useMeasure(): [TrendMeasureLabel, (label: string) => void] {
  const [params, setParams] = useSearchParams();
  const asked = params.get(MEASURE_PARAM);
  const measure = TREND_MEASURES.find((item) => item.label === asked)?.label ?? 'Weight';
  const setMeasure = (label: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(MEASURE_PARAM, label);
        return next;
      },
      { replace: true },
    );
  return [measure, setMeasure];
}

function VitalsTrend({ personId }: { personId: string }) {
  const { t } = useTranslation();
  const selectId = useId();
  const units = useUnits();
  const [measure, setMeasure] = useMeasure();
  const trend = useQuery({
    queryKey: ['records', 'vital', 'trend', personId],
    queryFn: () => vitalsTrendApi.get(personId),
  });
  const series = useMemo(
    () => (trend.data ? trendOf(measure, trend.data, units) : null),
    [trend.data, measure, units],
  );
  const points = useMemo(
    () => series?.rows.map((row) => ({ at: row.at, value: row.value })) ?? [],
    [series],
  );
  const second = useMemo(
    () =>
      series?.rows.some((row) => row.value2 !== undefined)
        ? series.rows.map((row) => ({ at: row.at, value: row.value2 ?? row.value }))
        : undefined,
    [series],
  );
  const markers = useSymptomMarkers(personId);
  const ids = useMemo(
    () => new Map(trend.data?.entries.map((entry) => [entry.measured_at, entry.id])),
    [trend.data],
  );

  return (
    // The chart takes a wider column at a desk (shell/app-layout.tsx).
    <div className="space-y-4" data-wide>
      <div className="grid gap-1.5">
        <Label htmlFor={selectId}>{t('Measure')}</Label>
        <Select id={selectId} value={measure} onChange={(event) => setMeasure(event.target.value)}>
          {TREND_MEASURES.map((item) => (
            <option key={item.label} value={item.label}>
              {t(item.label)}
            </option>
          ))}
        </Select>
      </div>
      {trend.isPending ? (
        <Loading />
      ) : trend.error || !series ? (
        <Card className="p-6 text-center font-medium">
          {t(vitalDefinition.messages.loadListError)}
        </Card>
      ) : series.rows.length === 0 ? (
        // Nothing to draw: said in words, with no empty axes.
        <EmptyState
          icon={Activity}
          title={t('No {measure} recorded for {name} yet', {
            measure: measureWords(t(measure)),
            name: trend.data.person.name,
          })}
        >
          <EmptyLink to="/vitals/new">{t('Add Vitals')}</EmptyLink>
        </EmptyState>
      ) : (
        <>
          <Card className="p-3">
            <p className="mb-2 px-1 text-sm text-muted-foreground">
              {trend.data.person.name}
              {series.unit ? ` · ${t(series.unit)}` : ''}
            </p>
            <Suspense fallback={<div style={{ minHeight: 240 }} />}>
              <TrendChart
                name={t('{measure} chart', { measure: t(measure) })}
                points={points}
                series2={second}
                unit={series.unit ? t(series.unit) : undefined}
                markers={markers}
              />
            </Suspense>
          </Card>
          <Card className="overflow-hidden p-0">
            <table className="w-full text-start text-sm">
              <caption className="sr-only">
                {t('{measure} values', { measure: t(measure) })}
              </caption>
              <thead className="bg-surface-muted text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">
                    {t('Date')}
                  </th>
                  <th scope="col" className="px-4 py-2 font-medium">
                    {t('Value')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {[...series.rows].reverse().map((row) => {
                  const id = ids.get(row.at);
                  const date = formatDate(row.at, LONG_DATE_TIME_FORMAT);
                  return (
                    <tr key={row.at}>
                      <td className="px-4 py-2">
                        {id ? (
                          <Link
                            className="text-primary underline-offset-4 hover:underline"
                            to={`/vitals/${id}`}
                          >
                            {date}
                          </Link>
                        ) : (
                          date
                        )}
                      </td>
                      <td className="px-4 py-2 font-medium">{row.text}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </Card>
        </>
      )}
    </div>
  );
}

export function ListPage() {
  const { t } = useTranslation();
  const [member] = usePersonInView();
  const me = useSession().data?.user.id;
  const personId = member ?? me;
  return (
    <RecordListScreen definition={vitalDefinition} addLabel={t('Add Vitals')}>
      {personId ? <VitalsTrend personId={personId} /> : <Loading />}
    </RecordListScreen>
  );
}

export function DetailPage() {
  return <RecordDetailPage definition={vitalDefinition} />;
}

export function FormPage() {
  return <RecordFormPage definition={vitalDefinition} onePersonList />;
}
