/**
 * Every mail the product sends, in one place: a subject, a plain-text part and an HTML part
 * per template, from a few values. No template takes health details: at most a person's
 * first name and the kind of thing (a reminder, a shared person), with the server's address.
 * Values in the HTML part are escaped by hono/html.
 */
import { html, raw } from 'hono/html';
import { APP_NAME } from '../../shared/constants';
import { languageOf } from '../../shared/i18n/languages';
import { currentLanguage, key, tr } from '../../shared/i18n/translate';
import { EMAIL_CHANGED_PATH, PASSWORD_RESET_LINK_MINUTES } from '../../shared/account-recovery';
import { isTimestamp } from '../../shared/date-values';

const NOTICE_TIME_OPTIONS: Intl.DateTimeFormatOptions = {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'UTC',
};
const ENGLISH_NOTICE_TIME = new Intl.DateTimeFormat('en-GB', NOTICE_TIME_OPTIONS);

/**
 * A moment as a security notice writes it, in the language in force: '3 March 2026 at 08:15
 * UTC', '3 de marzo de 2026, 8:15 UTC'. A time already written (a mail queued before) as it is.
 */
export function noticeTime(moment: string): string {
  if (!isTimestamp(moment)) return moment;
  const date = new Date(moment);
  const language = currentLanguage();
  if (language === 'en') return `${ENGLISH_NOTICE_TIME.format(date)} UTC`;
  const time = new Intl.DateTimeFormat(languageOf(language).locale, NOTICE_TIME_OPTIONS).format(
    date,
  );
  return tr('{time} UTC', { time });
}

/** The kinds of reminder a mail tells of, as keys (translated where the mail is written). */
export const REMINDER_MAIL_KINDS = {
  medication: key('Medication due'),
  visit: key('Visit reminder'),
  refill: key('Refill due'),
  missedDose: key('Missed dose'),
} as const;
export type ReminderMailKind = (typeof REMINDER_MAIL_KINDS)[keyof typeof REMINDER_MAIL_KINDS];

/** The values each template takes. */
export interface MailTemplates {
  /** A link to /reset-password; `name` is the account holder's first name. */
  'password-reset': { name: string; link: string };
  /**
   * A household grant (decision 0022): the owner's and the person's first names and the
   * one-time acceptance code; nothing of the records themselves.
   */
  'household-grant': { ownerName: string; personName: string; code: string };
  /** The link that confirms a new email address (better-auth's signed token), to the new one. */
  'email-change': { name: string; token: string };
  /** To the old address: a change to `newEmail` was asked for. */
  'email-change-notice': { name: string; newEmail: string };
  /**
   * A reminder, for an account with 'Email reminders' on: only the person's first name and
   * the kind of reminder, never the medication, dose, doctor or place.
   */
  reminder: {
    name: string;
    kind: ReminderMailKind;
  };
  /**
   * A sign-in from a device not seen before for the account; `time` its moment (an ISO
   * timestamp, written in the account's language when the mail is), or as written.
   */
  'new-sign-in': { name: string; device: string; time: string };
  /** A passkey added to the account (decision 0048): its name, the device, the time. */
  'passkey-added': { name: string; passkey: string; device: string; time: string };
  /** The email address changed (the link was followed): to the old address and the new. */
  'email-changed': { name: string; oldEmail: string; newEmail: string };
}
export type MailTemplate = keyof MailTemplates;

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface Content {
  subject: string;
  /** Paragraphs, in order; the link goes after them as a button (HTML) or a line (text). */
  paragraphs: string[];
  action: { label: string; url: string } | null;
  /** A closing line, under the action. */
  footnote: string;
}

