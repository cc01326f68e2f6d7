/**
 * Every route of the API behind a session, one chain, so that their types (paths, inputs,
 * answers) reach the web client through Hono's RPC types (`hc<ProductRoutes>`) instead of
 * being described a second time. The record types' routes are made from their definitions,
 * which type their client themselves (see docs/decisions); they and the documents' routes
 * come last, in the order they have always been matched in.
 */
import { Hono } from 'hono';
import { profileRoutes } from './account/profile-routes';
import { accountSecurityRoutes } from './account/account-security-routes';
import { passkeyRoutes } from './account/passkey-routes';
import type { AccountRepository } from './account/account-repository';
import type { RequireFreshProof } from './account/fresh-proof';
import type { Auth } from './auth/auth';
import type { DB } from './db/schema';
import {
  connectionRoutes,
  type ConnectionRouteDependencies,
} from './connections/connection-routes';
import { calendarLinkRoutes } from './calendar/calendar-routes';
import { dataTransferRoutes } from './data-transfer/data-transfer-routes';
import { importRoutes } from './imports/import-routes';
import type { FamilyMemberRepository } from './family-members/family-member-repository';
import { familyMemberRoutes } from './family-members/family-member-routes';
import { fhirRoutes } from './fhir/fhir-routes';
import type { HouseholdRepository } from './household/household-repository';
import { householdRoutes } from './household/household-routes';
import { createDoseRepository } from './doses/dose-repository';
import { doseRoutes } from './doses/dose-routes';
import type { AppEnv } from './http/env';
import { labResultRoutes } from './labs/lab-routes';
import { labResultDefinition, recordDefinitions } from '../shared/records';
import { recordCatalogue } from '../shared/records/catalogue';
import { createRecordRepository, type RecordRepository } from './records/record-repository';
import { recordRoutes } from './records/record-routes';
import type { RecordDefinition } from '../shared/records/definition';
import { importedFrom } from './imports/import-history';
import { createReminderRepository } from './reminders/reminder-repository';
import { reminderRoutes, type ReminderRouteConfig } from './reminders/reminder-routes';
import {
  notificationChannelRoutes,
  type NotificationRouteDependencies,
} from './notifications/notification-routes';
import type { Logger } from './logger';
import type { AttemptLimits } from './limits/attempt-limits';
import { summaryRoutes } from './summary/summary-routes';
import { emergencyCardRoutes } from './emergency-card/emergency-card-routes';
import { vitalsTrendRoutes } from './vitals/vitals-routes';
import { vaccineScheduleRoutes, vaccineDosesDueRoutes } from './vaccines/vaccine-schedule-routes';
import type { TimelineRepository } from './timeline/timeline-repository';
import { timelineRoutes } from './timeline/timeline-routes';
import { shareLinkRoutes, type ShareLinkRouteDependencies } from './share-links/share-link-routes';
import type { Kysely } from 'kysely';
import type { SearchRepository } from './search/search-repository';
import { searchRoutes } from './search/search-routes';
import { documentTextRoutes } from './search/document-text-routes';
import type { DocumentRepository } from './documents/document-repository';
import type { DocumentIntake } from './documents/document-intake';
import type { DocumentRecords } from './documents/document-records';
import { documentChoiceRoutes, documentRoutes } from './documents/document-routes';

export interface ProductRouteDependencies {
  db: Kysely<DB>;
  auth: Auth;
  logger: Logger;
  accounts: AccountRepository;
  members: FamilyMemberRepository;
  timeline: TimelineRepository;
  search: SearchRepository;
  household: HouseholdRepository;
  /** Documents' rows and files: a member's or an account's go with them. */
  documents: DocumentRepository;
  /** How a file becomes a document: a FHIR import's documents are taken in as uploads are. */
  documentIntake: DocumentIntake;
  /** The records documents are attached to: a record's go when it goes or moves. */
  attachments: DocumentRecords;
  requireFreshProof: RequireFreshProof;
  /** The server's public address (BASE_URL), for links made to be opened elsewhere. */
  publicUrl: string | null;
  shareLinks: ShareLinkRouteDependencies;
  /** The VAPID public key devices subscribe to reminders with, and where reminders may go. */
  reminders: ReminderRouteConfig;
  /** The account's ntfy topic and webhook: where they may be, and how links in them are made. */
  notifications: NotificationRouteDependencies;
  /** How many imports an account may make (data-transfer-routes.ts IMPORT_LIMIT). */
  importLimits: AttemptLimits;
  /** Patient portals: the providers allowed, their tokens' store, the syncs. */
  connections: ConnectionRouteDependencies;
}

