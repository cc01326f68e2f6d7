/**
 * /share: the ways of sharing, the links made so far ('Active Share Links'), and the
 * privacy notice. A link, by email or message too, is a SMART Health Link (share-link-dialog).
 */
import { FileDown, Link2, Mail, MessageSquare, ShieldCheck, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_SHARE_LINK_EXPIRY_DAYS,
  SHARE_LINK_EXPIRY_CHOICES,
} from '../../../shared/share-links';
import { currentLocale, key } from '../../../shared/i18n/translate';
import { MENU_CARD_CLASS, MenuCardContent, menuCardNaming } from '../../components/menu-card';
import { Card } from '../../components/ui/card';
import { PageHeader } from '../shell/page-header';
import { PdfExportDialog } from './pdf-export-dialog';
import { ActiveShareLinks } from './active-share-links';
import { ShareLinkDialog, type ShareMode } from './share-link-dialog';

/** The cards that make a share link, and how each hands it over. */
const LINK_MODES: Record<string, ShareMode> = {
  Email: 'email',
  Message: 'message',
  Link: 'link',
};

const options: { title: string; kind: string; description: string; icon: LucideIcon }[] = [
  {
    title: key('Export as PDF'),
    kind: 'PDF',
    description: key('A printable summary of your records'),
    icon: FileDown,
  },
  {
    title: key('Share via Email'),
    kind: 'Email',
    description: key('Send records to a doctor or relative'),
    icon: Mail,
  },
  {
    title: key('Share via Message'),
    kind: 'Message',
    description: key('Send a summary by text message'),
    icon: MessageSquare,
  },
  {
    title: key('Generate Share Link'),
    kind: 'Link',
    description: key('A private link that expires'),
    icon: Link2,
  },
];

/** The other lengths a link can be given, as the language in force lists them: '1 or 30'. */
const otherExpiryChoices = () =>
  new Intl.ListFormat(currentLocale(), { type: 'disjunction' }).format(
    SHARE_LINK_EXPIRY_CHOICES.filter((days) => days !== DEFAULT_SHARE_LINK_EXPIRY_DAYS).map(String),
  );

const cardId = (kind: string) => `share-${kind}`;

export function SharePage() {
  const { t } = useTranslation();
  const [pdfOpen, setPdfOpen] = useState(false);
  const [mode, setMode] = useState<ShareMode | null>(null);
  return (
    <>
      <PageHeader title={t('Share Health Records')} subtitle={t('Choose how to share')} />
      <ul className="grid gap-3 sm:grid-cols-2">
        {options.map(({ title, kind, description, icon: Icon }) => (
          <li key={title}>
            <button
              type="button"
              onClick={() => {
                const linkMode = LINK_MODES[kind];
                if (linkMode) setMode(linkMode);
                else setPdfOpen(true);
              }}
              className={MENU_CARD_CLASS}
              {...menuCardNaming(cardId(kind))}
            >
              <MenuCardContent
                id={cardId(kind)}
                icon={
                  <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-primary-soft text-primary">
                    <Icon className="size-6" aria-hidden="true" />
                  </span>
                }
                title={t(title)}
                description={t(description)}
              />
            </button>
          </li>
        ))}
      </ul>
      <ShareLinkDialog mode={mode} onOpenChange={(open) => !open && setMode(null)} />
      <ActiveShareLinks />
      <Card tone="soft" className="mt-5 flex gap-3 p-4">
        <ShieldCheck className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
        <div className="text-sm leading-relaxed">
          <h2 className="font-semibold">{t('Your privacy comes first')}</h2>
          <p className="text-muted-foreground">
            {t(
              'Shared information is encrypted, and you can revoke access at any time. Share links expire after {days} days, unless you choose {others} days when you make one.',
              { days: DEFAULT_SHARE_LINK_EXPIRY_DAYS, others: otherExpiryChoices() },
            )}
          </p>
        </div>
      </Card>
      <PdfExportDialog open={pdfOpen} onOpenChange={setPdfOpen} />
    </>
  );
}

export default SharePage;
