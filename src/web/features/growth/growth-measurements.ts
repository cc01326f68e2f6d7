/**
 * The growth screen's data: a family member's vitals entries, read from the vitals list
 * (`GET /api/vitals?member=<id>`, every page), as the moments measured with their weight,
 * length/height and head circumference in canonical units.
 */
import { useQuery } from '@tanstack/react-query';
import type { GrowthMeasurement } from '../../../shared/growth/growth-rows';
import { growthApi, type VitalsRow } from './growth-api';
import { queryKeys } from '../../lib/query-client';

/** A stored number as the list answers it; PostgreSQL's numeric columns arrive as text. */
function measured(value: number | string | null | undefined): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

/** The entries that carry a growth measure, each with only the measures it has. */
export function toGrowthMeasurements(rows: readonly VitalsRow[]): GrowthMeasurement[] {
  return rows.flatMap((row) => {
    const measurement: GrowthMeasurement = { measuredAt: row.measured_at };
    const weightKg = measured(row.weight_kg);
    const heightCm = measured(row.height_cm);
    const headCircumferenceCm = measured(row.head_circumference_cm);
    if (weightKg !== undefined) measurement.weightKg = weightKg;
    if (heightCm !== undefined) measurement.heightCm = heightCm;
    if (headCircumferenceCm !== undefined) measurement.headCircumferenceCm = headCircumferenceCm;
    return Object.keys(measurement).length > 1 ? [measurement] : [];
  });
}

async function allVitals(familyMemberId: string): Promise<VitalsRow[]> {
  const rows: VitalsRow[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page = await growthApi.vitalsPage(familyMemberId, offset);
    rows.push(...page.items);
    offset = page.next;
  }
  return rows;
}

export function useGrowthMeasurements(familyMemberId: string) {
  return useQuery({
    // Under the 'vital' record type's key: an entry saved or deleted refreshes it.
    queryKey: [...queryKeys.records('vital'), 'growth', familyMemberId],
    queryFn: async () => toGrowthMeasurements(await allVitals(familyMemberId)),
    enabled: familyMemberId !== '',
  });
}
