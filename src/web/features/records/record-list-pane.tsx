/**
 * A record type's list beside a record's page, from 1024 px wide (issue 52): the records of
 * the person in view (everyone's when no one is), newest first as the list screen has them,
 * the one open marked. The arrow keys move along the list (Home and End to its ends), Enter
 * opens a record, Esc closes the one open (back to its list). The address stays the record's.
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { recordDateOf, type RecordDefinition } from '../../../shared/records/definition';
import { cn } from '../../lib/cn';
import { typingInField } from '../../lib/typing-in-field';
import { usePersonInView, withPerson } from '../family-members/person-in-view';
import { usePersonNames } from '../family-members/person-names';
import { ListPane } from '../shell/list-pane';
import { personOfRecord } from './list-location';
import { useRecordList } from './record-queries';

const KEYS_TO_STEP: Record<string, (index: number, last: number) => number> = {
  ArrowDown: (index, last) => Math.min(index + 1, last),
  ArrowUp: (index) => Math.max(index - 1, 0),
  Home: () => 0,
  End: (_index, last) => last,
};

export function RecordListPane({
  definition,
  currentId,
  backTo,
}: {
  definition: RecordDefinition;
  currentId: string;
  /** Where Esc goes: the record's list, as its page's back arrow. */
  backTo: string;
}) {
  const { t } = useTranslation();
  const [personInView] = usePersonInView();
  const list = useRecordList(definition, {
    member: definition.memberLinked ? personInView : undefined,
  });
  const personNames = usePersonNames();
  const navigate = useNavigate();
  const links = useRef<Array<HTMLAnchorElement | null>>([]);
  const current = list.items.findIndex((record) => record.id === currentId);

  useEffect(() => {
    links.current[current]?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  useEffect(() => {
    function onKey(event: globalThis.KeyboardEvent) {
      if (event.key !== 'Escape' || event.defaultPrevented || typingInField(event.target)) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      event.preventDefault();
      void navigate(backTo);
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate, backTo]);

  function step(event: KeyboardEvent<HTMLUListElement>) {
    const move = KEYS_TO_STEP[event.key];
    if (!move) return;
    const at = links.current.findIndex((link) => link === document.activeElement);
    event.preventDefault();
    links.current[move(at < 0 ? Math.max(current, 0) : at, list.items.length - 1)]?.focus();
  }

  return (
    <ListPane>
      <nav aria-label={t('{plural} list', { plural: t(definition.plural) })} className="px-3 py-5">
        <h2 className="px-3 pb-3 text-sm font-semibold tracking-wide text-muted-foreground uppercase">
          {t(definition.plural)}
        </h2>
        <ul onKeyDown={step} className="flex flex-col gap-0.5">
          {list.items.map((record, index) => {
            const values = record as unknown as Record<string, unknown>;
            const date = recordDateOf(definition, values);
            const open = record.id === currentId;
            return (
              <li key={record.id}>
                <Link
                  ref={(link) => {
                    links.current[index] = link;
                  }}
                  to={withPerson(`/${definition.path}/${record.id}`, personInView)}
                  aria-current={open ? 'page' : undefined}
                  className={cn(
                    'block rounded-xl px-3 py-2 text-sm',
                    open ? 'bg-primary-soft text-primary' : 'hover:bg-surface-muted',
                  )}
                >
                  <span className="block truncate font-medium">
                    {String(values[definition.titleField] ?? t(definition.noun))}
                  </span>
                  <span className="block truncate text-xs text-muted-foreground">
                    {[
                      date ? formatDate(date, DAY_GROUP_FORMAT) : null,
                      personNames([personOfRecord(record)]),
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
        {list.hasNextPage ? (
          <button
            type="button"
            onClick={() => void list.fetchNextPage()}
            disabled={list.isFetchingNextPage}
            className="mt-2 w-full rounded-xl px-3 py-2 text-sm font-medium text-primary hover:bg-surface-muted"
          >
            {t('Show more')}
          </button>
        ) : null}
      </nav>
    </ListPane>
  );
}
