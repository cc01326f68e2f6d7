/** The share viewer's 'Vitals': the newest value of each vital sign, from the export's Observations. */
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import type { FhirRows } from '../../server/fhir/fhir-source';
import { vitalResources } from '../../server/fhir/mappings/vitals';
import { vitalColumns } from '../../shared/records/vitals';
import { withUnitsTag } from '../features/share/share-link-queries';
import { summarizeBundle } from './bundle-summary';

const context = {
  now: '2026-06-15T12:00:00.000Z',
  today: '2026-06-15',
  patient: { reference: 'Patient/p1' },
};

let next = 0;
const vitals = (values: Partial<FhirRows['vital']>) =>
  vitalResources(
    {
      id: `0190d5e2-0000-7000-8000-0000000000${String(++next).padStart(2, '0')}`,
      measured_at: '2026-01-01T08:00:00.000Z',
      ...(Object.fromEntries(vitalColumns.map((column) => [column, null])) as Record<
        (typeof vitalColumns)[number],
        null
      >),
      glucose_timing: null,
      notes: null,
      family_member_id: null,
      created_at: context.now,
      updated_at: context.now,
      ...values,
    },
    context,
  );

const searchset = (resources: Resource[]): Bundle => ({
  resourceType: 'Bundle',
  type: 'searchset',
  entry: resources.map((resource) => ({ resource })),
});

describe("the viewer's vitals", () => {
  it('lists the newest value of each measure with its date, blood glucose among them', () => {
    const bundle = searchset([
      ...vitals({ measured_at: '2026-01-10T09:00:00.000Z', weight_kg: 80, height_cm: 170 }),
      ...vitals({
        measured_at: '2026-05-02T07:30:00.000Z',
        weight_kg: 70,
        height_cm: 170,
        systolic_mmhg: 118,
        diastolic_mmhg: 76,
        heart_rate_per_min: 64,
        temperature_c: 37,
        oxygen_saturation_pct: 98,
        blood_glucose_mg_dl: 99,
        glucose_timing: 'Fasting',
      }),
      ...vitals({
        measured_at: '2026-03-01T09:00:00.000Z',
        systolic_mmhg: 150,
        diastolic_mmhg: 95,
      }),
    ]);
    const { sections } = summarizeBundle(bundle);
    const section = sections.find((s) => s.heading === 'Vitals');
    expect(section?.items.map((item) => [item.title, item.details[0]])).toEqual([
      ['Weight', '70 kg'],
      ['Height', '170 cm'],
      ['BMI', '24.2 kg/m²'],
      ['Blood Pressure', '118/76 mmHg'],
      ['Heart Rate', '64 /min'],
      ['Temperature', '37 °C'],
      ['Oxygen Saturation', '98%'],
      ['Blood Glucose', '5.5 mmol/L'],
    ]);
    expect(section?.items.at(-1)?.details).toContain('Fasting');
    for (const item of section?.items ?? []) expect(item.details.at(-1)).toMatch(/2026/);
    // Blood glucose is category laboratory in FHIR, but no lab result here.
    expect(sections.find((s) => s.heading === 'Lab Results')?.items).toEqual([]);
  });

  it("shows them in the owner's Units when the link names US units", () => {
    const bundle = searchset(
      vitals({
        measured_at: '2026-05-02T07:30:00.000Z',
        weight_kg: 70,
        temperature_c: 37,
        blood_glucose_mg_dl: 99,
      }),
    );
    const shown = (json: string) =>
      summarizeBundle(JSON.parse(json) as Bundle)
        .sections.find((s) => s.heading === 'Vitals')
        ?.items.map((item) => item.details[0]);
    expect(shown(withUnitsTag(JSON.stringify(bundle), 'metric'))).toEqual([
      '70 kg',
      '37 °C',
      '5.5 mmol/L',
    ]);
    expect(shown(withUnitsTag(JSON.stringify(bundle), 'us'))).toEqual([
      '154.3 lb',
      '98.6 °F',
      '99 mg/dL',
    ]);
  });
});
