/**
 * An account's notification channels (its ntfy topic and its webhook) and their delivery
 * log, over the rows the access module lets a request (or the sender, for one account at a
 * time) touch.
 *
 * A webhook's signing secret is not stored: it is an HMAC of the account and the channel's
 * random salt under a key derived from AUTH_SECRET, so making a new salt makes a new secret
 * and the old one stops verifying (docs/decisions/0064-notification-channels.md).
 */
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  ChannelDelivery,
  NotificationChannel,
  NotificationChannelsState,
} from '../../shared/notification-channels';
import { deleteOwned, ownedRow, ownedRows, updateOwned } from '../access/scope';
import type { DB } from '../db/schema';
import { newId, nowTimestamp } from '../ids';

/** The log keeps this many tries per account; older ones are deleted as new ones come. */
const DELIVERIES_KEPT = 50;
/** Profile Settings shows this many of them. */
const DELIVERIES_SHOWN = 20;

export interface StoredChannel {
  channel: NotificationChannel;
  url: string;
  secret_salt: string | null;
  /** Where the app is, for links in notifications: BASE_URL, or the address it was set from. */
  app_url: string;
}

export function createChannelRepository(db: Kysely<DB>, authSecret: string) {
  const signingKey = Buffer.from(
    hkdfSync('sha256', authSecret, 'kin-health', 'webhook signing secrets', 32),
  );

  async function channels(userId: string): Promise<StoredChannel[]> {
    const rows = await ownedRows(db, 'notification_channels', userId)
      .select(['channel', 'url', 'secret_salt', 'app_url'])
      .orderBy('channel')
      .execute();
    return rows as StoredChannel[];
  }

  async function deliveries(userId: string): Promise<ChannelDelivery[]> {
    const rows = await ownedRows(db, 'notification_deliveries', userId)
      .select(['id', 'channel', 'outcome', 'what', 'detail', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(DELIVERIES_SHOWN)
      .execute();
    return rows as ChannelDelivery[];
  }

  return {
    channels,

    async channel(
      userId: string,
      channel: NotificationChannel,
    ): Promise<StoredChannel | undefined> {
      return (await channels(userId)).find((row) => row.channel === channel);
    },

    async state(userId: string): Promise<NotificationChannelsState> {
      const saved = await channels(userId);
      const urlOf = (channel: NotificationChannel) => {
        const row = saved.find((r) => r.channel === channel);
        return row ? { url: row.url } : null;
      };
      return {
        ntfy: urlOf('ntfy'),
        webhook: urlOf('webhook'),
        deliveries: await deliveries(userId),
      };
    },

    /**
     * Sets a channel's URL. A webhook gets a new secret when it is new or `newSecret` asks;
     * says whether it did.
     */
    async save(
      userId: string,
      channel: NotificationChannel,
      url: string,
      appUrl: string,
      newSecret = false,
    ): Promise<{ secretMade: boolean }> {
      const now = nowTimestamp();
      const salt = () => (channel === 'webhook' ? randomBytes(16).toString('base64url') : null);
      const existing = await ownedRows(db, 'notification_channels', userId)
        .select('secret_salt')
        .where('channel', '=', channel)
        .executeTakeFirst();
      if (existing) {
        const fresh = newSecret && channel === 'webhook' ? salt() : existing.secret_salt;
        await updateOwned(db, 'notification_channels', userId)
          .set({ url, app_url: appUrl, secret_salt: fresh, updated_at: now })
          .where('channel', '=', channel)
          .execute();
        return { secretMade: fresh !== existing.secret_salt };
      }
      await db
        .insertInto('notification_channels')
        .values(
          ownedRow(userId, {
            channel,
            url,
            app_url: appUrl,
            secret_salt: salt(),
            created_at: now,
            updated_at: now,
          }),
        )
        .onConflict((oc) => oc.columns(['user_id', 'channel']).doNothing())
        .execute();
      return { secretMade: channel === 'webhook' };
    },

    async remove(userId: string, channel: NotificationChannel): Promise<boolean> {
      const deleted = await deleteOwned(db, 'notification_channels', userId)
        .where('channel', '=', channel)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    },

    /** The webhook's signing secret, from its salt. */
    webhookSecret(userId: string, salt: string): string {
      return `whsec_${createHmac('sha256', signingKey).update(`${userId}\n${salt}`).digest('base64url')}`;
    },

    /** Writes one try to the account's delivery log, and forgets the oldest past the limit. */
    async logDelivery(
      userId: string,
      entry: Pick<ChannelDelivery, 'channel' | 'outcome' | 'what' | 'detail'>,
    ): Promise<void> {
      await db
        .insertInto('notification_deliveries')
        .values(ownedRow(userId, { id: newId(), ...entry, created_at: nowTimestamp() }))
        .execute();
      const kept = await ownedRows(db, 'notification_deliveries', userId)
        .select('created_at')
        .orderBy('created_at', 'desc')
        .offset(DELIVERIES_KEPT - 1)
        .limit(1)
        .executeTakeFirst();
      if (kept) {
        await deleteOwned(db, 'notification_deliveries', userId)
          .where('created_at', '<', kept.created_at)
          .execute();
      }
    },
  };
}

export type ChannelRepository = ReturnType<typeof createChannelRepository>;
