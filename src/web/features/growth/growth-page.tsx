/**
 * /growth (CONTRACT §5): a child's measurements against the WHO and CDC percentile curves.
 * 'Person' lists the persons a growth chart fits (a date of birth, a sex, under 20): the
 * user's family members and the persons shared with them, a Viewer's too;
 * 'Chart' one of the four charts; then the chart, and a table of the measurements with their
 * percentiles, its accessible alternative. The reference tables and the chart's code load
 * here only, when a chart is first shown.
 */
import { useQuery } from '@tanstack/react-query';
import { LineChart, Plus } from 'lucide-react';
import { Suspense, useId, useMemo } from 'react';
import { lazyPart } from '../../lib/when-reachable';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ageInCalendarMonths, formatAge } from '../../../shared/ages';
import { DAY_GROUP_FORMAT, formatDate, localToday } from '../../../shared/dates';
import { key, tr } from '../../../shared/i18n/translate';
import type { Sex } from '../../../shared/family-members';
import {
  GROWTH_CHARTS,
  type GrowthChartDefinition,
  hasGrowthCharts,
  loadGrowthTables,
} from '../../../shared/growth/charts';
import { growthRows, type GrowthRow } from '../../../shared/growth/growth-rows';
import { formatPercentile } from '../../../shared/growth/lms';
import { Card } from '../../components/ui/card';
import { EmptyState, Loading } from '../../components/ui/feedback';
import { Label, Select } from '../../components/ui/input';
import { useFamilyMembers } from '../family-members/family-member-queries';
import { usePersonInView, withPerson } from '../family-members/person-in-view';
import { PersonSelect, usePersons, type PersonOption } from '../family-members/person-select';
import { useHousehold } from '../household/household-queries';
import { HeaderAction, PageHeader } from '../shell/page-header';
import { growthChartData } from './growth-chart-data';
import { useGrowthMeasurements } from './growth-measurements';
import { formatGrowthValue, useGrowthDisplay } from './growth-units';

const GrowthChart = lazyPart(() => import('../../components/charts/growth-chart'));

interface GrowthChild {
  /** A family member's id, or a shared person's. */
  id: string;
  dateOfBirth: string;
  sex: Sex;
}

/** Whether a person has growth charts today (a date of birth, a sex, and under 20). */
function fitsGrowthCharts(person: PersonOption, today: string): boolean {
  return hasGrowthCharts({ date_of_birth: person.dateOfBirth, sex: person.sex }, today);
}

/** Where a chart's ages begin or end, in words. */
function ageWords(months: number): string {
  return months === 0 ? tr('birth') : formatAge(months);
}

function GrowthSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}) {
  const id = useId();
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    </div>
  );
}

/** The table's columns (CONTRACT §5). */
const GROWTH_TABLE_COLUMNS = [key('Date'), key('Age'), key('Value'), key('Percentile')] as const;

