/**
 * Outgoing mail: SMTP_URL and MAIL_FROM, `smtp://user:password@host:587` (STARTTLS required,
 * unless `?starttls=optional` or `?starttls=off` says otherwise) or
 * `smtps://user:password@host:465` (TLS from the first byte). The URL is never repeated in a
 * message: it holds the SMTP password.
 */
import addressparser from 'nodemailer/lib/addressparser';
import { z } from 'zod';
import { refuse, unsetIfEmpty } from './env';

export interface MailConfig {
  host: string;
  port: number;
  /** smtps: TLS from the first byte. */
  secure: boolean;
  /** For smtp: whether the connection must be upgraded to TLS before anything is sent. */
  starttls: 'required' | 'optional' | 'off';
  user: string | null;
  password: string | null;
  /** MAIL_FROM, as given: `Kin Health <kin@example.com>` or `kin@example.com`. */
  from: string;
  /**
   * A certificate (PEM) to trust besides the system's. Never from the environment (the
   * operator has NODE_EXTRA_CA_CERTS for that); only the tests, whose SMTP server has a
   * certificate they made, pass one.
   */
  trustedCertificate?: string;
}

const STARTTLS_MODES = ['required', 'optional', 'off'] as const;

const SHAPE =
  'SMTP_URL must look like smtp://user:password@host:587 or smtps://user:password@host:465';

/** SMTP_URL's parts, checked one after the other; the first that fails is the message. */
const smtpUrl = z
  .string()
  .refine((value) => URL.canParse(value), { error: `${SHAPE} (it is not a URL)`, abort: true })
  .transform((value) => new URL(value))
  .refine((url) => url.protocol === 'smtp:' || url.protocol === 'smtps:', {
    error: (issue) => `${SHAPE} (it starts with ${(issue.input as URL).protocol}//)`,
    abort: true,
  })
  .refine((url) => Boolean(url.hostname), { error: `${SHAPE} (it names no host)`, abort: true })
  .refine((url) => url.pathname === '' || url.pathname === '/', {
    error: `${SHAPE} (with no path after the host)`,
    abort: true,
  })
  .refine(
    (url) =>
      [...url.searchParams].every(
        ([key, setting]) =>
          key === 'starttls' &&
          url.protocol !== 'smtps:' &&
          (STARTTLS_MODES as readonly string[]).includes(setting),
      ),
    {
      error:
        'SMTP_URL takes one setting, and only with smtp://: ?starttls=required (the ' +
        'default), ?starttls=optional or ?starttls=off',
      abort: true,
    },
  );

/** Mail, or null when SMTP_URL is unset: then MAIL_FROM and BASE_URL are not needed. */
export const mailEnv = z
  .object({
    SMTP_URL: unsetIfEmpty(smtpUrl.optional()),
    MAIL_FROM: z.string().optional(),
    BASE_URL: z.string().optional(),
  })
  .transform((env, ctx): MailConfig | null => {
    const url = env.SMTP_URL;
    if (!url) return null;
    const from = env.MAIL_FROM ?? '';
    const addresses = from ? addressparser(from, { flatten: true }) : [];
    if (addresses.length !== 1 || !/^[^\s@]+@[^\s@]+$/.test(addresses[0]?.address ?? '')) {
      return refuse(
        ctx,
        `MAIL_FROM must be one address mail is sent from, like "Kin Health <kin@example.com>"${
          from ? `, not "${from}"` : ' (SMTP_URL is set)'
        }`,
      );
    }
    if (!env.BASE_URL) {
      return refuse(
        ctx,
        'BASE_URL must be set when SMTP_URL is: the links in mail point to it (e.g. https://health.example.com)',
      );
    }
    const secure = url.protocol === 'smtps:';
    let starttls: MailConfig['starttls'] = 'required';
    for (const [, setting] of url.searchParams) starttls = setting as MailConfig['starttls'];
    return {
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      starttls,
      user: url.username ? decodeURIComponent(url.username) : null,
      password: url.password ? decodeURIComponent(url.password) : null,
      from,
    };
  });