/**
 * Every record type's list, read, create, change and delete, at its definition's path. Lab
 * results are served by the same repository as their panel and trend routes.
 */
function recordTypeRoutes(
  { db, members, household, attachments }: ProductRouteDependencies,
  labResults: RecordRepository<typeof labResultDefinition>,
) {
  const routes = new Hono<AppEnv>();
  const mount = <D extends RecordDefinition>(definition: D, repository: RecordRepository<D>) =>
    routes.route(
      `/${definition.path}`,
      recordRoutes(repository, household, {
        // Its documents stay with the person, attached to it no more.
        onDeleted: (record) => attachments.detachRecord(record.user_id, definition.path, record.id),
        // Moved to another person: the documents of the one it left stay theirs, detached.
        onUpdated: (record) =>
          attachments.detachOthersOf(
            record.user_id,
            definition.path,
            record.id,
            record.family_member_id ?? null,
          ),
        detailOf: async (record) => ({
          imported_from: await importedFrom(db, record.user_id, definition.type, record.id),
        }),
      }),
    );
  for (const definition of recordDefinitions) {
    if (definition === labResultDefinition) mount(labResultDefinition, labResults);
    else mount(definition, createRecordRepository(db, definition, members));
  }
  return routes;
}

export function productRoutes(deps: ProductRouteDependencies) {
  const {
    db,
    auth,
    logger,
    accounts,
    members,
    timeline,
    search,
    household,
    documents,
    documentIntake,
    attachments,
    requireFreshProof,
    publicUrl,
    shareLinks,
    reminders,
    notifications,
    importLimits,
    connections,
  } = deps;
  const labResults = createRecordRepository(db, labResultDefinition, members);
  return new Hono<AppEnv>()
    .route('/', profileRoutes({ accounts, auth, requireFreshProof, logger, documents }))
    .route('/', dataTransferRoutes(db, importLimits, logger, documentIntake))
    .route('/', importRoutes(db, logger, documentIntake))
    .route('/connections', connectionRoutes(connections))
    .route('/', calendarLinkRoutes(db, logger, publicUrl))
    .route('/', accountSecurityRoutes(db, auth, accounts))
    .route('/', passkeyRoutes({ db, auth, requireFreshProof, logger }))
    .route('/family-members', familyMemberRoutes(members, documents))
    .route('/fhir', fhirRoutes(db, household, documents))
    .route('/household', householdRoutes(household))
    .route(`/${recordCatalogue.lab_result.path}`, labResultRoutes(db, labResults, household))
    .route('/doses', doseRoutes(createDoseRepository(db), household))
    .route('/persons', summaryRoutes(db, household))
    .route('/persons', vaccineScheduleRoutes(db, household))
    .route('/persons', vitalsTrendRoutes(db, household))
    .route('/persons', emergencyCardRoutes(db, household))
    .route('/reminders', reminderRoutes(db, logger, createReminderRepository(db), reminders))
    .route('/notification-channels', notificationChannelRoutes(db, logger, notifications))
    .route('/timeline', vaccineDosesDueRoutes(db, household))
    .route('/timeline', timelineRoutes(timeline, household))
    .route('/search', searchRoutes(search, household))
    .route('/documents', documentTextRoutes(db, household))
    .route('/share-links', shareLinkRoutes(shareLinks))
    .route('/', recordTypeRoutes(deps, labResults))
    .route('/', documentChoiceRoutes({ ...documentIntake, household, attachments }))
    .route('/documents', documentRoutes({ ...documentIntake, members, household, attachments }));
}

export type ProductRoutes = ReturnType<typeof productRoutes>;
