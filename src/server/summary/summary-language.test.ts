/**
 * The summary PDF in its reader's language (CONTRACT §6 'Languages'): the account's chosen
 * language, else the request's; its headings, labels and dates in that language's words.
 * Read back with pdftotext.
 */
import { describe, expect, it } from 'vitest';
import { sampleRecord } from '../test/factories';
import { expectStatus } from '../test/family-records';
import { signedUpClient, TEST_ORIGIN, useTestServer, type TestClient } from '../test/harness';
import { pdfText } from '../test/pdf-text';

const server = useTestServer();

async function summaryText(client: TestClient, headers: Record<string, string> = {}) {
  const session = await client.get<{ user: { id: string } }>('/api/auth/get-session');
  const response = await server.fetch(
    new Request(
      `${TEST_ORIGIN}/api/persons/${session.body.user.id}/summary.pdf?today=2026-03-10&tz=UTC`,
      { headers: { origin: TEST_ORIGIN, cookie: client.cookieHeader, ...headers } },
    ),
  );
  expect(response.status).toBe(200);
  return (await pdfText(new Uint8Array(await response.arrayBuffer()))).replace(/\s+/g, ' ');
}

describe('the summary PDF in another language', () => {
  it("is written in the account's language: Spanish headings, labels and dates", async () => {
    const { client } = await signedUpClient(server, 'Lucía Pérez');
    await expectStatus(
      client.post(
        '/api/allergies',
        sampleRecord('allergy', {
          substance: 'Penicilina',
          noted_date: '2024-05-06',
          severity: 'Severe',
          status: 'Active',
        }),
      ),
    );
    await expectStatus(client.patch('/api/profile', { language: 'es' }), 200);

    const text = await summaryText(client);
    expect(text).toContain('Resumen de salud');
    expect(text).toContain('Alergias');
    expect(text).toContain('Sustancia');
    expect(text).toContain('Penicilina');
    expect(text).toContain('6 de mayo de 2024');
    // A stored choice is written in the reader's words, not as it is stored.
    expect(text).toContain('Grave');
    expect(text).not.toMatch(/\bSevere\b/);
    expect(text).toContain('No es un documento clínico');
    expect(text).not.toContain('Health Summary');
  });

  it("is in the request's language when the account chose none, and English by default", async () => {
    const { client } = await signedUpClient(server, 'Jean Martin');
    const french = await summaryText(client, { 'accept-language': 'fr' });
    expect(french).toContain('Résumé de santé');
    expect(french).toContain('Allergies');
    const english = await summaryText(client);
    expect(english).toContain('Health Summary');
    expect(english).toContain('Not a clinical document');
  });

  it('is set in a face with Han characters in Chinese, so its words are there to read', async () => {
    const { client } = await signedUpClient(server, 'Wang Fang');
    await expectStatus(client.patch('/api/profile', { language: 'zh-CN' }), 200);
    const text = await summaryText(client);
    expect(text).toContain('健康摘要');
    expect(text).toContain('过敏');
  });

  it('is written right to left in Arabic, its headings with their words apart', async () => {
    const { client } = await signedUpClient(server, 'Layla Haddad');
    await expectStatus(client.patch('/api/profile', { language: 'ar' }), 200);
    const text = await summaryText(client);
    // The section headings, each as its words in reading order with a space between them.
    expect(text).toContain('الحساسية');
    expect(text).toContain('فريق الرعاية');
    expect(text).not.toContain('الرعاية فريق');
    expect(text).not.toContain('Health Summary');
  });
});
