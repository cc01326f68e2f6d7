/** /list: the Health Records menu, a card for each kind of record. */
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { recordIdentities } from '../../../shared/records/catalogue';
import { MENU_CARD_CLASS, MenuCardContent, menuCardNaming } from '../../components/menu-card';
import { DocumentIcon, RecordTypeIcon } from '../../components/record-type-icon';
import { PageHeader } from '../shell/page-header';

/** A card for each record type the menu lists, as the catalogue says. */
const cards = recordIdentities.flatMap((identity) =>
  identity.menu ? [{ definition: identity, ...identity.menu }] : [],
);

export function HealthRecordsPage() {
  return (
    <>
      <PageHeader title="Health Records" subtitle="Everything you keep, by kind" />
      <ul className="grid gap-3 sm:grid-cols-2">
        {cards.map(({ definition, title, description }) => {
          return (
            <li key={definition.path}>
              <Link
                to={`/${definition.path}`}
                className={MENU_CARD_CLASS}
                {...menuCardNaming(`records-${definition.path}`)}
              >
                <MenuCardContent
                  id={`records-${definition.path}`}
                  icon={<RecordTypeIcon type={definition.type} size="lg" />}
                  title={title}
                  description={description}
                />
                <ChevronRight className="size-5 text-muted-foreground" aria-hidden="true" />
              </Link>
            </li>
          );
        })}
        <li>
          <Link
            to="/documents"
            className={MENU_CARD_CLASS}
            {...menuCardNaming('records-documents')}
          >
            <MenuCardContent
              id="records-documents"
              icon={<DocumentIcon size="lg" />}
              title="Documents"
              description="Letters, lab reports, cards and other papers"
            />
            <ChevronRight className="size-5 text-muted-foreground" aria-hidden="true" />
          </Link>
        </li>
      </ul>
    </>
  );
}

export default HealthRecordsPage;
