/**
 * Documents: the list, an upload with how far it has gone, a document's pages, text and records.
 */
import { ApiError } from '../../../shared/api-error';
import type { StoredDocument } from '../../../shared/documents';
import type { DocumentEdit, DocumentRecord } from '../../../shared/document-upload';
import { NETWORK_ERROR, answer, queryString, refusal } from '../../lib/api-request';
import { product } from '../../lib/api';
import { requestLanguageTag } from '../../lib/i18n';
import { key } from '../../../shared/i18n/translate';

const UPLOAD_FAILED = key('Upload failed');

export interface DocumentListQuery {
  member?: string;
  document_type?: string;
  record_type?: string;
  record_id?: string;
  offset?: number;
  /** How many, at most 100 (50 by default). */
  limit?: number;
}

/** What an upload says of its file (the body is the file itself). */
export interface DocumentUploadFields {
  title: string;
  document_type: string;
  document_date?: string;
  family_member_id?: string;
  file_name?: string;
  record_type?: string;
  record_id?: string;
}

const documents = product.documents;
/** A document's id as the path carries it (the typed client puts a parameter in as it is). */
const documentParam = (id: string) => ({ param: { id: encodeURIComponent(id) } });

export const documentsApi = {
  list: (query: DocumentListQuery) =>
    answer(
      documents.$get({
        // What is not asked for is left out of the query string (an empty value too).
        query: Object.fromEntries(
          Object.entries(query)
            .filter(([, value]) => value !== undefined && value !== '')
            .map(([name, value]) => [name, String(value)]),
        ),
      }),
    ),
  get: (id: string) => answer(documents[':id'].$get(documentParam(id))),
  remove: (id: string) => answer(documents[':id'].$delete(documentParam(id))),
  /** Its title, type, date, person and the records it is attached to. */
  update: (id: string, edit: DocumentEdit) =>
    answer(documents[':id'].$put({ ...documentParam(id), json: edit })),
  /** Attaches it to one more record of its person's. */
  attach: (id: string, record: DocumentRecord) =>
    answer(documents[':id'].records.$post({ ...documentParam(id), json: record })),
  /** The records a document of this person may be attached to. */
  attachableRecords: (personId: string) =>
    answer(
      product.persons[':personId']['attachable-records'].$get({
        param: { personId: encodeURIComponent(personId) },
      }),
    ),
  /** The document's text, read from its text layer or by OCR, once it is read. */
  text: (id: string) => answer(documents[':id'].text.$get(documentParam(id))),
  usage: () => answer(product['document-usage'].$get()),
  /**
   * Sends a file as it is (no form encoding), telling how much of it has gone as it goes:
   * XMLHttpRequest, as fetch reports no upload progress, and so neither does the typed
   * client (it calls fetch): the one call made by hand.
   */
  upload: (
    file: Blob,
    fields: DocumentUploadFields,
    onProgress: (sent: number, total: number) => void,
  ): Promise<StoredDocument> =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `/api/documents${queryString({ ...fields })}`);
      xhr.setRequestHeader('Accept-Language', requestLanguageTag());
      xhr.upload.onprogress = (event) => onProgress(event.loaded, event.total || file.size);
      xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR));
      xhr.onload = () => {
        let body: unknown = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          // Not JSON: a proxy's page, say.
        }
        if (xhr.status === 201) {
          resolve(body as StoredDocument);
          return;
        }
        reject(refusal(xhr.status, xhr.statusText, body, '/api/documents', UPLOAD_FAILED));
      };
      xhr.send(file);
    }),
};
