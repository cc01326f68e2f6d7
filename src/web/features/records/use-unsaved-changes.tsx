/**
 * Nothing typed is lost: a form with changes asks before it is left ('Discard changes?'),
 * inside the app (React Router's blocker: Back, a tab, a link) and out of it (the browser's
 * own beforeunload question), and keeps a draft for the tab that it offers back when the
 * same form opens again ('Restore your unsaved visit?'). Generic over any form's values: the
 * record form page gives a react-hook-form form's, the lab panel form its own state's.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { clearDraft, readDraft, writeDraft } from '../../lib/drafts';
import { unsavedPhrasesOf } from './record-phrases';

export function useUnsavedChanges<V>({
  dirty,
  values,
  restoreDraft,
  draftKey,
  ready,
  noun,
  waiting = false,
}: {
  /** The form differs from what it started from. */
  dirty: boolean;
  /** What the form holds now: the draft kept while it is dirty. */
  values: V;
  /** Puts a draft back in the form, counting as changes against what it started from. */
  restoreDraft: (draft: V) => void;
  /** Where this form's draft is kept; none while the signed-in user is not yet known. */
  draftKey: string | undefined;
  /** The form holds what it starts from (an edit's record has been loaded into it). */
  ready: boolean;
  /**
   * What the form is about, in lower case: 'visit'. Its questions are the sentences of
   * record-phrases.ts's UNSAVED_PHRASES for it.
   */
  noun: string;
  /**
   * A save is waiting for the network: the screen may be left without a question, since
   * the save goes through when the network returns (the draft stays until it has).
   */
  waiting?: boolean;
}) {
  const { t } = useTranslation();
  const phrases = unsavedPhrasesOf(noun);
  const leaving = useRef(false);

  // A draft found when the form opened, until it is restored, discarded or typed over.
  const [offer, setOffer] = useState<V | undefined>();
  const offered = useRef<V | undefined>(undefined);
  const checked = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!ready || !draftKey || checked.current === draftKey) return;
    checked.current = draftKey;
    offered.current = readDraft<V>(draftKey);
    setOffer(offered.current);
  }, [ready, draftKey]);

  const dropOffer = () => {
    offered.current = undefined;
    setOffer(undefined);
  };

  // The draft follows the typing; a form back where it started keeps none.
  useEffect(() => {
    if (!draftKey || checked.current !== draftKey || leaving.current) return;
    if (dirty) {
      if (offered.current) dropOffer();
      writeDraft(draftKey, values);
    } else if (!offered.current) {
      clearDraft(draftKey);
    }
  }, [values, dirty, draftKey]);

  // Leaving the site (reload, closing the tab, another address) with changes.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // Leaving for another screen of the app with changes.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      !waiting &&
      !leaving.current &&
      (currentLocation.pathname !== nextLocation.pathname ||
        currentLocation.search !== nextLocation.search),
  );

  const forget = () => {
    leaving.current = true;
    if (draftKey) clearDraft(draftKey);
  };

  const confirm = (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open && blocker.state === 'blocked') blocker.reset();
      }}
      title={t('Discard changes?')}
      description={t(phrases.discard)}
      cancelLabel={t('Keep editing')}
      confirmLabel={t('Discard')}
      onConfirm={() => {
        forget();
        if (blocker.state === 'blocked') blocker.proceed();
      }}
    />
  );

  const restore = offer ? (
    <div
      role="region"
      aria-label={t('Unsaved draft')}
      className="mb-4 flex flex-col gap-3 rounded-2xl border border-primary/40 bg-primary-soft p-4 sm:flex-row sm:items-center"
    >
      <p className="flex-1 font-medium">{t(phrases.restore)}</p>
      <div className="flex gap-2">
        <Button
          variant="outline"
          onClick={() => {
            if (draftKey) clearDraft(draftKey);
            dropOffer();
          }}
        >
          {t('Discard draft')}
        </Button>
        <Button
          onClick={() => {
            restoreDraft(offer);
            dropOffer();
          }}
        >
          {t('Restore')}
        </Button>
      </div>
    </div>
  ) : null;

  return {
    /** The 'Discard changes?' question, to render with the form. */
    confirm,
    /** The draft offered back, to render above the form. */
    restore,
    /** The form was saved: it may be left, and its draft is done with. */
    saved: forget,
  };
}
