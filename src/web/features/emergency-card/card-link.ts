/**
 * The emergency card's share link (decision 0063). Its key lives only in the link, and the
 * server never has it: so that the card shows the same QR code each time it is opened (and
 * with no network), this device keeps the link, in the cache sign-out deletes
 * (EMERGENCY_CARD_CACHE). The first time a card is opened here by someone who may share the
 * person, its link is made; when the Share screen revoked it, or it nears its end, or the card
 * changed since it was made, the page offers a new one (the old one is then revoked).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import {
  EMERGENCY_CARD_RENEW_DAYS,
  EMERGENCY_CARD_SCOPE,
  type EmergencyCard,
} from '../../../shared/emergency-card';
import { tr } from '../../../shared/i18n/translate';
import { shareLinksApi } from '../share/share-links-api';
import { EMERGENCY_CARD_CACHE } from '../../service-worker/cache-names';
import { useUnits } from '../profile-settings/profile-queries';
import { createShareLink, useShareLinks } from '../share/share-link-queries';

/** A card's link as this device keeps it. */
export interface KeptCardLink {
  id: string;
  /** The viewer URL with the key in its fragment. */
  link: string;
  expiresAt: string;
  /** The card's records when the link was made (`cardContent`): the link holds these. */
  content: string;
}

const keptPath = (personId: string) => `/emergency-card-link/${encodeURIComponent(personId)}`;

/** Whether this browser can keep anything for the card (CacheStorage: https or localhost). */
const canKeep = () => 'caches' in globalThis;

async function readKeptLink(personId: string): Promise<KeptCardLink | null> {
  if (!canKeep()) return null;
  const kept = await caches.match(keptPath(personId), { cacheName: EMERGENCY_CARD_CACHE });
  return kept ? ((await kept.json()) as KeptCardLink) : null;
}

async function keepLink(personId: string, link: KeptCardLink) {
  if (!canKeep()) return;
  const cache = await caches.open(EMERGENCY_CARD_CACHE);
  await cache.put(keptPath(personId), Response.json(link));
}

/**
 * What the card's link holds, to tell whether the card changed since: all but its date, and
 * its rows left out only when there are any (a link kept before cards said so is not stale).
 */
export function cardContent(card: EmergencyCard): string {
  const { today: _today, not_shown: notShown, ...content } = card;
  const anyLeftOut = notShown && Object.keys(notShown).length > 0;
  return JSON.stringify(anyLeftOut ? { ...content, not_shown: notShown } : content);
}

export type CardLinkState =
  | { kind: 'loading' }
  /** None here, and the user may not make one (or not now: no network). */
  | { kind: 'none' }
  | { kind: 'live'; kept: KeptCardLink; stale: boolean; endingSoon: boolean }
  /** Revoked (on the Share screen) or expired. */
  | { kind: 'gone'; kept: KeptCardLink };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The card's link: the one kept here while the server still lists it live, made at the first
 * opening by someone who may share the person; `renew` makes another and revokes the old.
 */
export function useCardLink(card: EmergencyCard | undefined, mayShare: boolean) {
  const personId = card?.person.id ?? '';
  const queryClient = useQueryClient();
  const units = useUnits();
  const keptKey = ['emergency-card-link', personId] as const;
  const kept = useQuery({
    queryKey: keptKey,
    queryFn: () => readKeptLink(personId),
    enabled: Boolean(card),
    // The device's own cache: no network needed.
    networkMode: 'always',
    staleTime: Infinity,
  });
  const links = useShareLinks(mayShare);

  const make = useMutation({
    mutationFn: async (old: KeptCardLink | null) => {
      if (!card) throw new Error(tr('The card is not loaded'));
      const created = await createShareLink({
        purpose: EMERGENCY_CARD_SCOPE,
        personId,
        personName: card.person.name,
        units,
      });
      const link: KeptCardLink = {
        id: created.id,
        link: created.link,
        expiresAt: created.expiresAt,
        content: cardContent(card),
      };
      await keepLink(personId, link);
      // The old QR code stops opening: only the new one holds the card as it is now.
      if (old) await shareLinksApi.revoke(old.id).catch(() => undefined);
      return link;
    },
    onSuccess: (link) => queryClient.setQueryData(keptKey, link),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['share-links'] }),
  });

  // The first opening here: the card gets its link at once.
  const tried = useRef(false);
  const firstTime = kept.isSuccess && kept.data === null && mayShare && canKeep();
  useEffect(() => {
    if (!firstTime || tried.current || !card) return;
    tried.current = true;
    make.mutate(null);
  }, [firstTime, card, make]);

  let state: CardLinkState;
  if (!card || kept.isPending || make.isPending) state = { kind: 'loading' };
  else if (!kept.data) state = { kind: 'none' };
  else {
    const listed = links.data?.find((link) => link.id === kept.data?.id);
    const now = Date.now();
    const expiresAt = Date.parse(listed?.expires_at ?? kept.data.expiresAt);
    // Without the list (no network, or a Viewer), the link is taken to be as it was made.
    const gone = expiresAt <= now || (links.isSuccess && (!listed || listed.revoked_at !== null));
    state = gone
      ? { kind: 'gone', kept: kept.data }
      : {
          kind: 'live',
          kept: kept.data,
          stale: kept.data.content !== cardContent(card),
          endingSoon: expiresAt - now < EMERGENCY_CARD_RENEW_DAYS * DAY_MS,
        };
  }

  const renew = () => make.mutate(state.kind === 'live' ? state.kept : null);
  return { state, renew, making: make.isPending, error: make.error };
}
