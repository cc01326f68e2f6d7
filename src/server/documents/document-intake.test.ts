/**
 * A PDF whose thumbnail the documents process could not make (its process ended, or the PDF
 * held it past its time, or pdf.js could not draw it: a PDF locked by a password) is still
 * kept, and the server's log says so with why: a document kept without its thumbnail or
 * display copy is never silent.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MEMORY_PLAN } from '../config/memory';
import { heavyJobs } from '../runtime/heavy-jobs';
import { createTestDatabase, insertTestUser } from '../test/harness';
import { documentDeriveThread } from './document-derive-thread';
import { documentStoreOf } from './document-files';
import { takeDocument, type DocumentIntake } from './document-intake';
import { createDocumentRecords } from './document-records';
import { createDocumentRepository } from './document-repository';
import { pdfBytes, samplePdf } from './fixtures/sample-files';

type Warning = { fields: Record<string, unknown>; message: string };

/** Stores `bytes` as Ann's PDF through an intake whose log is `warnings`. */
async function storePdf(
  derive: DocumentIntake['derive'],
  bytes: Buffer,
  test: (stored: unknown, warnings: Warning[]) => void,
) {
  const { database, drop } = await createTestDatabase();
  try {
    await insertTestUser(database, { id: 'u1', name: 'Ann', email: 'ann@example.com' });
    const store = documentStoreOf(database);
    const warnings: Warning[] = [];
    const intake: DocumentIntake = {
      database,
      store,
      documents: createDocumentRepository(database.db, store, createDocumentRecords(database.db)),
      heavy: heavyJobs(1),
      derive,
      quotaBytes: 2048 * 1024 * 1024,
      logger: {
        warn: (fields: Record<string, unknown>, message: string) =>
          warnings.push({ fields, message }),
      } as DocumentIntake['logger'] & object,
    };
    const stored = await takeDocument(intake, [bytes], {
      owner: 'u1',
      member: null,
      title: 'Letter',
      document_type: 'Letter',
      document_date: null,
      file_name: 'letter.pdf',
      records: [],
    });
    test(stored, warnings);
  } finally {
    await drop();
  }
}

describe('a document whose thumbnail could not be made', () => {
  it('is kept without one, and the log says why', async () => {
    const derive = documentDeriveThread(DEFAULT_MEMORY_PLAN);
    try {
      await storePdf(
        { ...derive, derive: () => Promise.reject(new Error('The documents process stopped')) },
        await samplePdf(1),
        (stored, warnings) => {
          expect(stored).toMatchObject({ mime_type: 'application/pdf', thumbnail_sha256: null });
          expect(warnings).toEqual([
            {
              fields: {
                owner: 'u1',
                mimeType: 'application/pdf',
                error: 'The documents process stopped',
              },
              message: 'document kept without its thumbnail or display copy',
            },
          ]);
        },
      );
    } finally {
      await derive.close();
    }
  });

  it('is kept without one when pdf.js cannot draw it (a password), and the log says why', async () => {
    const derive = documentDeriveThread(DEFAULT_MEMORY_PLAN);
    try {
      const locked = await pdfBytes((doc) => doc.text('Results'), { userPassword: 'secret' });
      await storePdf(derive, locked, (stored, warnings) => {
        expect(stored).toMatchObject({ mime_type: 'application/pdf', thumbnail_sha256: null });
        expect(warnings).toEqual([
          {
            fields: {
              owner: 'u1',
              mimeType: 'application/pdf',
              error: expect.stringMatching(/password/i) as unknown,
            },
            message: 'document kept without its thumbnail or display copy',
          },
        ]);
      });
    } finally {
      await derive.close();
    }
  });
});
