/**
 * Export files for the import's tests and benches, as 'Download my data' writes them: the
 * account holder's visits, and an archive whose document rows all name one file (what an
 * import must prepare once, decision 0049).
 */
import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { ARCHIVE_JSON_NAME, archiveFileName } from '../../shared/data-export';
import { zipArchive } from '../data-transfer/export-archive';
import { sampleRecord } from './factories';

const AT = '2026-03-04T09:30:00.000Z';

/** An export file of `visits` visits of the account holder ('visit-0'…), and `documents`. */
export function exportFileOf(visits: number, documents: object[] = []) {
  return {
    format: 'kin-health-export',
    version: 2,
    exported_at: AT,
    profile: { full_name: 'Ann', email: 'ann@example.com' },
    family_members: [],
    records: {
      visits: Array.from({ length: visits }, (_, index) => ({
        ...sampleRecord('visit', { visit_name: `Checkup ${index + 1}` }),
        id: `visit-${index}`,
        family_member_id: null,
        created_at: AT,
        updated_at: AT,
      })),
    },
    dose_log: [],
    documents,
  };
}

/**
 * An archive of `visits` visits of the account holder and `rows` document rows naming the
 * one file (a PDF or a PNG), row i attached to visit i (modulo `visits`).
 */
export async function repeatingArchive(file: Buffer, rows: number, visits = rows) {
  const sha256 = createHash('sha256').update(file).digest('hex');
  const mime = file.subarray(0, 4).toString('latin1') === '%PDF' ? 'application/pdf' : 'image/png';
  const documents = Array.from({ length: rows }, (_, index) => {
    const record = { record_type: 'visits', record_id: `visit-${index % visits}` };
    return {
      id: `document-${index}`,
      family_member_id: null,
      title: `Discharge letter ${index + 1}`,
      document_type: 'Letter',
      document_date: '2026-03-04',
      file_name: 'discharge.pdf',
      mime_type: mime,
      size_bytes: file.byteLength,
      sha256,
      ...record,
      records: [record],
      created_at: AT,
      updated_at: AT,
    };
  });
  const archive = zipArchive();
  archive.append(JSON.stringify(exportFileOf(visits, documents)), { name: ARCHIVE_JSON_NAME });
  archive.append(file, { name: archiveFileName({ sha256, mime_type: mime }) });
  const done = buffer(archive);
  await archive.finalize();
  return done;
}
