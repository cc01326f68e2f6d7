/**
 * What else happens when a document is stored or deleted: the one place where other parts
 * of the product learn of it. Its text is read for search (text/document-text.ts); a
 * deleted document's search entry goes with its row (a trigger), its text here.
 */
import type { Database } from '../db/database';
import { forgetDocumentText, queueDocumentText } from './text/document-text';

export interface DocumentEvent {
  documentId: string;
  userId: string;
}

export async function onDocumentStored(db: Database, event: DocumentEvent): Promise<void> {
  await queueDocumentText(db.db, event);
}

export async function onDocumentDeleted(db: Database, event: DocumentEvent): Promise<void> {
  await forgetDocumentText(db.db, event);
}
