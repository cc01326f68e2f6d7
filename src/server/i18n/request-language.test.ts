/**
 * The API answers in the request's language (CONTRACT §6 'Languages'): the web app sends its
 * language as Accept-Language, and the server's refusals (a validation failure naming the
 * field, a person not found, a body too large) come back in it. Without the header, or with
 * one naming no language the product speaks, they are in English, word for word as before.
 */
import { describe, expect, it } from 'vitest';
import { signedUpClient, useTestServer } from '../test/harness';

const server = useTestServer();

async function me() {
  const { client } = await signedUpClient(server, 'Ana García');
  const session = await client.get<{ user: { id: string } }>('/api/auth/get-session');
  return { client, id: session.body.user.id };
}

describe('a refusal in the request language', () => {
  it('names the field in Spanish for Accept-Language: es, and in English without it', async () => {
    const { client, id } = await me();
    const path = `/api/persons/${id}/vaccine-schedule/tracking`;

    const spanish = await client.request<{ message: string; field?: string }>(
      'PUT',
      path,
      { tracked: 'yes' },
      { 'accept-language': 'es' },
    );
    expect(spanish.status).toBe(400);
    expect(spanish.body).toMatchObject({
      message: 'tracked debe ser true o false',
      field: 'tracked',
    });

    const english = await client.put<{ message: string; field?: string }>(path, {
      tracked: 'yes',
    });
    expect(english.status).toBe(400);
    expect(english.body).toMatchObject({
      message: 'tracked must be true or false',
      field: 'tracked',
    });
  });

  it('follows the preferred language of a browser’s header, region and weights included', async () => {
    const { client } = await me();
    const german = await client.request<{ message: string }>(
      'GET',
      '/api/persons/no-one/vaccine-schedule',
      undefined,
      { 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' },
    );
    expect(german.status).toBe(404);
    expect(german.body.message).toBe('Person nicht gefunden');

    const chinese = await client.request<{ message: string }>(
      'GET',
      '/api/persons/no-one/vaccine-schedule',
      undefined,
      { 'accept-language': 'en;q=0.1, zh-TW' },
    );
    expect(chinese.body.message).toBe('未找到此人');

    // A language the product does not speak: English.
    const klingon = await client.request<{ message: string }>(
      'GET',
      '/api/persons/no-one/vaccine-schedule',
      undefined,
      { 'accept-language': 'tlh' },
    );
    expect(klingon.body.message).toBe('Person not found');

    // The pseudo-locale, asked for by name: every translated word accented and bracketed.
    const pseudo = await client.request<{ message: string }>(
      'GET',
      '/api/persons/no-one/vaccine-schedule',
      undefined,
      { 'accept-language': 'en-XA' },
    );
    expect(pseudo.body.message).toBe('[Ṕḛḛṛṡṓṓṇ ṇṓṓţ ϝṓṓṵṵṇḍ]');
  });

  it('answers a route that is not there, and a body too large, in the request language', async () => {
    const { client } = await me();
    const missing = await client.request<{ message: string }>(
      'GET',
      '/api/nothing-here',
      undefined,
      {
        'accept-language': 'fr',
      },
    );
    expect(missing).toMatchObject({ status: 404, body: { message: 'Introuvable' } });

    const large = await client.request<{ message: string }>(
      'PATCH',
      '/api/profile',
      JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 1) }),
      { 'accept-language': 'pt-BR' },
    );
    expect(large.status).toBe(413);
    expect(large.body.message).toBe('O corpo da solicitação: tamanho excessivo (no máximo 1 MB)');
  });

  it('refuses a request without a session in the request language', async () => {
    const client = server.client();
    const refusal = await client.request('GET', '/api/timeline', undefined, {
      'accept-language': 'es',
    });
    expect(refusal).toMatchObject({ status: 401, body: { message: 'No autenticado' } });
    const english = await client.request('GET', '/api/timeline');
    expect(english).toMatchObject({ status: 401, body: { message: 'Not authenticated' } });
  });
});
