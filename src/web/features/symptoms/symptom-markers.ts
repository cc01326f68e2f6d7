/**
 * A person's symptoms as severity marks for a chart's time axis (the vitals' and a lab
 * test's trends): a symptom on the day the blood pressure was high stands under that point.
 * The newest page of the person's symptoms (MAX_PAGE_SIZE of them); the chart shows those
 * inside the time it draws, and nothing when none are.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { MAX_PAGE_SIZE } from '../../../shared/constants';
import { formatDate, formatNumber, LONG_DATE_TIME_FORMAT } from '../../../shared/dates';
import { tr } from '../../../shared/i18n/translate';
import { symptomDefinition } from '../../../shared/records';
import { SEVERITY_MAX } from '../../../shared/records/symptoms';
import type { SeverityMarker } from '../../components/charts/trend-chart';
import { recordsApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';

export function useSymptomMarkers(personId: string | undefined): SeverityMarker[] {
  const symptoms = useQuery({
    queryKey: [...queryKeys.records(symptomDefinition.type), 'markers', personId],
    queryFn: () => recordsApi(symptomDefinition).list({ member: personId, limit: MAX_PAGE_SIZE }),
    enabled: personId !== undefined,
  });
  return useMemo(
    () =>
      (symptoms.data?.items ?? []).flatMap((symptom) =>
        symptom.severity === null
          ? []
          : [
              {
                id: symptom.id,
                at: symptom.started_at,
                severity: symptom.severity,
                max: SEVERITY_MAX,
                label: tr('{symptom}, severity {severity} of {max}, {date}', {
                  symptom: symptom.symptom,
                  severity: formatNumber(symptom.severity),
                  max: formatNumber(SEVERITY_MAX),
                  date: formatDate(symptom.started_at, LONG_DATE_TIME_FORMAT),
                }),
              },
            ],
      ),
    [symptoms.data],
  );
}
