/**
 * /emergency-card/{personId} (CONTRACT.md §6): one person's emergency card, to 'Print' on one
 * page or 'Save as image' for a phone's lock screen, with a QR code of a share link that holds
 * only the card (card-link.ts).
 *
 * It opens with no network once it has been opened here: the service worker keeps the card's
 * last answer and the page the card's link (decision 0063). So the page stands outside the
 * session guard, and keeps its rule itself: with the network, a visitor without a session
 * goes to /auth (the session check, or the card's 401, says so); without it, the card kept on
 * this device shows (sign-out deletes it).
 */
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ImageDown, Printer, RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { LONG_DATE_FORMAT, formatDate } from '../../../shared/dates';
import { EMERGENCY_CARD_QR_NAME } from '../../../shared/emergency-card';
import { APP_NAME } from '../../../shared/constants';
import { Button } from '../../components/ui/button';
import { Loading } from '../../components/ui/feedback';
import { emergencyCardApi } from './emergency-card-api';
import { saveBlob } from '../../lib/save-file';
import { showError } from '../../lib/toast';
import { useOnline } from '../../lib/use-online';
import { useSession } from '../auth/session';
import { usePersons } from '../family-members/person-select';
import { useCardLink, type CardLinkState } from './card-link';
import { bornText, EmergencyCardView } from './emergency-card-view';
import { lockScreenFileName, lockScreenImage } from './lock-screen-image';

function useQrImage(link: string | null) {
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    if (!link) {
      setQr(null);
      return;
    }
    void import('qrcode').then(({ toDataURL }) =>
      toDataURL(link, { errorCorrectionLevel: 'M', margin: 1, width: 320 }).then((url) => {
        if (live) setQr(url);
      }),
    );
    return () => {
      live = false;
    };
  }, [link]);
  return qr;
}

function CardQr({ state, qr }: { state: CardLinkState; qr: string | null }) {
  const { t } = useTranslation();
  if (state.kind !== 'live') return null;
  return (
    <figure className="flex flex-col items-center gap-1">
      {qr ? (
        <img
          src={qr}
          alt={t(EMERGENCY_CARD_QR_NAME)}
          width={160}
          height={160}
          className="rounded-lg border border-border bg-white print:size-40"
        />
      ) : (
        <div className="size-40 rounded-lg bg-surface-muted" aria-hidden="true" />
      )}
      <figcaption className="max-w-40 text-center text-xs text-muted-foreground print:text-black">
        {t('Scan for these details · until {date}', {
          date: formatDate(state.kept.expiresAt, LONG_DATE_FORMAT),
        })}
      </figcaption>
    </figure>
  );
}

/** What the page says of the card's link, and what may be done about it. */
function LinkStatus({
  state,
  mayShare,
  online,
  making,
  onRenew,
  name,
}: {
  state: CardLinkState;
  mayShare: boolean;
  online: boolean;
  making: boolean;
  onRenew: () => void;
  name: string;
}) {
  const { t } = useTranslation();
  let message: string | null = null;
  let action: string | null = null;
  if (state.kind === 'none') {
    message = mayShare
      ? t('The card has no QR code on this device yet.')
      : t("Only someone who may share {name}'s records can make the card's QR code.", { name });
    action = mayShare ? t('Create QR Code') : null;
  } else if (state.kind === 'gone') {
    message = t("The card's link was revoked or has expired: its QR code no longer opens.");
    action = mayShare ? t('Create New QR Code') : null;
  } else if (state.kind === 'live' && state.stale) {
    message = t(
      'The card changed since its QR code was made: the code still shows the old details.',
    );
    action = mayShare ? t('Renew QR Code') : null;
  } else if (state.kind === 'live' && state.endingSoon) {
    message = t("The card's link ends on {date}.", {
      date: formatDate(state.kept.expiresAt, LONG_DATE_FORMAT),
    });
    action = mayShare ? t('Renew QR Code') : null;
  }
  if (!message) return null;
  return (
    <div className="mb-4 flex flex-wrap items-center gap-3 rounded-xl border border-border bg-surface p-3 text-sm print:hidden">
      <p className="min-w-0 flex-1 basis-56">
        {message}
        {state.kind !== 'none' && action
          ? ` ${t('A new code replaces it: print the card and save the image again.')}`
          : ''}
      </p>
      {action ? (
        <Button type="button" variant="outline" disabled={making || !online} onClick={onRenew}>
          <RefreshCw aria-hidden="true" />
          {making ? t('Creating...') : action}
        </Button>
      ) : null}
    </div>
  );
}

export function EmergencyCardPage() {
  const { t } = useTranslation();
  const { id: personId = '' } = useParams();
  const location = useLocation();
  const session = useSession();
  const online = useOnline();
  const card = useQuery({
    queryKey: ['emergency-card', personId],
    queryFn: () => emergencyCardApi.get(personId),
    // Asked even with no network: the service worker answers with the card it kept.
    networkMode: 'always',
    retry: false,
  });
  const persons = usePersons({ exportable: true });
  const mayShare = online && persons.some((person) => person.id === personId);
  const link = useCardLink(card.data, mayShare);
  const qr = useQrImage(link.state.kind === 'live' ? link.state.kept.link : null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    document.title = card.data
      ? `${t('Emergency Card: {name}', { name: card.data.person.name })} · ${APP_NAME}`
      : `${t('Emergency Card')} · ${APP_NAME}`;
  }, [card.data, t]);
  useEffect(() => {
    if (link.error) showError(t("Could not make the card's QR code"), link.error);
  }, [link.error, t]);

  if (session.data === null) {
    return <Navigate to="/auth" replace state={{ from: location.pathname }} />;
  }

  const saveImage = async () => {
    if (!card.data) return;
    setSaving(true);
    try {
      const image = await lockScreenImage(
        card.data,
        link.state.kind === 'live' ? link.state.kept.link : null,
        bornText(card.data),
      );
      saveBlob(image, lockScreenFileName(card.data));
    } catch (error) {
      showError(t('Could not save the image'), error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <main className="mx-auto w-full max-w-2xl px-4 pt-4 pb-12 lg:max-w-3xl print:max-w-none print:p-0">
      <div className="mb-4 flex flex-wrap items-center gap-2 print:hidden">
        <Link
          to="/profiles"
          className="inline-flex min-h-11 items-center gap-2 rounded-xl pe-3 text-sm font-medium text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft className="size-5" aria-hidden="true" />
          {t('Family Profiles')}
        </Link>
        <h1 className="sr-only">{t('Emergency Card')}</h1>
        <div className="ml-auto flex gap-2">
          <Button
            type="button"
            variant="outline"
            onClick={() => window.print()}
            disabled={!card.data}
          >
            <Printer aria-hidden="true" />
            {t('Print')}
          </Button>
          <Button type="button" onClick={() => void saveImage()} disabled={!card.data || saving}>
            <ImageDown aria-hidden="true" />
            {saving ? t('Saving...') : t('Save as image')}
          </Button>
        </div>
      </div>
      {card.data ? (
        <>
          <LinkStatus
            state={link.state}
            mayShare={mayShare}
            online={online}
            making={link.making}
            onRenew={link.renew}
            name={card.data.person.name}
          />
          <EmergencyCardView card={card.data} qr={<CardQr state={link.state} qr={qr} />} />
        </>
      ) : card.isError ? (
        <p role="alert" className="rounded-xl border border-border bg-surface p-4">
          {online
            ? card.error.message
            : t('This card has not been opened on this device yet: it needs a connection once.')}
        </p>
      ) : (
        <Loading />
      )}
    </main>
  );
}

export default EmergencyCardPage;
