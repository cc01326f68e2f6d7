import { describe, expect, it } from 'vitest';
import { toDay } from './cdsi-dates';
import { dataForSeasonOf } from './seasons';
import { vaccineSchedules } from './schedules';
import { vaccinePlan, type PlanShot } from './vaccine-plan';

const data = vaccineSchedules['us-cdc'].data;
const adult = { birthDate: '1990-03-10', sex: 'female' as const };
const shot = (vaccine_code: string, date_administered: string): PlanShot => ({
  id: `${vaccine_code}-${date_administered}`,
  shot_name: 'A shot',
  vaccine_code,
  date_administered,
});
const find = (plan: ReturnType<typeof vaccinePlan>, vaccine: string) =>
  plan.filter((dose) => dose.vaccine === vaccine);

describe('seasonal vaccines a year after the data’s season', () => {
  it('keeps the data as published within its season', () => {
    expect(dataForSeasonOf(data, toDay('2026-03-01'))).toBe(data);
  });

  it('moves each seasonal antigen’s season on a whole year, and nothing else', () => {
    const moved = dataForSeasonOf(data, toDay('2026-11-28'));
    expect(moved).not.toBe(data);
    expect(dataForSeasonOf(data, toDay('2026-12-01'))).toBe(moved);
    const flu = moved.antigens.antigens.Influenza![0]!.seriesDose[1]!;
    expect(flu.seasonalRecommendation).toEqual({ startDate: '2026-07-01', endDate: '2027-06-30' });
    const covid = moved.antigens.antigens['COVID-19']!.find((series) =>
      series.seriesName.includes('2 years+'),
    )!;
    expect(covid.seriesDose[0]!.seasonalRecommendation?.startDate).toBe('2026-08-27');
    // A rule's own date (COVID-19's 8-week interval from 2025-08-27) is not a season's.
    expect(covid.seriesDose[0]!.interval?.at(-1)?.effectiveDate).toBe('2025-08-27');
    expect(moved.antigens.antigens.MMR).toBe(data.antigens.antigens.MMR);
    expect(data.antigens.antigens.Influenza![0]!.seriesDose[1]!.seasonalRecommendation).toEqual({
      startDate: '2025-07-01',
      endDate: '2026-06-30',
    });
  });

  it('counts this autumn’s flu shot for this season, and asks for one after last autumn’s', () => {
    const today = '2026-11-28';
    expect(find(vaccinePlan(data, adult, [shot('140', '2026-10-01')], today), 'Influenza')).toEqual(
      [expect.objectContaining({ status: 'Done', dose: 1, of: 1, given: '2026-10-01' })],
    );
    const lastYear = find(
      vaccinePlan(data, adult, [shot('140', '2025-10-01')], today),
      'Influenza',
    );
    expect(lastYear.at(-1)).toMatchObject({ status: 'Due', due: '2026-07-01' });
    const covid = find(vaccinePlan(data, adult, [shot('309', '2025-10-01')], today), 'COVID-19');
    expect(covid.at(-1)).toMatchObject({ status: 'Due', due: '2026-08-27' });
  });
});
