/**
 * Medication supply over the API: the four fields of the form, a taken dose lowering the
 * quantity (an undo or a skip in its place giving it back, a skip taking nothing), 'Runs
 * out' with the adherence, 'Refilled', and bad input refused by name.
 */
import { describe, expect, it } from 'vitest';
import { calendarDayOf } from '../../shared/date-values';
import { addDays, type DoseMark } from '../../shared/doses';
import type { SupplyForecast } from '../../shared/medication-supply';
import { sampleRecord } from '../test/factories';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';

const server = useTestServer();
const TODAY = calendarDayOf(new Date());

async function twiceDaily(client: TestClient, supply: Record<string, unknown>) {
  const response = await client.post<{ id: string }>(
    '/api/medications',
    sampleRecord('medication', {
      frequency: 'Twice Daily',
      time_morning: true,
      time_noon: false,
      time_evening: true,
      time_night: false,
      start_date: TODAY,
      end_date: null,
      ...supply,
    }),
  );
  expect(response.status).toBe(201);
  return response.body.id;
}

const quantity = async (client: TestClient, id: string) =>
  (await client.get<{ quantity_on_hand: number | null }>(`/api/medications/${id}`)).body
    .quantity_on_hand;

const forecast = async (client: TestClient, id: string) =>
  (await client.get<{ supply: SupplyForecast }>(`/api/doses/adherence/${id}?today=${TODAY}`)).body
    .supply;

const mark = (client: TestClient, id: string, slot: string, status: 'taken' | 'skipped') =>
  client.post<DoseMark>('/api/doses', { medication_id: id, day: TODAY, slot, status });

describe('medication supply', () => {
  it('keeps the four supply fields, Dose Amount 1 unless told', async () => {
    const { client: client } = await signedUpClient(server);
    const id = await twiceDaily(client, {
      quantity_on_hand: '30',
      refills_left: '2',
      prescription_ends: addDays(TODAY, 90),
    });
    const { body } = await client.get<Record<string, unknown>>(`/api/medications/${id}`);
    expect(body).toMatchObject({
      quantity_on_hand: 30,
      dose_amount: null,
      refills_left: 2,
      prescription_ends: addDays(TODAY, 90),
    });
    // No dose taken yet: fifteen days of two doses, out on the sixteenth.
    expect(await forecast(client, id)).toEqual({
      runs_out: addDays(TODAY, 15),
      new_prescription: false,
    });
  });

  it('lowers the quantity by a taken dose; an undo gives it back; a skip takes nothing', async () => {
    const { client: client } = await signedUpClient(server);
    const id = await twiceDaily(client, { quantity_on_hand: 30, dose_amount: 2 });
    const taken = await mark(client, id, 'Morning', 'taken');
    expect(taken.status).toBe(201);
    expect(await quantity(client, id)).toBe(28);
    expect((await forecast(client, id)).runs_out).toBe(addDays(TODAY, 7));

    expect((await client.delete(`/api/doses/${taken.body.id}`)).status).toBe(204);
    expect(await quantity(client, id)).toBe(30);

    // Taken, then changed to skipped: the dose is given back.
    await mark(client, id, 'Morning', 'taken');
    expect(await quantity(client, id)).toBe(28);
    const skipped = await mark(client, id, 'Morning', 'skipped');
    expect(skipped.status).toBe(201);
    expect(await quantity(client, id)).toBe(30);
    // A skipped dose is not taken later: the evening's dose today, then 14 doses, 7 days.
    expect((await forecast(client, id)).runs_out).toBe(addDays(TODAY, 8));
    expect((await client.delete(`/api/doses/${skipped.body.id}`)).status).toBe(204);
    expect(await quantity(client, id)).toBe(30);
  });

  it('never counts below empty, and an undo gives back only what was taken', async () => {
    const { client: client } = await signedUpClient(server);
    const id = await twiceDaily(client, { quantity_on_hand: 1, dose_amount: 2 });
    const taken = await mark(client, id, 'Morning', 'taken');
    expect(await quantity(client, id)).toBe(0);
    expect((await forecast(client, id)).runs_out).toBe(TODAY);
    await client.delete(`/api/doses/${taken.body.id}`);
    expect(await quantity(client, id)).toBe(1);
  });

  it('leaves a medication whose supply is not kept as it was', async () => {
    const { client: client } = await signedUpClient(server);
    const id = await twiceDaily(client, {});
    await mark(client, id, 'Morning', 'taken');
    expect(await quantity(client, id)).toBeNull();
    expect(await forecast(client, id)).toEqual({ runs_out: null, new_prescription: false });
  });

  it("'Refilled' adds the pack, uses a refill, and keeps the pack size", async () => {
    const { client: client } = await signedUpClient(server);
    const id = await twiceDaily(client, { quantity_on_hand: 3, refills_left: 1 });
    const refilled = await client.post(`/api/doses/refill/${id}`, { pack_size: 30 });
    expect(refilled.status).toBe(200);
    expect(refilled.body).toEqual({ quantity_on_hand: 33, refills_left: 0, pack_size: 30 });
    // No refill left: the next one needs the doctor.
    expect((await forecast(client, id)).new_prescription).toBe(true);
    const again = await client.post(`/api/doses/refill/${id}`, { pack_size: '10' });
    expect(again.body).toEqual({ quantity_on_hand: 43, refills_left: 0, pack_size: 10 });
  });

  it('refuses bad input by name and changes nothing', async () => {
    const { client: client } = await signedUpClient(server);
    const bad = await client.post<{ message: string }>(
      '/api/medications',
      sampleRecord('medication', { quantity_on_hand: '-3' }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Quantity On Hand must be between 0 and 100000');
    const fraction = await client.post<{ message: string }>(
      '/api/medications',
      sampleRecord('medication', { refills_left: '1.5' }),
    );
    expect(fraction.body.message).toContain('Refills Left must be a whole number');
    const id = await twiceDaily(client, { quantity_on_hand: 3 });
    const refill = await client.post<{ message: string }>(`/api/doses/refill/${id}`, {
      pack_size: 'ten',
    });
    expect(refill.status).toBe(400);
    expect(refill.body.message).toContain('Pack Size must be a number');
    const none = await client.post<{ message: string }>(`/api/doses/refill/${id}`, {});
    expect(none.body.message).toContain('Pack Size is required');
    expect(await quantity(client, id)).toBe(3);
  });

  it("refills no one else's medication", async () => {
    const { client: owner } = await signedUpClient(server);
    const id = await twiceDaily(owner, { quantity_on_hand: 3 });
    const { client: stranger } = await signedUpClient(server, 'Stranger');
    expect((await stranger.post(`/api/doses/refill/${id}`, { pack_size: 30 })).status).toBe(404);
    expect(await quantity(owner, id)).toBe(3);
  });
});
