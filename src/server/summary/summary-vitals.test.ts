/**
 * The summary PDF's 'Latest Vitals': the newest value of each vital sign, BMI derived from the
 * newest weight and a height close to it, each with its date, in the account's Units.
 */
import { describe, expect, it } from 'vitest';
import { sampleRecord } from '../test/factories';
import { expectStatus } from '../test/family-records';
import { signedUpClient, useTestServer } from '../test/harness';
import { ownSummaryText } from '../test/summary-pdf-text';
import { LATEST_VITALS_HEADING } from './summary-document';

const server = useTestServer();

describe('the summary PDF', () => {
  it("lists the newest value of each vital sign, in the owner's units", async () => {
    const { client } = await signedUpClient(server, 'Rosa Diaz');
    const pdf = await ownSummaryText(server, client, '2026-06-15');
    expect(await pdf()).not.toContain(LATEST_VITALS_HEADING);

    const add = (values: Record<string, unknown>) =>
      expectStatus(
        client.post('/api/vitals', {
          ...sampleRecord('vital'),
          weight_kg: null,
          systolic_mmhg: null,
          diastolic_mmhg: null,
          notes: null,
          ...values,
        }),
      );
    // Older values, each replaced by a newer one below.
    await add({ measured_at: '2026-01-10T09:00:00Z', weight_kg: 80, height_cm: 160 });
    await add({ measured_at: '2026-04-20T09:00:00Z', height_cm: 170 });
    await add({ measured_at: '2026-01-11T09:00:00Z', systolic_mmhg: 150, diastolic_mmhg: 95 });
    await add({
      measured_at: '2026-05-02T07:30:00Z',
      weight_kg: 70,
      heart_rate_per_min: 64,
      temperature_c: 37,
      oxygen_saturation_pct: 98,
      blood_glucose_mg_dl: 99,
    });
    await add({ measured_at: '2026-05-20T18:00:00Z', systolic_mmhg: 118, diastolic_mmhg: 76 });

    const metric = await pdf();
    expect(metric).toContain(LATEST_VITALS_HEADING);
    expect(metric).toContain('Weight 70 kg May 2, 2026');
    expect(metric).toContain('Height 170 cm April 20, 2026');
    // 70 kg at 1.70 m: without a date of birth, a height within 30 days is paired.
    expect(metric).toContain('BMI 24.2 kg/m² May 2, 2026');
    expect(metric).toContain('Blood Pressure 118/76 mmHg May 20, 2026');
    expect(metric).toContain('Heart Rate 64 /min May 2, 2026');
    expect(metric).toContain('Temperature 37 °C May 2, 2026');
    expect(metric).toContain('Oxygen Saturation 98 % May 2, 2026');
    expect(metric).toContain('Blood Glucose 5.5 mmol/L May 2, 2026');
    expect(metric).not.toContain('150/95');
    expect(metric).not.toContain('80 kg');
    expect(metric).not.toContain('160 cm');

    await expectStatus(client.patch('/api/profile', { units: 'us' }), 200);
    const us = await pdf();
    expect(us).toContain('Weight 154.3 lb May 2, 2026');
    expect(us).toContain('Height 66.9 in');
    expect(us).toContain('Temperature 98.6 °F');
    expect(us).toContain('Blood Glucose 99 mg/dL');
  });
});
