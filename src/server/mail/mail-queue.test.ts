/**
 * The mail queue against a real SMTP server (test/smtp-server.ts: STARTTLS with a
 * certificate made for the test, a password required): a queued mail arrives with its
 * headers, a text and an HTML part, over TLS and signed in; a stopped server delays mail
 * without losing it; a send that keeps failing ends in the account's security activity;
 * two senders on one database send each mail once; a claim left by a crash runs out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailOutbox, createMailSender, RETRY_DELAYS_MS } from './mail-queue';
import { signedUpClient, useTestServer } from '../test/harness';
import {
  linkIn,
  MAIL_FROM,
  SMTP_USER,
  startTestSmtpServer,
  type TestSmtpServer,
} from '../test/smtp-server';
import { createLogger } from '../logger';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startTestSmtpServer();
});
afterAll(async () => {
  await smtp.stop();
});

const server = useTestServer();
const logger = createLogger('silent');
const BASE_URL = 'https://health.example.test';

/** A sender without the reset step: it sends a template's values as they were queued. */
function sender(overrides: { trusted?: boolean } = {}) {
  const mail = smtp.mailConfig();
  if (overrides.trusted === false) delete mail.trustedCertificate;
  const outbox = createMailOutbox(server.db, true);
  return {
    outbox,
    sender: createMailSender({ db: server.db, outbox, mail, baseUrl: BASE_URL, logger }),
  };
}

const queued = () => server.db.selectFrom('mail_queue').selectAll().execute();

let counter = 0;
function resetMail(userId: string | null = null) {
  counter += 1;
  const to = `mail-${counter}@example.test`;
  return {
    to,
    template: 'password-reset' as const,
    params: { name: `Ann <${counter}>`, link: `${BASE_URL}/reset-password?token=t${counter}&x=1` },
    userId,
  };
}

