/**
 * The share link viewer (/shl#shlink:/…): its own small page, with no account and no
 * session. It reads the SMART Health Link from the fragment (which never reaches the
 * server), asks for the passcode when the link has one, fetches the manifest and the file,
 * decrypts the FHIR bundle here with the key from the fragment, and shows the person's
 * summary with a button to download the FHIR JSON, and the documents shared with it, each
 * viewed or downloaded from the decrypted bundle. It speaks the language its address names
 * (`?lang=`, the reader's, chosen where the link was made), else the browser's (viewer-i18n.ts).
 */
import { compactDecrypt } from 'jose';
import { Download, ExternalLink, Eye, ShieldCheck } from 'lucide-react';
import { StrictMode, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import type { Bundle } from '@medplum/fhirtypes';
import {
  decodeShlink,
  NO_LONGER_AVAILABLE,
  WRONG_PASSCODE,
  type ShlinkPayload,
} from '../../shared/shlink';
import {
  sharedDocuments,
  summarizeBundle,
  type BundleSummary,
  type SharedDocument,
  type SharedFile,
} from './bundle-summary';
import { day } from './bundle-words';
import { tr } from '../../shared/i18n/translate';
import { SevereBadge } from '../components/severe-badge';
import { LabFlagBadge } from '../components/lab-flag-badge';
import { saveBlob } from '../lib/save-file';
import { startViewerI18n } from './viewer-i18n';
import { NOT_GIVEN, recordsLabelName } from './viewer-url';
import '../styles.css';

type State =
  | { step: 'ask'; attemptsLeft?: number | 'unknown' }
  | { step: 'opening' }
  | { step: 'shown'; summary: BundleSummary; documents: SharedDocument[]; json: string }
  | { step: 'gone' }
  | { step: 'failed'; message: string };

class Gone extends Error {}
class WrongPasscode extends Error {
  constructor(readonly remaining: number | undefined) {
    super(WRONG_PASSCODE);
  }
}

function base64UrlBytes(value: string): Uint8Array {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

async function openLink(payload: ShlinkPayload, recipient: string, passcode?: string) {
  const response = await fetch(payload.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ recipient, ...(passcode !== undefined ? { passcode } : {}) }),
  });
  if (response.status === 401) {
    const body = (await response.json().catch(() => ({}))) as { remainingAttempts?: number };
    throw new WrongPasscode(body.remainingAttempts);
  }
  if (response.status === 404) throw new Gone();
  if (!response.ok) throw new Error(tr('The link could not be opened. Try again in a minute.'));
  const manifest = (await response.json()) as {
    files: { contentType: string; location?: string; embedded?: string }[];
  };
  const file = manifest.files.find((f) => f.contentType === 'application/fhir+json');
  if (!file) throw new Error(tr('The link holds no records.'));
  let jwe = file.embedded;
  if (!jwe && file.location) {
    const content = await fetch(file.location);
    if (content.status === 404) throw new Gone();
    if (!content.ok) throw new Error(tr('The records could not be fetched. Try again.'));
    jwe = await content.text();
  }
  if (!jwe) throw new Error(tr('The link holds no records.'));
  const { plaintext } = await compactDecrypt(jwe, base64UrlBytes(payload.key));
  const json = new TextDecoder().decode(plaintext);
  const bundle = JSON.parse(json) as Bundle;
  return { json, summary: summarizeBundle(bundle), documents: sharedDocuments(bundle) };
}

function download(json: string, name: string) {
  const base = name.replace(/[^\w-]+/g, '-').toLowerCase() || 'records';
  saveBlob(new Blob([json], { type: 'application/fhir+json' }), `${base}-fhir.json`);
}

