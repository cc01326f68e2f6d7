/** /list: the Health Records menu, a card for each kind of record. */
import { ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { recordIdentities } from '../../../shared/records/catalogue';
import { MENU_CARD_CLASS, MenuCardContent, menuCardNaming } from '../../components/menu-card';
import { DocumentIcon, RecordTypeIcon } from '../../components/record-type-icon';
import { PageHeader } from '../shell/page-header';

/** A card for each record type the menu lists, as the catalogue says. */
const cards = recordIdentities.flatMap((identity) =>
  identity.menu
    ? [{ definition: identity, cardId: cardIdOf(identity.path), ...identity.menu }]
    : [],
);

/** The id a card's title and line are named by. */
function cardIdOf(path: string) {
  return ['records', path].join('-');
}

const DOCUMENTS_CARD = cardIdOf('documents');

export function HealthRecordsPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('Health Records')} subtitle={t('Everything you keep, by kind')} />
      <ul className="grid gap-3 sm:grid-cols-2">
        {cards.map(({ definition, cardId, title, description }) => {
          return (
            <li key={definition.path}>
              <Link
                to={`/${definition.path}`}
                className={MENU_CARD_CLASS}
                {...menuCardNaming(cardId)}
              >
                <MenuCardContent
                  id={cardId}
                  icon={<RecordTypeIcon type={definition.type} size="lg" />}
                  title={t(title)}
                  description={t(description)}
                />
                <ChevronRight className="size-5 text-muted-foreground" aria-hidden="true" />
              </Link>
            </li>
          );
        })}
        <li>
          <Link to="/documents" className={MENU_CARD_CLASS} {...menuCardNaming(DOCUMENTS_CARD)}>
            <MenuCardContent
              id={DOCUMENTS_CARD}
              icon={<DocumentIcon size="lg" />}
              title={t('Documents')}
              description={t('Letters, lab reports, cards and other papers')}
            />
            <ChevronRight className="size-5 text-muted-foreground" aria-hidden="true" />
          </Link>
        </li>
      </ul>
    </>
  );
}

export default HealthRecordsPage;
