/**
 * The timeline's prompt 'How is {name} feeling?': the person in view (or the account
 * holder, when the timeline shows everyone), opening the quick symptom entry. A person the
 * user may not add records to (shared with them to view) gets no prompt.
 */
import { Suspense, useState } from 'react';
import { lazyPart } from '../../lib/when-reachable';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { recordCatalogue } from '../../../shared/records/catalogue';
import { firstName } from '../../../shared/names';
import { RecordTypeIcon } from '../../components/record-type-icon';
import { useSession } from '../auth/session';
import { usePersons } from '../family-members/person-select';
import { useFamilyMemberOf, withPerson } from '../family-members/person-in-view';

const QuickSymptomDialog = lazyPart(() => import('./quick-symptom-dialog'));

export function QuickSymptomPrompt({ personInView }: { personInView: string | undefined }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const user = useSession().data?.user;
  const persons = usePersons({ shared: true });
  const personId = personInView ?? user?.id;
  const familyMemberId = useFamilyMemberOf(personId);
  if (!user || !personId || familyMemberId === undefined) return null;
  const name =
    personId === user.id
      ? firstName(user.name)
      : firstName(persons.find((person) => person.id === personId)?.label);
  const title = t('How is {name} feeling?', { name });
  return (
    <>
      {/* A link (to the full form, for a new tab) rather than a button: a button named with
          the person would share its name with their button of the member strip. */}
      <Link
        to={withPerson(`/${recordCatalogue.symptom.path}/new`, personInView)}
        aria-haspopup="dialog"
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
          event.preventDefault();
          setOpen(true);
        }}
        className="mb-5 flex min-h-11 w-full items-center gap-3 rounded-2xl border border-dashed border-border bg-surface p-3.5 text-start font-semibold transition-colors hover:border-primary"
      >
        <RecordTypeIcon type="symptom" />
        {title}
      </Link>
      {open ? (
        <Suspense fallback={null}>
          <QuickSymptomDialog
            title={title}
            personId={personId}
            familyMemberId={familyMemberId}
            onDone={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
