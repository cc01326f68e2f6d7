/**
 * What else happens when a document is stored or deleted: the one place where other parts
 * of the product (reading a document's text for search) learn of it. Nothing yet.
 */
import type { Database } from '../db/database';

export interface DocumentEvent {
  documentId: string;
  userId: string;
}

export async function onDocumentStored(_db: Database, _event: DocumentEvent): Promise<void> {}

export async function onDocumentDeleted(_db: Database, _event: DocumentEvent): Promise<void> {}