describe('the mail queue', () => {
  it('sends a queued mail over STARTTLS, signed in, from MAIL_FROM, with a text and an HTML part', async () => {
    const { outbox, sender: mailSender } = sender();
    const mail = resetMail();
    expect(await outbox.enqueue(mail)).toBe(true);
    expect(await queued()).toHaveLength(1);
    expect(await mailSender.runOnce()).toEqual({ sent: 1, failed: 0 });
    const received = await smtp.waitFor((m) => m.envelopeTo.includes(mail.to));
    expect(received.secure).toBe(true);
    expect(received.user).toBe(SMTP_USER);
    const { parsed } = received;
    expect(parsed.from?.value).toEqual([{ name: 'Kin Health', address: 'kin@example.test' }]);
    expect(MAIL_FROM).toBe('Kin Health <kin@example.test>');
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '').toBe(mail.to);
    expect(parsed.subject).toBe('Reset your Kin Health password');
    expect(parsed.messageId).toMatch(/^<.+@.+>$/);
    expect(parsed.text).toContain(`Hello ${mail.params.name},`);
    expect(linkIn(received)).toBe(mail.params.link);
    expect(parsed.text).toContain(BASE_URL);
    // The HTML part escapes what it is given, and links to the same address.
    expect(parsed.html).toContain('Hello Ann &lt;');
    expect(parsed.html).toContain(`href="${mail.params.link.replace('&', '&amp;')}"`);
    expect(await queued()).toHaveLength(0);
  });

  it('with a server it cannot trust, sends nothing and keeps the mail', async () => {
    const { outbox, sender: mailSender } = sender({ trusted: false });
    const mail = resetMail();
    await outbox.enqueue(mail);
    expect(await mailSender.runOnce()).toEqual({ sent: 0, failed: 0 });
    const [row] = await queued();
    expect(row).toMatchObject({ recipient: mail.to, attempts: 1 });
    expect(row?.last_error).toMatch(/certificate/i);
    expect(smtp.received.some((m) => m.envelopeTo.includes(mail.to))).toBe(false);
    await server.db.deleteFrom('mail_queue').execute();
  });

  it('delays mail while the SMTP server is stopped, without losing it', async () => {
    const { outbox, sender: mailSender } = sender();
    const mail = resetMail();
    await smtp.stop();
    const now = new Date(Date.now() + 1000);
    try {
      await outbox.enqueue(mail);
      expect(await mailSender.runOnce(now)).toEqual({ sent: 0, failed: 0 });
      const [row] = await queued();
      expect(row?.attempts).toBe(1);
      expect(row?.next_attempt_at).toBe(
        new Date(now.getTime() + RETRY_DELAYS_MS[0]!).toISOString(),
      );
      // Not yet due again.
      expect(await mailSender.runOnce(new Date(now.getTime() + 1000))).toEqual({
        sent: 0,
        failed: 0,
      });
    } finally {
      await smtp.restart();
    }
    const later = new Date(now.getTime() + RETRY_DELAYS_MS[0]! + 1000);
    expect(await mailSender.runOnce(later)).toEqual({ sent: 1, failed: 0 });
    await smtp.waitFor((m) => m.envelopeTo.includes(mail.to));
    expect(await queued()).toHaveLength(0);
  });

  it('after the last try, drops the mail and says so in the account’s security activity', async () => {
    const { client } = await signedUpClient(server);
    const userId = (await client.get<{ id: string }>('/api/profile')).body.id;
    const { outbox, sender: mailSender } = sender();
    await outbox.enqueue(resetMail(userId));
    await smtp.stop();
    try {
      let now = new Date();
      for (const delay of RETRY_DELAYS_MS) {
        expect(await mailSender.runOnce(now)).toEqual({ sent: 0, failed: 0 });
        now = new Date(now.getTime() + delay);
      }
      expect(await mailSender.runOnce(now)).toEqual({ sent: 0, failed: 1 });
    } finally {
      await smtp.restart();
    }
    expect(await queued()).toHaveLength(0);
    const activity =
      await client.get<Array<{ event: string; detail: string | null }>>('/api/security-activity');
    expect(activity.body).toContainEqual(
      expect.objectContaining({ event: 'mail_failed', detail: 'password-reset' }),
    );
  });

  it('sends each mail once when two senders share the database', async () => {
    const first = sender();
    const second = sender();
    const mails = Array.from({ length: 8 }, () => resetMail());
    for (const mail of mails) await first.outbox.enqueue(mail);
    const runs = await Promise.all([first.sender.runOnce(), second.sender.runOnce()]);
    expect(runs[0]!.sent + runs[1]!.sent).toBe(mails.length);
    for (const mail of mails) {
      expect(smtp.received.filter((m) => m.envelopeTo.includes(mail.to))).toHaveLength(1);
    }
  });

  it('takes up a mail whose sender died while sending, once its claim has run out', async () => {
    const { outbox, sender: mailSender } = sender();
    const mail = resetMail();
    await outbox.enqueue(mail);
    const now = new Date();
    // As an instance that claimed the row and then crashed leaves it.
    await server.db
      .updateTable('mail_queue')
      .set({ claimed_until: new Date(now.getTime() + 60_000).toISOString(), attempts: 1 })
      .execute();
    expect(await mailSender.runOnce(now)).toEqual({ sent: 0, failed: 0 });
    expect(await mailSender.runOnce(new Date(now.getTime() + 61_000))).toEqual({
      sent: 1,
      failed: 0,
    });
    await smtp.waitFor((m) => m.envelopeTo.includes(mail.to));
  });

  it('queues nothing when mail is not set up', async () => {
    const outbox = createMailOutbox(server.db, false);
    expect(await outbox.enqueue(resetMail())).toBe(false);
    expect(await queued()).toHaveLength(0);
  });

  it('refuses to send to a server without STARTTLS, unless SMTP_URL says starttls=off', async () => {
    const plain = await startTestSmtpServer({ startTls: false });
    try {
      const outbox = createMailOutbox(server.db, true);
      const send = (starttls: 'required' | 'off') =>
        createMailSender({
          db: server.db,
          outbox,
          mail: { ...plain.mailConfig(), starttls },
          baseUrl: BASE_URL,
          logger,
        }).runOnce(new Date(Date.now() + (starttls === 'off' ? 2 : 1) * 60 * 60 * 1000));
      const mail = resetMail();
      await outbox.enqueue(mail);
      expect(await send('required')).toEqual({ sent: 0, failed: 0 });
      expect((await queued())[0]?.last_error).toMatch(/STARTTLS/i);
      expect(plain.received).toHaveLength(0);
      expect(await send('off')).toEqual({ sent: 1, failed: 0 });
      const received = await plain.waitFor((m) => m.envelopeTo.includes(mail.to));
      expect(received.secure).toBe(false);
    } finally {
      await plain.stop();
    }
  });
});