function Viewer() {
  const { t } = useTranslation();
  const [payload] = useState(() => decodeShlink(window.location.hash));
  const expired = payload?.exp !== undefined && payload.exp * 1000 < Date.now();
  const needsPasscode = payload?.flag?.includes('P') ?? false;
  const [state, setState] = useState<State>(() =>
    !payload || expired ? { step: 'gone' } : needsPasscode ? { step: 'ask' } : { step: 'opening' },
  );

  // The name typed stays when a wrong passcode brings the form back.
  const [name, setName] = useState('');

  const open = (recipient: string, passcode?: string) => {
    if (!payload) return;
    setState({ step: 'opening' });
    openLink(payload, recipient || NOT_GIVEN, passcode).then(
      ({ json, summary, documents }) => setState({ step: 'shown', json, summary, documents }),
      (error: unknown) => {
        if (error instanceof Gone) setState({ step: 'gone' });
        // The last attempt used locks the link: it is gone from then on.
        else if (error instanceof WrongPasscode && error.remaining === 0)
          setState({ step: 'gone' });
        else if (error instanceof WrongPasscode) {
          setState({ step: 'ask', attemptsLeft: error.remaining ?? 'unknown' });
        } else {
          setState({
            step: 'failed',
            message: error instanceof Error ? error.message : t('The link could not be opened.'),
          });
        }
      },
    );
  };

  // Another link pasted into this tab changes only the fragment: open that one instead.
  useEffect(() => {
    const reopen = () => window.location.reload();
    window.addEventListener('hashchange', reopen);
    return () => window.removeEventListener('hashchange', reopen);
  }, []);

  useEffect(() => {
    if (payload && !expired && !needsPasscode) open(NOT_GIVEN);
    // Opened once, when the page loads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <main className="mx-auto min-h-dvh max-w-2xl px-4 py-6 sm:py-10">
      <header className="mb-6 flex items-center gap-2 text-sm text-muted-foreground">
        <ShieldCheck className="size-5 text-primary" aria-hidden="true" />
        <span>{t('Shared securely with Kin Health')}</span>
      </header>
      {state.step === 'gone' ? (
        <Message title={t(NO_LONGER_AVAILABLE)}>
          {t(
            'Share links expire, and the person who shared it can revoke it at any time. Ask them for a new one.',
          )}
        </Message>
      ) : state.step === 'failed' ? (
        <Message title={t('The link could not be opened')}>{state.message}</Message>
      ) : state.step === 'opening' ? (
        <div role="status" className="space-y-4">
          <span className="sr-only">{t('Opening the shared records...')}</span>
          {/* Where the records will be: the page's largest paint is the records themselves. */}
          <div className="h-8 w-48 animate-pulse rounded-lg bg-surface-muted" aria-hidden="true" />
          {[0, 1, 2].map((index) => (
            <div
              key={index}
              className="h-24 animate-pulse rounded-2xl border border-border bg-surface"
              aria-hidden="true"
            />
          ))}
        </div>
      ) : state.step === 'ask' ? (
        <PasscodeForm
          label={payload?.label}
          attemptsLeft={state.attemptsLeft}
          name={name}
          onNameChange={setName}
          onOpen={open}
        />
      ) : (
        <Summary summary={state.summary} documents={state.documents} json={state.json} />
      )}
    </main>
  );
}

function Message({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-2xl border border-border bg-surface p-6">
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="mt-2 text-muted-foreground">{children}</p>
    </section>
  );
}

const fieldClass =
  'min-h-11 w-full rounded-xl border border-input bg-surface px-3.5 py-2 text-base outline-none focus-visible:border-primary focus-visible:ring-2 focus-visible:ring-ring';

function PasscodeForm({
  label,
  attemptsLeft,
  name,
  onNameChange,
  onOpen,
}: {
  label: string | undefined;
  /** Set after a wrong passcode: how many tries the link has left, when the server says. */
  attemptsLeft: number | 'unknown' | undefined;
  name: string;
  onNameChange: (name: string) => void;
  onOpen: (recipient: string, passcode: string) => void;
}) {
  const { t } = useTranslation();
  const nameId = useId();
  const passcodeId = useId();
  const labelName = label === undefined ? null : recordsLabelName(label);
  const [passcode, setPasscode] = useState('');
  const problem = attemptsLeft !== undefined;
  const passcodeField = useRef<HTMLInputElement>(null);
  // After a wrong passcode the form comes back: the field is where the next try is typed.
  useEffect(() => {
    if (problem) passcodeField.current?.focus();
  }, [problem]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onOpen(name.trim(), passcode);
  };
  return (
    <form
      className="space-y-4 rounded-2xl border border-border bg-surface p-6"
      onSubmit={submit}
      noValidate
    >
      <div>
        <h1 className="text-xl font-semibold">
          {labelName !== null
            ? t('Health records of {name}', { name: labelName })
            : (label ?? t('Shared health records'))}
        </h1>
        <p className="mt-1 text-sm text-muted-foreground">
          {t('This link is protected with a passcode. Ask the person who shared it.')}
        </p>
      </div>
      <div className="space-y-1.5">
        <label htmlFor={nameId} className="text-sm font-medium">
          {t('Your name')}
        </label>
        <input
          id={nameId}
          className={fieldClass}
          autoComplete="name"
          maxLength={200}
          value={name}
          onChange={(event) => onNameChange(event.target.value)}
        />
        <p className="text-xs text-muted-foreground">
          {t('Optional. The person who shared the link sees it in their access log.')}
        </p>
      </div>
      <div className="space-y-1.5">
        <label htmlFor={passcodeId} className="text-sm font-medium">
          {t('Passcode')}
        </label>
        <input
          ref={passcodeField}
          id={passcodeId}
          className={fieldClass}
          type="password"
          autoComplete="off"
          value={passcode}
          onChange={(event) => setPasscode(event.target.value)}
          aria-invalid={problem || undefined}
          aria-describedby={problem ? `${passcodeId}-problem` : undefined}
        />
        {problem ? (
          <p
            id={`${passcodeId}-problem`}
            role="alert"
            className="text-sm font-medium text-destructive"
          >
            <span>{t(WRONG_PASSCODE)}</span>.
            {typeof attemptsLeft === 'number'
              ? ` ${t('{count} attempts left.', { count: attemptsLeft })}`
              : null}
          </p>
        ) : null}
      </div>
      <button
        type="submit"
        className="min-h-11 w-full rounded-xl bg-primary px-4 py-2 font-medium text-primary-foreground hover:bg-primary-hover"
      >
        {t('Open')}
      </button>
    </form>
  );
}

/** Sections left out when empty (the PDF, too, has 'Vaccine Doses Overdue' only when any are). */
const SHOWN_ONLY_WITH_ITEMS = new Set(['Past Visits', 'Notes', 'Vaccine Doses Overdue']);

const sectionId = (heading: string) => `section-${heading.toLowerCase().replace(/\W+/g, '-')}`;

function Summary({
  summary,
  documents,
  json,
}: {
  summary: BundleSummary;
  documents: SharedDocument[];
  json: string;
}) {
  const { t } = useTranslation();
  return (
    <article className="space-y-4 wrap-anywhere">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">{summary.name}</h1>
          {summary.birthDate ? (
            <p className="text-sm text-muted-foreground">
              {t('Born {date}', { date: day(summary.birthDate) })}
            </p>
          ) : null}
        </div>
        <button
          type="button"
          onClick={() => download(json, summary.name)}
          className="inline-flex min-h-11 items-center gap-2 rounded-xl border border-input bg-surface px-4 py-2 text-sm font-medium hover:bg-surface-muted"
        >
          <Download className="size-4" aria-hidden="true" />
          {t('Download FHIR JSON')}
        </button>
      </header>
      {summary.sections
        .filter(
          (section) => section.items.length > 0 || !SHOWN_ONLY_WITH_ITEMS.has(section.heading),
        )
        .map((section) => (
          <section
            key={section.heading}
            aria-labelledby={sectionId(section.heading)}
            className="rounded-2xl border border-border bg-surface p-4"
          >
            <h2 id={sectionId(section.heading)} className="mb-2 font-semibold">
              {t(section.heading)}
            </h2>
            {section.items.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t('None recorded')}</p>
            ) : (
              <ul className="divide-y divide-border">
                {section.items.map((item, index) => (
                  <li key={index} className="py-2">
                    <p className="flex flex-wrap items-center gap-2 font-medium">
                      {item.title}
                      {item.badge === 'Severe' ? (
                        <SevereBadge />
                      ) : item.badge ? (
                        <LabFlagBadge flag={item.badge} />
                      ) : null}
                    </p>
                    {item.details.length > 0 ? (
                      <p className="text-sm whitespace-pre-line text-muted-foreground">
                        {item.details.join(' · ')}
                      </p>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </section>
        ))}
      {documents.length > 0 ? <SharedDocuments documents={documents} /> : null}
    </article>
  );
}

const fileBlob = (file: SharedFile) =>
  new Blob([base64UrlBytes(file.data) as Uint8Array<ArrayBuffer>], { type: file.contentType });

/** A PDF in the browser's own viewer, in a new tab: decrypted here, never from a server. */
function openFile(file: SharedFile) {
  const url = URL.createObjectURL(fileBlob(file));
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const smallButton =
  'inline-flex min-h-11 items-center gap-2 rounded-xl border border-input bg-surface px-3 py-2 text-sm font-medium hover:bg-surface-muted';

const documentImageId = (id: string) => `document-${id}`;

/** The documents the owner chose to share: each viewed (an image here, a PDF in a new tab) or downloaded. */
function SharedDocuments({ documents }: { documents: SharedDocument[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <section
      aria-labelledby={sectionId('Documents')}
      className="rounded-2xl border border-border bg-surface p-4"
    >
      <h2 id={sectionId('Documents')} className="mb-2 font-semibold">
        {t('Documents')}
      </h2>
      <ul className="divide-y divide-border">
        {documents.map((document) => {
          const shown = document.shown;
          const image = shown && shown.contentType !== 'application/pdf' ? shown : null;
          const imageId = documentImageId(document.id);
          return (
            <li key={document.id} className="space-y-2 py-2">
              <div>
                <p className="font-medium">{document.title}</p>
                <p className="text-sm text-muted-foreground">
                  {[document.type, document.date].filter(Boolean).join(' · ')}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                {image ? (
                  <button
                    type="button"
                    className={smallButton}
                    aria-label={t('View {title}', { title: document.title })}
                    aria-expanded={open.has(document.id)}
                    aria-controls={imageId}
                    onClick={() => toggle(document.id)}
                  >
                    <Eye className="size-4" aria-hidden="true" />
                    {t('View')}
                  </button>
                ) : shown ? (
                  <button
                    type="button"
                    className={smallButton}
                    aria-label={t('Open {title}', { title: document.title })}
                    onClick={() => openFile(shown)}
                  >
                    <ExternalLink className="size-4" aria-hidden="true" />
                    {t('Open')}
                  </button>
                ) : null}
                <button
                  type="button"
                  className={smallButton}
                  aria-label={t('Download {title}', { title: document.title })}
                  onClick={() => saveBlob(fileBlob(document.file), document.file.fileName)}
                >
                  <Download className="size-4" aria-hidden="true" />
                  {t('Download')}
                </button>
              </div>
              {image ? (
                <div id={imageId} hidden={!open.has(document.id)}>
                  {open.has(document.id) ? (
                    <img
                      src={`data:${image.contentType};base64,${image.data}`}
                      alt={document.title}
                      className="max-h-[70dvh] w-full rounded-xl border border-border object-contain"
                    />
                  ) : null}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

const root = document.getElementById('root');
if (root) {
  // The reader's language is set up first: the page's first words are already theirs.
  void startViewerI18n().then(() =>
    createRoot(root).render(
      <StrictMode>
        <Viewer />
      </StrictMode>,
    ),
  );
}
