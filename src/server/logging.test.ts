/** The logs say what happened, and never carry a password, passcode, token or record content. */
import { randomBytes } from 'node:crypto';
import { CompactEncrypt } from 'jose';
import { describe, expect, it } from 'vitest';
import type { CreatedShareLink } from '../shared/share-links';
import { signedUpClient, useTestServer, TEST_PASSCODE, uniqueEmail } from './test/harness';

const lines: string[] = [];
const server = useTestServer({ logs: { write: (line) => lines.push(line) } });

describe('logs', () => {
  it('carry no secrets and no record contents', async () => {
    const password = 'Correct-Horse-Battery-77';
    const email = uniqueEmail('logged');
    const client = server.client();
    await client.signUp({ name: 'Logged User', email, password });
    const token = client.cookieHeader.split('=')[1] ?? '';
    await server.client().signIn({ email, password, passcode: '135799' });
    await server.client().signIn({ email, password: 'Wrong-Password-99' });
    await client.post('/api/notes', {
      title: 'Private diagnosis',
      content: 'Secret-Content-Marker-42',
    });
    await client.post('/api/visits', { visit_name: 'Psychiatry-Marker-7', visit_date: 'nonsense' });
    await client.put('/api/profile', { full_name: 'Renamed-Marker-9' });
    await client.get('/api/notes?member=Query-Marker-5');

    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(5);
    expect(log).toContain('"path":"/api/notes"');
    for (const secret of [
      password,
      'Wrong-Password-99',
      TEST_PASSCODE,
      '135799',
      token,
      'Secret-Content-Marker-42',
      'Private diagnosis',
      'Psychiatry-Marker-7',
      'Renamed-Marker-9',
      'Query-Marker-5',
    ]) {
      expect(token.length).toBeGreaterThan(10);
      expect(log, secret).not.toContain(secret);
    }
  });

  it('carry no calendar token, share-link manifest id or file ticket: the route pattern stands in', async () => {
    const { client } = await signedUpClient(server, 'Token Keeper');
    const leo = await client.post<{ id: string }>('/api/family-members', {
      name: 'Leo Keeper',
      date_of_birth: '2017-04-12',
      color: '#3b82f6',
    });
    const calendar = await client.post<{ link: { url: string } }>('/api/calendar-link', {
      person_id: null,
    });
    const feedPath = new URL(calendar.body.link.url).pathname;
    expect((await server.fetch(new Request(calendar.body.link.url))).status).toBe(200);

    const jwe = await new CompactEncrypt(new TextEncoder().encode('{}'))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'application/fhir+json' })
      .encrypt(randomBytes(32));
    const created = await client.post<CreatedShareLink>('/api/share-links', {
      person_id: leo.body.id,
      expires_in_days: 1,
      label: 'Leo Keeper',
      jwe,
    });
    expect(created.status).toBe(201);
    const manifestPath = new URL(created.body.url).pathname;
    const reader = server.client();
    const opened = await reader.post<{ files: { location: string }[] }>(manifestPath, {
      recipient: 'Clinic',
    });
    expect(opened.status).toBe(200);
    const filePath = new URL(opened.body.files[0]?.location ?? '').pathname;
    expect((await reader.get(filePath)).status).toBe(200);
    // A token asked for by a method no route answers is not written either.
    await reader.get(manifestPath);

    const secrets = [feedPath, manifestPath, filePath].map((path) => path.split('/').pop() ?? '');
    const log = lines.join('\n');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(10);
      expect(log, secret).not.toContain(secret);
    }
    expect(log).toContain('"path":"/api/calendar/:file"');
    expect(log).toContain('"path":"/api/shl/:manifestId"');
    expect(log).toContain('"path":"/api/shl/files/:ticket"');
  });
});
