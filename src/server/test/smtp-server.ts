/**
 * A real SMTP server for the tests (the `smtp-server` package): STARTTLS with a certificate
 * made here (self-signed, for 127.0.0.1 and localhost) and a password required before any
 * mail is taken. Each message it takes is parsed (`mailparser`) and kept, with the account
 * that sent it. It can stop and start again on the same port, as a mail server that goes
 * away for a while does.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { generate } from 'selfsigned';
import { SMTPServer } from 'smtp-server';
import type { MailConfig } from '../config';

export const SMTP_USER = 'kin-mailer';
export const SMTP_PASSWORD = 'smtp password: with @ and /';
export const MAIL_FROM = 'Kin Health <kin@example.test>';

export interface ReceivedMail {
  /** The account it was sent with (AUTH). */
  user: string | undefined;
  /** Whether the connection was upgraded to TLS before the message. */
  secure: boolean;
  envelopeTo: string[];
  parsed: ParsedMail;
}

export interface TestSmtpServer {
  port: number;
  /** The server's certificate (PEM): the one a test tells the product to trust. */
  certificate: string;
  key: string;
  received: ReceivedMail[];
  /** SMTP_URL for this server (with its account). */
  url: string;
  /** The product's mail settings for this server, trusting its certificate. */
  mailConfig(): MailConfig;
  /** Resolves with the next message to arrive (or one already here that `match` accepts). */
  waitFor(match?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
  /** Listens again, on the same port. */
  restart(): Promise<void>;
}

export async function makeTestCertificate(): Promise<{ certificate: string; key: string }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { certificate: pems.cert, key: pems.private };
}

export async function startTestSmtpServer(
  options: {
    port?: number;
    tls?: { certificate: string; key: string };
    /** false: a server that offers no STARTTLS, and takes the password in the clear. */
    startTls?: boolean;
    /** Called with each message taken, after it is kept. */
    onMail?: (mail: ReceivedMail) => void;
  } = {},
): Promise<TestSmtpServer> {
  const tls = options.tls ?? (await makeTestCertificate());
  const received: ReceivedMail[] = [];
  const waiters: Array<{
    match: (mail: ReceivedMail) => boolean;
    resolve: (m: ReceivedMail) => void;
  }> = [];

  const create = () =>
    new SMTPServer({
      key: tls.key,
      cert: tls.certificate,
      // STARTTLS is offered, and no password is taken before it (unless told otherwise).
      disabledCommands: options.startTls === false ? ['STARTTLS'] : [],
      allowInsecureAuth: options.startTls === false,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) {
          callback(null, { user: auth.username });
        } else {
          callback(new Error('Invalid username or password'));
        }
      },
      onData(stream, session, callback) {
        simpleParser(stream).then(
          (parsed) => {
            const mail: ReceivedMail = {
              user: session.user as string | undefined,
              secure: session.secure,
              envelopeTo: session.envelope.rcptTo.map((to) => to.address),
              parsed,
            };
            received.push(mail);
            options.onMail?.(mail);
            for (const waiter of [...waiters]) {
              if (waiter.match(mail)) {
                waiters.splice(waiters.indexOf(waiter), 1);
                waiter.resolve(mail);
              }
            }
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });

  let server = create();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.server.address() as AddressInfo).port);
      });
    });
  const port = await listen(options.port ?? 0);
  const url = `smtp://${encodeURIComponent(SMTP_USER)}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}`;

  return {
    port,
    certificate: tls.certificate,
    key: tls.key,
    received,
    url,
    mailConfig: () => ({
      host: '127.0.0.1',
      port,
      secure: false,
      starttls: 'required',
      user: SMTP_USER,
      password: SMTP_PASSWORD,
      from: MAIL_FROM,
      trustedCertificate: tls.certificate,
    }),
    waitFor(match = () => true, timeoutMs = 15_000) {
      const already = received.find(match);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no mail arrived')), timeoutMs);
        waiters.push({
          match,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        });
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    async restart() {
      server = create();
      await listen(port);
    },
  };
}

/** The first link in a mail's text part. */
export function linkIn(mail: ReceivedMail): string {
  const link = /https?:\/\/\S+/.exec(mail.parsed.text ?? '')?.[0];
  if (!link) throw new Error('the mail holds no link');
  return link;
}