// Every word is a key (APP_NAME, 'Kin Health', written out): a mail is written in the
// language in force when it is rendered (mail-queue.ts: the account's, else the one it was
// asked for in).
const templates: {
  [T in MailTemplate]: (params: MailTemplates[T], baseUrl: string) => Content;
} = {
  'password-reset': ({ name, link }) => ({
    subject: tr('Reset your Kin Health password'),
    paragraphs: [
      tr('Hello {name},', { name }),
      tr(
        'Someone (we hope you) asked to reset the password of your Kin Health account. The link below works once, for {minutes} minutes.',
        { minutes: PASSWORD_RESET_LINK_MINUTES },
      ),
    ],
    action: { label: tr('Reset Password'), url: link },
    footnote: tr(
      'If you did not ask for this, ignore this email: your password stays as it is. Your Friends & Family Passcode is not needed to reset it.',
    ),
  }),
  'household-grant': ({ ownerName, personName, code }, baseUrl) => ({
    subject: tr("{ownerName} shared {personName}'s records with you on Kin Health", {
      ownerName,
      personName,
    }),
    paragraphs: [
      tr("{ownerName} shared {personName}'s records with you on Kin Health.", {
        ownerName,
        personName,
      }),
      tr(
        "To see them, sign in there with this email address and enter this one-time Acceptance Code under 'Shared with you' on Family Profiles: {code}",
        { code },
      ),
    ],
    action: { label: tr('Open Kin Health'), url: `${baseUrl}/profiles` },
    footnote: tr(
      'If you do not know {ownerName}, ignore this email: nothing is shared until the code is entered.',
      { ownerName },
    ),
  }),
  'email-change': ({ name, token }, baseUrl) => ({
    subject: tr('Confirm your new Kin Health email address'),
    paragraphs: [
      tr('Hello {name},', { name }),
      tr(
        'You asked to use this address for your Kin Health account. Follow the link below to confirm it; until then, your account keeps its old address.',
      ),
    ],
    action: {
      label: tr('Confirm Email'),
      url:
        `${baseUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}` +
        `&callbackURL=${encodeURIComponent(EMAIL_CHANGED_PATH)}`,
    },
    footnote: tr('If you did not ask for this, ignore this email: nothing changes.'),
  }),
  'email-change-notice': ({ name, newEmail }, baseUrl) => ({
    subject: tr('Your Kin Health email address is being changed'),
    paragraphs: [
      tr('Hello {name},', { name }),
      tr(
        'Someone signed in to your Kin Health account asked to change its email address to {newEmail}. It changes only when the link sent to that address is followed.',
        { newEmail },
      ),
    ],
    action: { label: tr('Not you? Change your password'), url: `${baseUrl}/profile-settings` },
    footnote: tr('Not you? Change your password, and sign out the devices you do not know.'),
  }),
  reminder: ({ name, kind }, baseUrl) => ({
    subject: tr('{kind}: {name}', { kind: tr(kind), name }),
    paragraphs: [
      tr('{kind} for {name}.', { kind: tr(kind), name }),
      tr('Open Kin Health to see what is due.'),
    ],
    action: { label: tr('Open Kin Health'), url: baseUrl },
    footnote: tr(
      "You get these because 'Email reminders' is on in Profile Settings, under Reminders.",
    ),
  }),
  'new-sign-in': ({ name, device, time }, baseUrl) => ({
    subject: tr('New sign-in to your Kin Health account'),
    paragraphs: [
      tr('Hello {name},', { name }),
      tr('Your Kin Health account was signed in to from a device it had not seen before.'),
      tr('Device: {device}', { device }),
      tr('Time: {time}', { time: noticeTime(time) }),
      tr('If this was you, there is nothing to do.'),
    ],
    action: { label: tr('Not you? Change your password'), url: `${baseUrl}/profile-settings` },
    footnote: tr(
      'Not you? Change your password in Profile Settings, and sign out the devices you do not know.',
    ),
  }),
  'passkey-added': ({ name, passkey, device, time }, baseUrl) => ({
    subject: tr('A passkey was added to your Kin Health account'),
    paragraphs: [
      tr('Hello {name},', { name }),
      tr(
        'A passkey named "{passkey}" was added to your Kin Health account. It signs in without a password.',
        { passkey },
      ),
      tr('Device: {device}', { device }),
      tr('Time: {time}', { time: noticeTime(time) }),
      tr('If this was you, there is nothing to do.'),
    ],
    action: { label: tr('Not you? Review your passkeys'), url: `${baseUrl}/profile-settings` },
    footnote: tr(
      "Not you? In Profile Settings, under 'Sign out everywhere and remove passkeys', end every session and passkey, then change your password.",
    ),
  }),
  'email-changed': ({ name, oldEmail, newEmail }, baseUrl) => ({
    subject: tr('Your Kin Health email address was changed'),
    paragraphs: [
      tr('Hello {name},', { name }),
      tr(
        'The email address of your Kin Health account was changed from {oldEmail} to {newEmail}. Password reset links and notices go to {newEmail} from now on.',
        { oldEmail, newEmail },
      ),
    ],
    action: { label: tr('Not you? Open Profile Settings'), url: `${baseUrl}/profile-settings` },
    footnote: tr(
      "Not you? Sign in and end every session and passkey ('Sign out everywhere and remove passkeys' in Profile Settings), or ask the person who runs Kin Health for help: this address no longer receives reset links.",
    ),
  }),
};

/** The server's address, under every mail: where the mail comes from. */
function signature(baseUrl: string): string {
  return `${APP_NAME} · ${baseUrl}`;
}

function renderText(content: Content, baseUrl: string): string {
  return [
    ...content.paragraphs,
    ...(content.action ? [`${content.action.label}: ${content.action.url}`] : []),
    content.footnote,
    `-- \n${signature(baseUrl)}`,
  ].join('\n\n');
}

function renderHtml(content: Content, baseUrl: string): string {
  const paragraphs = content.paragraphs.map(
    (paragraph) => html`<p style="margin:0 0 16px">${paragraph}</p>`,
  );
  const action = content.action
    ? html`<p style="margin:24px 0">
          <a
            href="${content.action.url}"
            style="display:inline-block;padding:12px 20px;border-radius:12px;background:#0f766e;color:#ffffff;text-decoration:none;font-weight:600"
            >${content.action.label}</a
          >
        </p>
        <p style="margin:0 0 16px;font-size:13px;color:#475569">
          ${tr('Or open this address: {url}', { url: content.action.url })}
        </p>`
    : '';
  const rtl = languageOf(currentLanguage()).dir === 'rtl';
  return String(
    html`<!doctype html>
      <html lang="${currentLanguage()}" ${raw(rtl ? ' dir="rtl"' : '')}>
        <head>
          <meta charset="utf-8" />
          <title>${content.subject}</title>
        </head>
        <body style="margin:0;padding:24px;background:#f8fafc;font-family:system-ui,sans-serif">
          <div
            style="max-width:560px;margin:0 auto;padding:24px;border-radius:16px;background:#ffffff;color:#0f172a;line-height:1.5"
          >
            ${raw(paragraphs.join(''))} ${action}
            <p style="margin:0 0 16px;font-size:13px;color:#475569">${content.footnote}</p>
            <p style="margin:24px 0 0;font-size:12px;color:#64748b">${signature(baseUrl)}</p>
          </div>
        </body>
      </html>`,
  );
}

/** One mail, ready to send: from a template, its values and the server's address. */
export function renderMail<T extends MailTemplate>(
  template: T,
  params: MailTemplates[T],
  baseUrl: string,
): RenderedMail {
  const content = templates[template](params, baseUrl);
  return {
    subject: content.subject,
    text: renderText(content, baseUrl),
    html: renderHtml(content, baseUrl),
  };
}

export function isMailTemplate(name: string): name is MailTemplate {
  return Object.hasOwn(templates, name);
}
