/**
 * Versioned migrations, run at start-up on either engine. Each file is frozen once it has
 * shipped; a change to the schema is a new file.
 */
import type { Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';

// The migrator works on any schema; `any` here is Kysely's own idiom for that.
/* eslint-disable @typescript-eslint/no-explicit-any */
import * as auth from './migrations/0001-auth';
import * as familyMembers from './migrations/0002-family-members';
import * as records from './migrations/0003-records';
import * as security from './migrations/0004-security';
import * as recordCounts from './migrations/0005-record-counts';
import * as usedAuthenticationCodes from './migrations/0006-used-authentication-codes';
import * as limitsAndLocks from './migrations/0007-limits-and-locks';
import * as conditions from './migrations/0008-conditions';
import * as allergies from './migrations/0009-allergies';
import * as serverSettings from './migrations/0010-server-settings';
import * as fhirImportSources from './migrations/0011-fhir-import-sources';
import * as shareLinks from './migrations/0012-share-links';
import * as calendarLinks from './migrations/0013-calendar-links';
import * as doseLog from './migrations/0014-dose-log';
import * as reminders from './migrations/0015-reminders';
import * as household from './migrations/0016-household';
import * as signInProtections from './migrations/0017-sign-in-protections';
import * as recordCountsPerStatement from './migrations/0018-record-counts-per-statement';
import * as grantAcceptance from './migrations/0019-grant-acceptance';
import * as contactPersons from './migrations/0020-contact-persons';
import * as medicationNoSetTime from './migrations/0021-medication-no-set-time';
import * as mailQueue from './migrations/0022-mail-queue';
import * as vaccineSchedule from './migrations/0023-vaccine-schedule';
import * as emailReminders from './migrations/0024-email-reminders';
import * as vaccineReminders from './migrations/0025-vaccine-reminders';
import * as vitals from './migrations/0026-vitals';
import * as labResults from './migrations/0027-lab-results';
import * as documents from './migrations/0028-documents';
import * as passkeys from './migrations/0029-passkeys';
import * as searchIndex from './migrations/0031-search-index';
import * as documentTexts from './migrations/0032-document-texts';
import * as searchIndexByOwner from './migrations/0037-search-index-by-owner';
import * as searchIndexLighterWrites from './migrations/0038-search-index-lighter-writes';
import * as vaccineSchedulePerPerson from './migrations/0039-vaccine-schedule-per-person';
import * as documentRecords from './migrations/0040-document-records';
import * as passcodeVersion from './migrations/0041-passcode-version';
import * as documentTextTurns from './migrations/0042-document-text-turns';
import * as documentStorage from './migrations/0043-document-storage';
import * as importHistory from './migrations/0044-import-history';
import * as connections from './migrations/0045-connections';
import * as medicationSupply from './migrations/0046-medication-supply';
import * as symptoms from './migrations/0047-symptoms';
import * as notificationChannels from './migrations/0048-notification-channels';
import * as missedDoseAlerts from './migrations/0050-missed-dose-alerts';
import * as accountLanguage from './migrations/0051-account-language';
import * as mailLanguage from './migrations/0052-mail-language';
import * as accountLockWaiting from './migrations/0053-account-lock-waiting';
import { syncSearchIndex } from '../search/search-index-sync';

export const migrations: Record<string, Migration> = {
  '0001-auth': auth,
  '0002-family-members': familyMembers,
  '0003-records': records,
  '0004-security': security,
  '0005-record-counts': recordCounts,
  '0006-used-authentication-codes': usedAuthenticationCodes,
  '0007-limits-and-locks': limitsAndLocks,
  '0008-conditions': conditions,
  '0009-allergies': allergies,
  '0010-server-settings': serverSettings,
  '0011-fhir-import-sources': fhirImportSources,
  '0012-share-links': shareLinks,
  '0013-calendar-links': calendarLinks,
  '0014-dose-log': doseLog,
  '0015-reminders': reminders,
  '0016-household': household,
  '0017-sign-in-protections': signInProtections,
  '0018-record-counts-per-statement': recordCountsPerStatement,
  '0019-grant-acceptance': grantAcceptance,
  '0020-contact-persons': contactPersons,
  '0021-medication-no-set-time': medicationNoSetTime,
  '0022-mail-queue': mailQueue,
  '0023-vaccine-schedule': vaccineSchedule,
  '0024-email-reminders': emailReminders,
  '0025-vaccine-reminders': vaccineReminders,
  '0026-vitals': vitals,
  '0027-lab-results': labResults,
  '0028-documents': documents,
  '0029-passkeys': passkeys,
  '0031-search-index': searchIndex,
  '0032-document-texts': documentTexts,
  '0037-search-index-by-owner': searchIndexByOwner,
  '0038-search-index-lighter-writes': searchIndexLighterWrites,
  '0039-vaccine-schedule-per-person': vaccineSchedulePerPerson,
  '0040-document-records': documentRecords,
  '0041-passcode-version': passcodeVersion,
  '0042-document-text-turns': documentTextTurns,
  '0043-document-storage': documentStorage,
  '0044-import-history': importHistory,
  '0045-connections': connections,
  '0046-medication-supply': medicationSupply,
  '0047-symptoms': symptoms,
  '0048-notification-channels': notificationChannels,
  '0050-missed-dose-alerts': missedDoseAlerts,
  '0051-account-language': accountLanguage,
  '0052-mail-language': mailLanguage,
  '0053-account-lock-waiting': accountLockWaiting,
};

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  await completeSchema(db, Object.keys(migrations));
  return (results ?? [])
    .filter((result) => result.status === 'Success')
    .map((r) => r.migrationName);
}

/**
 * What follows the migrations a database has had: the search index's triggers, made from the
 * record definitions once its tables exist (search/search-index-sync.ts). A database made by
 * the migrations alone (a restore's check, a test's) is completed by it as the server's is.
 */
export async function completeSchema(db: Kysely<any>, applied: readonly string[]): Promise<void> {
  if (applied.includes('0031-search-index')) await syncSearchIndex(db);
}

/** The migrations a database has had, and those of this release it has not had yet. */
export async function migrationStatus(
  db: Kysely<any>,
): Promise<{ applied: string[]; pending: string[] }> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const known = await migrator.getMigrations();
  return {
    applied: known.filter((m) => m.executedAt).map((m) => m.name),
    pending: known.filter((m) => !m.executedAt).map((m) => m.name),
  };
}