function GrowthTable({ rows, chart }: { rows: GrowthRow[]; chart: GrowthChartDefinition }) {
  const { t } = useTranslation();
  const display = useGrowthDisplay(chart.measure);
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-start text-sm">
        <caption className="sr-only">
          {t('{chart}: measurements and percentiles', { chart: t(chart.label) })}
        </caption>
        <thead className="text-muted-foreground">
          <tr>
            {GROWTH_TABLE_COLUMNS.map((column) => (
              <th key={column} scope="col" className="py-2 pe-3 font-medium last:pe-0">
                {t(column)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[...rows].reverse().map((row) => (
            <tr key={row.measuredAt} className="border-t border-border">
              <td className="py-2 pe-3 whitespace-nowrap">
                {formatDate(row.day, DAY_GROUP_FORMAT)}
              </td>
              <td className="py-2 pe-3 whitespace-nowrap">{formatAge(row.calendarMonths)}</td>
              <td className="py-2 pe-3">
                {/* How it was measured ('Height', 'Length') above the number, not beside it:
                    on a phone, the four columns then fit without clipping 'Percentile'. */}
                {row.assessment.measured ? (
                  <span className="block text-xs text-muted-foreground">
                    {t(row.assessment.measured)}{' '}
                  </span>
                ) : null}
                <span className="whitespace-nowrap">{formatGrowthValue(row.value, display)}</span>
              </td>
              <td className="py-2 font-semibold">{formatPercentile(row.assessment.percentile)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ChildGrowth({
  child,
  chart,
  canAdd,
}: {
  child: GrowthChild;
  chart: GrowthChartDefinition;
  /** Whether the user may add vitals for the child (not a Viewer's). */
  canAdd: boolean;
}) {
  const { t } = useTranslation();
  const measurements = useGrowthMeasurements(child.id);
  const tables = useQuery({
    queryKey: ['growth-tables', chart.id],
    queryFn: () => loadGrowthTables(chart),
    staleTime: Infinity,
  });
  const display = useGrowthDisplay(chart.measure);
  const today = localToday();
  const person = useMemo(
    () => ({ dateOfBirth: child.dateOfBirth, sex: child.sex }),
    [child.dateOfBirth, child.sex],
  );
  const computed = useMemo(() => {
    if (!tables.data || !measurements.data) return null;
    const start = performance.now();
    const { rows, outside } = growthRows(chart, tables.data, person, measurements.data);
    const data = growthChartData(
      chart,
      tables.data,
      person.sex,
      rows,
      ageInCalendarMonths(person.dateOfBirth, today),
    );
    performance.measure('growth-chart-data', { start, end: performance.now() });
    if (!data) return { rows, outside, chartProps: null };
    const convert = (value: number | null) => (value === null ? null : display.convert(value));
    return {
      rows,
      outside,
      chartProps: {
        ...data,
        curves: data.curves.map((curve) => ({ ...curve, values: curve.values.map(convert) })),
        points: data.points.map(convert),
        unit: display.unit,
      },
    };
  }, [chart, tables.data, measurements.data, person, today, display]);

  if (measurements.isError)
    return <p role="alert">{t('The measurements could not be loaded. Try again later.')}</p>;
  if (tables.isError) return <p role="alert">{t('The growth chart could not be loaded.')}</p>;
  if (!computed) return <Loading />;

  const { rows, outside, chartProps } = computed;
  return (
    <div className="space-y-4">
      {chartProps ? (
        <Card className="p-3">
          <Suspense fallback={<Loading />}>
            <GrowthChart {...chartProps} />
          </Suspense>
        </Card>
      ) : (
        <p>
          {t('{chart} covers ages {ages}.', {
            chart: t(chart.label),
            ages: chart.segments
              .map((segment) =>
                t('{from} to {to}', {
                  from: ageWords(segment.fromMonths),
                  to: ageWords(segment.toMonths),
                }),
              )
              .join(', '),
          })}
        </p>
      )}
      {rows.length ? (
        <GrowthTable rows={rows} chart={chart} />
      ) : (
        <p className="text-sm text-muted-foreground">
          {t('No measurements for this chart yet.')}{' '}
          {canAdd ? (
            <Link
              to={withPerson('/vitals/new', child.id)}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              {t('Add vitals')}
            </Link>
          ) : null}
        </p>
      )}
      {outside ? (
        <p className="text-sm text-muted-foreground">
          {t('{count} measurements are outside this chart’s ages and are not shown.', {
            count: outside,
          })}
        </p>
      ) : null}
    </div>
  );
}

export default function GrowthPage() {
  const { t } = useTranslation();
  const members = useFamilyMembers();
  const household = useHousehold();
  const today = localToday();
  // The user's members and the persons shared with them (a Viewer's too), the same 'Person'
  // as other screens': what a chart fits, and whose records the user may add to.
  const children = usePersons({
    shared: true,
    only: (person) => fitsGrowthCharts(person, today),
  });
  const shared = household.data?.received ?? [];
  const [searchParams, setSearchParams] = useSearchParams();
  // The person in view, when a growth chart fits them; else the first who has one.
  const [personInView, setPersonInView] = usePersonInView();
  const person = children.find((candidate) => candidate.id === personInView) ?? children[0];
  const share = person && shared.find((candidate) => candidate.personId === person.id);
  const chart =
    GROWTH_CHARTS.find((candidate) => candidate.id === searchParams.get('chart')) ??
    GROWTH_CHARTS[0]!;
  const chooseChart = (value: string) =>
    setSearchParams(
      (params) => {
        params.set('chart', value);
        return params;
      },
      { replace: true },
    );
  const pending = members.isPending || household.isPending;
  const canAdd = !share || share.role === 'editor';
  const navigate = useNavigate();

  return (
    <>
      <PageHeader
        title={t('Growth')}
        subtitle={t('Measurements against WHO and CDC percentiles')}
        actions={
          person && canAdd ? (
            // The measurements of the child on the chart, not of whoever the form starts on.
            <HeaderAction
              label={t('Add Vitals')}
              icon={Plus}
              onClick={() => navigate(withPerson('/vitals/new', person.id))}
            />
          ) : null
        }
      />
      {pending ? <Loading /> : null}
      {members.isError || household.isError ? (
        <p role="alert">{t('The family members could not be loaded.')}</p>
      ) : null}
      {!pending && !person ? (
        <EmptyState icon={LineChart} title={t('No one to chart yet')}>
          <p className="text-sm text-muted-foreground">
            {t('Growth charts are for family members under 20 with a date of birth and a sex.')}{' '}
            <Link
              to="/profiles"
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              {t('Family Profiles')}
            </Link>
          </p>
        </EmptyState>
      ) : null}
      {!pending && person?.dateOfBirth && person.sex ? (
        // The chart takes a wider column at a desk (shell/app-layout.tsx).
        <div className="space-y-4" data-wide>
          <div className="grid gap-3 sm:grid-cols-2">
            <PersonSelect
              value={person.id}
              onChange={setPersonInView}
              shared
              only={(candidate) => fitsGrowthCharts(candidate, today)}
            />
            <GrowthSelect
              label={t('Chart')}
              value={chart.id}
              onChange={chooseChart}
              options={GROWTH_CHARTS.map((option) => ({
                value: option.id,
                label: t(option.label),
              }))}
            />
          </div>
          <ChildGrowth
            key={`${person.id}-${chart.id}`}
            child={{ id: person.id, dateOfBirth: person.dateOfBirth, sex: person.sex }}
            chart={chart}
            canAdd={canAdd}
          />
        </div>
      ) : null}
    </>
  );
}
