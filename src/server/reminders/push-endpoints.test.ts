/**
 * Reminders go to push services only: a subscription naming this machine, the home network
 * or plain http is refused when saved, and a name that resolves there reaches nothing when a
 * reminder is sent (the server would otherwise post to any address a request names).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemindersState } from '../../shared/reminders';
import { signedUpClient, useTestServer } from '../test/harness';
import { browserKeys } from '../test/push-service';
import {
  isPublicAddress,
  publicOnlyLookup,
  PUSH_ENDPOINT_MESSAGE,
  pushEndpointProblem,
  sendToPushService,
} from './push-endpoints';

describe('push endpoints', () => {
  it('tells the public internet from this machine and private networks', () => {
    for (const address of [
      '8.8.8.8',
      '142.250.74.10',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '::ffff:808:808',
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.5',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '::7f00:1',
      'not an address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('takes a push service’s https address, and nothing else', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAA',
      'https://web.push.apple.com/QGuQ',
    ]) {
      expect(pushEndpointProblem(endpoint, 'public'), endpoint).toBeNull();
    }
    for (const endpoint of [
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://127.0.0.1:4559/internal-admin',
      'https://[::1]/push',
      'https://[::ffff:127.0.0.1]/push',
      'https://10.0.0.8/push',
      'https://169.254.169.254/latest/meta-data',
      'https://localhost/push',
      'https://api.localhost/push',
      'https://printer.local/push',
      'https://router/push',
      'https://user:secret@fcm.googleapis.com/push',
      'ftp://fcm.googleapis.com/push',
      'not a url',
    ]) {
      expect(pushEndpointProblem(endpoint, 'public'), endpoint).toBe(PUSH_ENDPOINT_MESSAGE);
    }
    expect(pushEndpointProblem('http://127.0.0.1:4559/push', 'any')).toBeNull();
  });

  it('resolves a name only to public addresses, on the connection itself', async () => {
    // 'localhost' resolves from /etc/hosts, with no network: to this machine.
    const outcome = await new Promise<{ code?: string; address?: unknown }>((resolve) =>
      publicOnlyLookup('localhost', {}, (error, address) =>
        resolve(error ? { code: error.code } : { address }),
      ),
    );
    expect(outcome).toEqual({ code: 'ENOTPUBLIC' });
  });

  describe('sending', () => {
    let listener: Server;
    let hits = 0;
    beforeAll(async () => {
      listener = createServer((_request, response) => {
        hits += 1;
        response.writeHead(201).end();
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

    it('reaches nothing on this machine unless the tests allow it', async () => {
      const { port } = listener.address() as AddressInfo;
      const push = (endpoint: string) => ({
        endpoint,
        method: 'POST',
        headers: { TTL: '60' },
        body: Buffer.from('x'),
      });
      await expect(
        sendToPushService(push(`http://127.0.0.1:${port}/push`), 'public', 2_000),
      ).rejects.toThrow(PUSH_ENDPOINT_MESSAGE);
      expect(hits).toBe(0);
      await expect(
        sendToPushService(push(`http://127.0.0.1:${port}/push`), 'any', 2_000),
      ).resolves.toBe(201);
      expect(hits).toBe(1);
    });
  });
});

describe('a subscription’s endpoint, as the product checks it', () => {
  const server = useTestServer({ pushEndpoints: 'public' });

  it('is refused, naming the field, when it is not a push service’s; nothing is saved', async () => {
    const { client } = await signedUpClient(server, 'Ira Cole');
    const { keys } = browserKeys();
    for (const endpoint of [
      'http://127.0.0.1:4559/internal-admin/delete-everything',
      'https://192.168.1.1/admin',
      'https://localhost/push',
    ]) {
      const refused = await client.put<{ message: string; field?: string }>(
        '/api/reminders/subscription',
        { endpoint, keys, medication_reminders: true, visit_reminders: true },
      );
      expect(refused.status, endpoint).toBe(400);
      expect(refused.body).toEqual({ message: PUSH_ENDPOINT_MESSAGE, field: 'endpoint' });
    }
    const renewed = await client.post<{ field?: string }>('/api/reminders/renew', {
      old_endpoint: 'https://fcm.googleapis.com/fcm/send/old',
      endpoint: 'https://10.0.0.1/push',
      keys,
    });
    expect(renewed.status).toBe(400);
    expect(renewed.body.field).toBe('endpoint');
    const state = await client.get<RemindersState>('/api/reminders');
    expect(state.body.subscriptions).toEqual([]);

    const accepted = await client.put('/api/reminders/subscription', {
      endpoint: 'https://fcm.googleapis.com/fcm/send/abc:def',
      keys,
      medication_reminders: true,
      visit_reminders: true,
    });
    expect(accepted.status).toBe(200);
  });
});
