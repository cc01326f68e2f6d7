/** The text of the signed-in user's own summary PDF, spaces collapsed, as the summary tests read it. */
import { expect } from 'vitest';
import { TEST_ORIGIN, type TestClient, type TestServer } from './harness';
import { pdfText } from './pdf-text';

/** A reader for the user's own summary as of `today` (in UTC), to call after each change. */
export async function ownSummaryText(server: TestServer, client: TestClient, today: string) {
  const session = await client.get<{ user: { id: string } }>('/api/auth/get-session');
  const me = session.body.user.id;
  return async () => {
    const response = await server.fetch(
      new Request(`${TEST_ORIGIN}/api/persons/${me}/summary.pdf?today=${today}&tz=UTC`, {
        headers: { origin: TEST_ORIGIN, cookie: client.cookieHeader },
      }),
    );
    expect(response.status).toBe(200);
    return (await pdfText(new Uint8Array(await response.arrayBuffer()))).replace(/\s+/g, ' ');
  };
}
