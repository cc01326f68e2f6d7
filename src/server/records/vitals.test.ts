/**
 * Vitals (CONTRACT §5): at least one measure, plausible values refused by name, systolic
 * above diastolic, canonical units whatever the account reads them in, the trend of one
 * person, and the timeline naming an entry in the reader's units.
 */
import { describe, expect, it } from 'vitest';
import { AT_LEAST_ONE_MEASUREMENT, SYSTOLIC_ABOVE_DIASTOLIC } from '../../shared/records/vitals';
import { toCanonical } from '../../shared/units';
import type { VitalsTrendAnswer } from '../../shared/vitals-trend';
import { sampleRecord } from '../test/factories';
import { signedUpClient, useTestServer } from '../test/harness';

const server = useTestServer();

type Vital = { id: string; weight_kg: number | null; temperature_c: number | null };

describe('vitals', () => {
  it('refuses an entry with no measurement, and bad values naming the field; nothing saved', async () => {
    const { client } = await signedUpClient(server);
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { weight_kg: null, systolic_mmhg: null, diastolic_mmhg: null },
        'weight_kg',
        AT_LEAST_ONE_MEASUREMENT,
      ],
      [{ weight_kg: 900 }, 'weight_kg', 'Weight must be between 0.2 and 500 kg'],
      [{ temperature_c: 60 }, 'temperature_c', 'Temperature must be between 25 and 45 °C'],
      [{ systolic_mmhg: 70, diastolic_mmhg: 90 }, 'systolic_mmhg', SYSTOLIC_ABOVE_DIASTOLIC],
      [{ heart_rate_per_min: 72.5 }, 'heart_rate_per_min', 'Heart Rate must be a whole number'],
      [{ height_cm: 'tall' }, 'height_cm', 'Height must be a number'],
      [
        { oxygen_saturation_pct: 101 },
        'oxygen_saturation_pct',
        'Oxygen Saturation must be between 50 and 100 %',
      ],
      [{ glucose_timing: 'Fasting' }, 'glucose_timing', 'Glucose Timing needs a Blood Glucose'],
    ];
    for (const [override, field, message] of cases) {
      const response = await client.post('/api/vitals', sampleRecord('vital', override));
      expect(response.status, JSON.stringify(override)).toBe(400);
      expect(response.body).toMatchObject({ field, message });
    }
    expect((await client.get<{ items: unknown[] }>('/api/vitals')).body.items).toEqual([]);
  });

  it('stores canonical units whatever the account reads them in, and keeps the Units setting', async () => {
    const { client } = await signedUpClient(server);
    expect((await client.get<{ units: string }>('/api/profile')).body.units).toBe('metric');
    const us = await client.patch<{ units: string; vaccine_schedule: string }>('/api/profile', {
      units: 'us',
    });
    expect(us.body).toMatchObject({ units: 'us', vaccine_schedule: 'us-cdc' });
    const refused = await client.patch('/api/profile', { units: 'imperial' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: 'units' });

    // What a US form sends for 154 lb and 98.6 °F.
    const weight = toCanonical('weight', 154, 'us');
    const temperature = toCanonical('temperature', 98.6, 'us');
    const created = await client.post<Vital>(
      '/api/vitals',
      sampleRecord('vital', { weight_kg: weight, temperature_c: temperature }),
    );
    expect(created.status).toBe(201);
    const stored = await client.get<Vital>(`/api/vitals/${created.body.id}`);
    expect(stored.body).toMatchObject({ weight_kg: 69.8532, temperature_c: 37 });
  });

  it('answers one person’s trend, oldest first, and not another user’s', async () => {
    const { client } = await signedUpClient(server);
    const kid = await client.post<{ id: string }>('/api/family-members', {
      name: 'Kid',
      date_of_birth: '2020-01-01',
    });
    for (const [day, weight] of [
      ['2024-03-01', 16],
      ['2024-01-01', 15],
    ] as const) {
      await client.post(
        '/api/vitals',
        sampleRecord('vital', {
          measured_at: `${day}T09:00:00.000Z`,
          weight_kg: weight,
          height_cm: 100,
          systolic_mmhg: null,
          diastolic_mmhg: null,
          family_member_id: kid.body.id,
        }),
      );
    }
    await client.post('/api/vitals', sampleRecord('vital'));
    const trend = await client.get<VitalsTrendAnswer>(`/api/persons/${kid.body.id}/vitals`);
    expect(trend.status).toBe(200);
    expect(trend.body.person).toMatchObject({ name: 'Kid', date_of_birth: '2020-01-01' });
    expect(trend.body.entries.map((entry) => entry.weight_kg)).toEqual([15, 16]);

    const stranger = await signedUpClient(server);
    const hidden = await stranger.client.get(`/api/persons/${kid.body.id}/vitals`);
    expect(hidden.status).toBe(404);
  });

  it('is named on the timeline by its measures, in the reader’s units', async () => {
    const { client } = await signedUpClient(server);
    await client.post(
      '/api/vitals',
      sampleRecord('vital', { measured_at: '2026-03-04T08:15:00.000Z', weight_kg: 72.5 }),
    );
    type Timeline = { events: { type: string; name: string }[] };
    const metric = await client.get<Timeline>('/api/timeline');
    expect(metric.body.events.find((event) => event.type === 'vital')?.name).toBe(
      'Weight 72.5 kg · BP 120/80 mmHg',
    );
    await client.patch('/api/profile', { units: 'us' });
    const us = await client.get<Timeline>('/api/timeline');
    expect(us.body.events.find((event) => event.type === 'vital')?.name).toBe(
      'Weight 159.8 lb · BP 120/80 mmHg',
    );
  });
});
