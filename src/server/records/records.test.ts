/**
 * Every record type, through the one mechanism: create, read, list, replace, delete, and
 * the refusals that name the field and change nothing.
 */
import { BODY_NOT_OBJECT } from '../../shared/api-error';
import { describe, expect, it } from 'vitest';
import { recordDefinitions } from '../../shared/records';
import type { RecordDefinition } from '../../shared/records/definition';
import { editableTextField, sampleRecord } from '../test/factories';
import { useTestServer, signedUpClient, type TestClient } from '../test/harness';

const server = useTestServer();

interface Page {
  items: Array<Record<string, unknown> & { id: string }>;
  next: number | null;
  counts: Record<string, number>;
}

const MISSING_ID = '01900000-0000-7000-8000-000000000000';

function requiredField(definition: RecordDefinition): string {
  return Object.entries(definition.fields).find(([, field]) => field.required)?.[0] ?? '';
}

async function listAll(client: TestClient, definition: RecordDefinition) {
  const views = Object.keys(definition.views ?? {});
  if (!views.length)
    return (await client.get<Page>(`/api/${definition.path}?limit=200`)).body.items;
  const pages = await Promise.all(
    views.map((view) => client.get<Page>(`/api/${definition.path}?view=${view}&limit=200`)),
  );
  return pages.flatMap((page) => page.body.items);
}

