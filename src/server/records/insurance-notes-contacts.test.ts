/** The orders and defaults of insurance, notes and contacts (SPEC.md §3, §7). */
import { describe, expect, it } from 'vitest';
import { sampleRecord } from '../test/factories';
import { useTestServer, signedUpClient } from '../test/harness';

const server = useTestServer();

type Items<T> = { items: T[] };

describe('insurance', () => {
  it('defaults to a current medical policy', async () => {
    const { client } = await signedUpClient(server);
    const created = await client.post('/api/insurance', { provider_name: 'Acme Health' });
    expect(created.body).toMatchObject({ insurance_type: 'Medical', status: 'current' });
    const blank = await client.post('/api/insurance', {
      provider_name: 'Blank',
      insurance_type: '',
      status: '',
    });
    expect(blank.body).toMatchObject({ insurance_type: 'Medical', status: 'current' });
  });

  it('lists by status, then type', async () => {
    const { client } = await signedUpClient(server);
    for (const [provider, type, status] of [
      ['P-vision', 'Vision', 'past'],
      ['C-vision', 'Vision', 'current'],
      ['P-dental', 'Dental', 'past'],
      ['C-dental', 'Dental', 'current'],
      ['C-medical', 'Medical', 'current'],
    ] as const) {
      await client.post(
        '/api/insurance',
        sampleRecord('insurance', { provider_name: provider, insurance_type: type, status }),
      );
    }
    const list = await client.get<Items<{ provider_name: string }>>('/api/insurance');
    expect(list.body.items.map((policy) => policy.provider_name)).toEqual([
      'C-dental',
      'C-medical',
      'C-vision',
      'P-dental',
      'P-vision',
    ]);
  });

  it('refuses an unknown type or status', async () => {
    const { client } = await signedUpClient(server);
    expect(
      (await client.post('/api/insurance', sampleRecord('insurance', { status: 'expired' }))).body,
    ).toMatchObject({
      field: 'status',
      message: 'Status must be one of: Current, Past',
    });
    expect(
      (await client.post('/api/insurance', sampleRecord('insurance', { insurance_type: 'Pet' })))
        .body,
    ).toMatchObject({
      field: 'insurance_type',
    });
  });
});

describe('notes', () => {
  it('list by note date, newest first, undated last', async () => {
    const { client } = await signedUpClient(server);
    for (const [title, date] of [
      ['Undated', null],
      ['January', '2026-01-05'],
      ['March', '2026-03-05'],
    ] as const) {
      await client.post('/api/notes', sampleRecord('note', { title, note_date: date }));
    }
    const list = await client.get<Items<{ title: string }>>('/api/notes');
    expect(list.body.items.map((note) => note.title)).toEqual(['March', 'January', 'Undated']);
  });

  it('keep long content whole', async () => {
    const { client } = await signedUpClient(server);
    const content = 'Line one.\nLine two.\n'.repeat(400);
    const created = await client.post<{ content: string }>(
      '/api/notes',
      sampleRecord('note', { content }),
    );
    expect(created.body.content).toBe(content.trim());
  });
});

describe('contacts', () => {
  it('default to a doctor and list by name, whatever the case', async () => {
    const { client } = await signedUpClient(server);
    for (const name of ['zoe Pharmacy', 'Adam Clinic', 'bob Nurse']) {
      await client.post('/api/contacts', { contact_name: name });
    }
    const list =
      await client.get<Items<{ contact_name: string; contact_type: string }>>('/api/contacts');
    expect(list.body.items.map((contact) => contact.contact_name)).toEqual([
      'Adam Clinic',
      'bob Nurse',
      'zoe Pharmacy',
    ]);
    expect(list.body.items.every((contact) => contact.contact_type === 'Doctor')).toBe(true);
  });

  it('refuse an email that is not one, and ignore a member filter', async () => {
    const { client } = await signedUpClient(server);
    const response = await client.post(
      '/api/contacts',
      sampleRecord('contact', { email: 'not-an-email' }),
    );
    expect(response.body).toMatchObject({
      field: 'email',
      message: 'Email must be an email address',
    });
    await client.post('/api/contacts', sampleRecord('contact'));
    const filtered = await client.get<Items<unknown>>(
      '/api/contacts?member=01900000-0000-7000-8000-000000000000',
    );
    expect(filtered.body.items).toHaveLength(1);
  });
});
