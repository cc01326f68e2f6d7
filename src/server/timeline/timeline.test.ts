/** The timeline the server builds: every dated record of five types, newest first, in pages. */
import { describe, expect, it } from 'vitest';
import type { TimelineEvent, TimelinePage } from '../../shared/timeline';
import { sampleRecord } from '../test/factories';
import { useTestServer, signedUpClient } from '../test/harness';

const server = useTestServer();

describe('the timeline', () => {
  it('holds visits, medications, shots, notes and conditions by their own dates, newest first', async () => {
    const { client } = await signedUpClient(server);
    const member = await client.post<{ id: string }>('/api/family-members', {
      name: 'Leo',
      color: '#3b82f6',
    });
    await client.post(
      '/api/visits',
      sampleRecord('visit', { visit_name: 'Checkup', visit_date: '2026-05-10T15:00:00.000Z' }),
    );
    await client.post(
      '/api/medications',
      sampleRecord('medication', {
        medication_name: 'Iron',
        start_date: '2026-05-11',
        family_member_id: member.body.id,
      }),
    );
    await client.post(
      '/api/shots',
      sampleRecord('shot', { shot_name: 'Tetanus', date_administered: '2026-05-09' }),
    );
    await client.post(
      '/api/notes',
      sampleRecord('note', { title: 'Letter', note_date: '2026-05-12' }),
    );
    await client.post(
      '/api/history',
      sampleRecord('condition', { condition_name: 'Anemia', diagnosis_date: '2026-05-08' }),
    );
    // Neither insurance, contacts nor undated records are events.
    await client.post('/api/insurance', sampleRecord('insurance'));
    await client.post('/api/contacts', sampleRecord('contact'));
    await client.post(
      '/api/shots',
      sampleRecord('shot', { shot_name: 'Undated', date_administered: null }),
    );
    await client.post(
      '/api/medications',
      sampleRecord('medication', { medication_name: 'No start', start_date: null }),
    );

    const page = await client.get<TimelinePage>('/api/timeline');
    expect(page.status).toBe(200);
    expect(page.body.events.map((event) => [event.type, event.name, event.date])).toEqual([
      ['note', 'Letter', '2026-05-12'],
      ['medication', 'Iron', '2026-05-11'],
      ['visit', 'Checkup', '2026-05-10T15:00:00.000Z'],
      ['shot', 'Tetanus', '2026-05-09'],
      ['condition', 'Anemia', '2026-05-08'],
    ]);
    expect(page.body.events[1]).toMatchObject({
      family_member_id: member.body.id,
      family_member_name: 'Leo',
      family_member_color: '#3b82f6',
    });
    expect(page.body.next).toBeNull();
    // Only a lab result has a mark: the others' answers say nothing of one.
    expect(page.body.events.filter((event) => 'mark' in event)).toEqual([]);

    const filtered = await client.get<TimelinePage>(`/api/timeline?member=${member.body.id}`);
    expect(filtered.body.events.map((event) => event.name)).toEqual(['Iron']);
  });

  it('comes in pages that together hold every event once, in order', async () => {
    const { client } = await signedUpClient(server);
    const names: string[] = [];
    for (let day = 1; day <= 12; day += 1) {
      const date = `2026-01-${String(day).padStart(2, '0')}`;
      await client.post(
        '/api/notes',
        sampleRecord('note', { title: `Note ${day}`, note_date: date }),
      );
      // Two events on one day, from two types, test the tie-break across tables.
      await client.post(
        '/api/shots',
        sampleRecord('shot', { shot_name: `Shot ${day}`, date_administered: date }),
      );
      names.push(`Note ${day}`, `Shot ${day}`);
    }
    const seen: TimelineEvent[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const page: { body: TimelinePage } = await client.get<TimelinePage>(
        `/api/timeline?limit=5${query}`,
      );
      expect(page.body.events.length).toBeLessThanOrEqual(5);
      seen.push(...page.body.events);
      cursor = page.body.next;
      pages += 1;
    }
    expect(pages).toBe(5);
    expect(seen).toHaveLength(24);
    expect(new Set(seen.map((event) => event.id)).size).toBe(24);
    const dates = seen.map((event) => event.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(new Set(seen.map((event) => event.name))).toEqual(new Set(names));
  });

  it('refuses a cursor it did not make', async () => {
    const { client } = await signedUpClient(server);
    for (const cursor of [
      'garbage',
      Buffer.from('{"a":1}').toString('base64url'),
      'x'.repeat(300),
    ]) {
      const response = await client.get(`/api/timeline?cursor=${cursor}`);
      expect(response.status, cursor).toBe(400);
    }
  });

  it('needs a session', async () => {
    expect((await server.client().get('/api/timeline')).status).toBe(401);
  });
});
