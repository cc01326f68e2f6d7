/**
 * Which backups to keep. Only good backups (verified when written, unchanged since) count,
 * whatever made them (daily, before a migration, by hand, before a restore):
 *
 * - daily: the newest good backup of each of the `keepDaily` most recent local calendar
 *   days that have one;
 * - weekly: the newest good backup of each of the `keepWeekly` most recent ISO weeks (Monday
 *   to Sunday, local time) among the good backups older than the oldest of those days.
 *
 * Every other good backup is deleted. Days without a backup (the server was off) do not use
 * up the window, so the newest good backup is always kept. A file that is not a good backup
 * (its check failed, there is no record of a check, or it changed since) is neither counted
 * nor deleted: it is listed, and left to the operator.
 */
import { rmSync } from 'node:fs';
import type { BackupConfig } from '../config';
import type { Logger } from '../logger';
import {
  listBackups,
  removeLeftovers,
  sidecarPath,
  syncDirectory,
  type BackupEntry,
} from './backup';

export type RetentionPolicy = Pick<BackupConfig, 'keepDaily' | 'keepWeekly'>;

const pad = (value: number) => String(value).padStart(2, '0');

function localDay(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The ISO 8601 week of a date's local calendar day, as `2025-W27`. */
export function isoWeek(date: Date): string {
  // Day arithmetic in UTC on the local calendar date: no daylight-saving hour in the way.
  const day = new Date(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()));
  // The Thursday of the same Monday-to-Sunday week decides the week's year.
  day.setUTCDate(day.getUTCDate() + 4 - (day.getUTCDay() || 7));
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${pad(week)}`;
}

/** The names of the backups to keep, and of the good ones to delete. */
export function selectBackups(
  entries: readonly Pick<BackupEntry, 'name' | 'createdAt' | 'verification'>[],
  policy: RetentionPolicy,
): { keep: string[]; remove: string[] } {
  const good = entries
    .filter((entry) => entry.verification === 'ok')
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const keep = new Set<string>();

  const days = new Set<string>();
  let windowStart: Date | null = null;
  for (const entry of good) {
    const day = localDay(entry.createdAt);
    if (days.has(day)) continue;
    if (days.size === policy.keepDaily) break;
    days.add(day);
    keep.add(entry.name);
    const at = entry.createdAt;
    windowStart = new Date(at.getFullYear(), at.getMonth(), at.getDate());
  }

  const weeks = new Set<string>();
  if (windowStart && days.size === policy.keepDaily) {
    for (const entry of good) {
      if (entry.createdAt >= windowStart || weeks.size === policy.keepWeekly) continue;
      const week = isoWeek(entry.createdAt);
      if (weeks.has(week)) continue;
      weeks.add(week);
      keep.add(entry.name);
    }
  }

  return {
    keep: entries.filter((entry) => keep.has(entry.name)).map((entry) => entry.name),
    remove: good.filter((entry) => !keep.has(entry.name)).map((entry) => entry.name),
  };
}

/** Deletes the good backups the policy does not keep, and what interrupted backups left. */
export function applyRetention(options: {
  backupDir: string;
  policy: RetentionPolicy;
  logger: Logger;
  now?: Date;
}): string[] {
  const { backupDir, policy, logger } = options;
  const entries = listBackups(backupDir);
  const { remove } = selectBackups(entries, policy);
  for (const name of remove) {
    const entry = entries.find((candidate) => candidate.name === name);
    if (!entry) continue;
    // The file first: stopped half-way, this leaves a record without a file (cleared below
    // or next time), never a good file that lost its record.
    rmSync(entry.path, { force: true });
    rmSync(sidecarPath(entry.path), { force: true });
    logger.info({ path: entry.path }, 'old backup removed');
  }
  const leftovers = removeLeftovers(backupDir, options.now ?? new Date());
  if (remove.length || leftovers.length) syncDirectory(backupDir);
  return remove;
}