describe.each(
  recordDefinitions.map((definition) => [definition.type, definition as RecordDefinition] as const),
)('%s records', (type, definition) => {
  const base = `/api/${definition.path}`;

  it('are created, read, listed, replaced and deleted', async () => {
    const { client } = await signedUpClient(server);
    const input = sampleRecord(type);
    const created = await client.post<Record<string, unknown> & { id: string }>(base, input);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(input);
    expect(created.body).toMatchObject({ family_member_name: null });
    const id = created.body.id;

    const read = await client.get(`${base}/${id}`);
    expect(read.status).toBe(200);
    // The record as created, and where it came from: typed here, no import.
    expect(read.body).toEqual({ ...created.body, imported_from: null });

    expect((await listAll(client, definition)).map((item) => item.id)).toContain(id);

    const field = editableTextField[type];
    const replaced = await client.put<Record<string, unknown>>(`${base}/${id}`, {
      ...input,
      [field]: 'Changed',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body[field]).toBe('Changed');
    expect((await client.get<Record<string, unknown>>(`${base}/${id}`)).body[field]).toBe(
      'Changed',
    );

    expect((await client.delete(`${base}/${id}`)).status).toBe(204);
    const gone = await client.get(`${base}/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: definition.messages.notFound });
    expect((await client.delete(`${base}/${id}`)).status).toBe(404);
  });

  it('save empty optional text as null and trim what is kept', async () => {
    const { client } = await signedUpClient(server);
    // A required text field where the type has one (a vitals entry has none: its notes).
    const required = requiredField(definition);
    const name = ['text', 'textarea'].includes(definition.fields[required]?.kind ?? '')
      ? required
      : editableTextField[type];
    const input: Record<string, unknown> = { ...sampleRecord(type), [name]: '  Spaced  ' };
    for (const [fieldName, field] of Object.entries(definition.fields)) {
      if (fieldName === name) continue;
      if (!field.required && ['text', 'textarea', 'tel', 'email', 'date'].includes(field.kind)) {
        input[fieldName] = '';
      }
    }
    const created = await client.post<Record<string, unknown>>(base, input);
    expect(created.status).toBe(201);
    expect(created.body[name]).toBe('Spaced');
    for (const [fieldName, value] of Object.entries(input)) {
      if (value === '') expect(created.body[fieldName], fieldName).toBeNull();
    }
  });

  it('link to the user’s own family member, whose name comes back with them', async () => {
    if (!definition.memberLinked) return;
    const { client } = await signedUpClient(server);
    const member = await client.post<{ id: string }>('/api/family-members', {
      name: 'Leo',
      color: '#3b82f6',
    });
    const created = await client.post<Record<string, unknown> & { id: string }>(
      base,
      sampleRecord(type, { family_member_id: member.body.id }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      family_member_id: member.body.id,
      family_member_name: 'Leo',
      family_member_color: '#3b82f6',
    });
    const filtered = (await listAll(client, definition)).map((item) => item.id);
    expect(filtered).toContain(created.body.id);
  });

  describe('refuse bad input, naming the field, and change nothing', () => {
    const name = requiredField(definition);
    const enumField = Object.entries(definition.fields).find(
      ([, field]) => field.kind === 'select',
    )?.[0];
    const dateField = Object.entries(definition.fields).find(
      ([, field]) => field.kind === 'date',
    )?.[0];
    const textField = Object.entries(definition.fields).find(
      ([fieldName, field]) => field.kind === 'text' && fieldName !== name,
    )?.[0];
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['a missing required field', { [name]: undefined }, name],
      ['a blank required field', { [name]: '   ' }, name],
      ['a required field of the wrong type', { [name]: 12 }, name],
      ['an over-long name', { [name]: 'x'.repeat(201) }, name],
    ];
    if (enumField) cases.push(['an unknown choice', { [enumField]: 'Sometimes' }, enumField]);
    if (dateField) cases.push(['a malformed date', { [dateField]: '2026-13-45' }, dateField]);
    if (dateField)
      cases.push(['a date in another format', { [dateField]: '03/04/2026' }, dateField]);
    if (textField) cases.push(['over-long text', { [textField]: 'y'.repeat(10_001) }, textField]);
    if (definition.memberLinked) {
      cases.push([
        'a family member id that is not one',
        { family_member_id: 'not-an-id' },
        'family_member_id',
      ]);
    }

    it.each(cases)('%s', async (_label, override, field) => {
      const { client } = await signedUpClient(server);
      const existing = await client.post<{ id: string }>(base, sampleRecord(type));
      const before = await client.get(`${base}/${existing.body.id}`);

      const created = await client.post<{ message: string; field: string }>(
        base,
        sampleRecord(type, override),
      );
      expect(created.status).toBe(400);
      expect(created.body.field).toBe(field);
      expect(created.body.message).toContain(definition.fields[field]?.label ?? field);

      const replaced = await client.put<{ field: string }>(
        `${base}/${existing.body.id}`,
        sampleRecord(type, override),
      );
      expect(replaced.status).toBe(400);
      expect(replaced.body.field).toBe(field);

      expect((await client.get(`${base}/${existing.body.id}`)).body).toEqual(before.body);
      expect(await listAll(client, definition)).toHaveLength(1);
    });

    it('malformed JSON', async () => {
      const { client } = await signedUpClient(server);
      const response = await client.request('POST', base, '{"oops": ');
      expect(response.status).toBe(400);
      expect(await listAll(client, definition)).toHaveLength(0);
      // JSON, but not an object: said of the body, not in the validation library's words.
      for (const body of ['"a string"', '[1, 2]', '42']) {
        const notObject = await client.request<{ message: string }>('POST', base, body);
        expect(notObject.status, body).toBe(400);
        expect(notObject.body.message, body).toBe(BODY_NOT_OBJECT);
      }
      expect(await listAll(client, definition)).toHaveLength(0);
    });

    it('ids that cannot name a record are answered as missing', async () => {
      const { client } = await signedUpClient(server);
      for (const id of ['not-a-uuid', MISSING_ID, '%27%20or%201%3D1--']) {
        expect((await client.get(`${base}/${id}`)).status).toBe(404);
        expect((await client.put(`${base}/${id}`, sampleRecord(type))).status).toBe(404);
        expect((await client.delete(`${base}/${id}`)).status).toBe(404);
      }
    });

    it('list parameters out of range', async () => {
      const { client } = await signedUpClient(server);
      for (const query of [
        'limit=0',
        'limit=abc',
        'offset=-1',
        'member=nope',
        'today=2026-02-30',
        'view=nope',
      ]) {
        const response = await client.get<{ message: string }>(`${base}?${query}`);
        expect(response.status, query).toBe(400);
        expect(response.body.message).toContain(query.split('=')[0]);
      }
    });
  });
});
