/**
 * A test server with mail set up, for the whole file: a real SMTP server (smtp-server.ts)
 * started before its tests and stopped after, and the product's server sending to it.
 */
import { afterAll, beforeAll } from 'vitest';
import { useTestServer, type TestServer } from './harness';
import { startTestSmtpServer, type TestSmtpServer } from './smtp-server';

export function useMailTestServer(): { server: TestServer; readonly smtp: TestSmtpServer } {
  let smtp: TestSmtpServer | undefined;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
  });
  afterAll(() => smtp?.stop());
  const running = () => {
    if (!smtp) throw new Error('the test SMTP server is not started yet');
    return smtp;
  };
  return {
    server: useTestServer({
      get mail() {
        return running().mailConfig();
      },
    }),
    get smtp() {
      return running();
    },
  };
}
