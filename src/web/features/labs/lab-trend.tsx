/**
 * A lab result's trend (CONTRACT.md §5): a heading 'Trend', the chart of the person's numeric
 * results of the same test named '{Test Name} trend', with the range as a band and the
 * out-of-range points marked (with no number among them, a line says so instead of empty
 * axes), and the same results as a table, newest first (the chart's accessible
 * alternative). The chart's code loads only here.
 */
import { useQuery } from '@tanstack/react-query';
import { Suspense, useMemo } from 'react';
import { lazyPart } from '../../lib/when-reachable';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { decimalOf, labFlag, outOfRangeOf, rangeText } from '../../../shared/labs/lab-flag';
import { recordCatalogue } from '../../../shared/records/catalogue';
import type { TrendPoint } from '../../components/charts/trend-chart';
import { LabFlagBadge } from '../../components/lab-flag-badge';
import { Card } from '../../components/ui/card';
import { Loading } from '../../components/ui/feedback';
import { labResultsApi } from './lab-results-api';
import { queryKeys } from '../../lib/query-client';
import { useSymptomMarkers } from '../symptoms/symptom-markers';

const TrendChart = lazyPart(() => import('../../components/charts/trend-chart'));

export function LabTrend({
  id,
  testName,
  personId,
}: {
  id: string;
  testName: string;
  /** Whose symptoms are marked on the trend's time axis. */
  personId: string;
}) {
  const { t } = useTranslation();
  const markers = useSymptomMarkers(personId);
  const trend = useQuery({
    queryKey: [...queryKeys.records(recordCatalogue.lab_result.type), 'trend', id],
    queryFn: () => labResultsApi.trend(id),
  });
  const points = trend.data?.points;
  const chart = useMemo(() => {
    const numeric = (points ?? []).filter((point) => decimalOf(point.result) !== null);
    const newest = points?.[0];
    const low = decimalOf(newest?.range_low);
    const high = decimalOf(newest?.range_high);
    return {
      points: numeric.map((point): TrendPoint => ({
        at: point.collected_date,
        value: decimalOf(point.result) ?? 0,
        outOfRange: outOfRangeOf(point),
      })),
      unit: numeric[0]?.unit ?? undefined,
      range:
        low !== null || high !== null
          ? { ...(low !== null ? { low } : {}), ...(high !== null ? { high } : {}) }
          : undefined,
    };
  }, [points]);

  return (
    <section className="mt-5 space-y-3" aria-labelledby="lab-trend-heading">
      <h2 id="lab-trend-heading" className="text-lg font-bold">
        {t('Trend')}
      </h2>
      {trend.isPending ? (
        <Loading />
      ) : (
        <Card className="space-y-4 p-4">
          {chart.points.length > 0 ? (
            <Suspense fallback={<div className="h-[220px]" />}>
              <TrendChart
                name={t('{test} trend', { test: testName })}
                points={chart.points}
                unit={chart.unit}
                range={chart.range}
                markers={markers}
              />
            </Suspense>
          ) : (
            // No number to draw (results such as 'Negative'): said, with no empty axes.
            <p className="text-sm text-muted-foreground">
              {t('No numeric results of {test} to chart yet.', { test: testName })}
            </p>
          )}
          <div className="overflow-x-auto">
            <table className="w-full text-start text-sm">
              <caption className="sr-only">
                {t('{test} results, newest first', { test: testName })}
              </caption>
              <thead className="text-muted-foreground">
                <tr>
                  <th scope="col" className="py-2 pe-3 font-medium">
                    {t('Date')}
                  </th>
                  <th scope="col" className="py-2 pe-3 font-medium">
                    {t('Result')}
                  </th>
                  <th scope="col" className="py-2 pe-3 font-medium">
                    {t('Range')}
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    {t('Flag')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border border-t border-border">
                {(points ?? []).map((point) => (
                  <tr key={point.id} className={point.id === id ? 'font-semibold' : undefined}>
                    <td className="py-2 pe-3 whitespace-nowrap">
                      <Link
                        to={`/${recordCatalogue.lab_result.path}/${point.id}`}
                        className="text-primary underline-offset-4 hover:underline"
                      >
                        {formatDate(point.collected_date, DAY_GROUP_FORMAT)}
                      </Link>
                    </td>
                    <td className="py-2 pe-3">
                      {point.result}
                      {point.unit ? ` ${point.unit}` : ''}
                    </td>
                    <td className="py-2 pe-3">{rangeText(point.range_low, point.range_high)}</td>
                    <td className="py-2">
                      <LabFlagBadge flag={labFlag(point)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      )}
    </section>
  );
}
