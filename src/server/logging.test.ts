/** The logs say what happened, and never carry a password, passcode, token or record content. */
import { describe, expect, it } from 'vitest';
import { useTestServer, TEST_PASSCODE, uniqueEmail } from './test/harness';

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
});
