/**
 * GET /api/export (the user's data as one JSON file) and POST /api/import (that file, into
 * an empty account).
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Kysely } from 'kysely';
import { dataExportSchema } from '../../shared/data-export';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/env';
import { validate } from '../http/validate';
import { exportUserData, importUserData } from './data-transfer';

/** An export of a heavy user runs to megabytes; an import must take it back. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

export function dataTransferRoutes(db: Kysely<DB>) {
  return new Hono<AppEnv>()
    .get('/export', async (c) => {
      const data = await exportUserData(db, c.var.user.id);
      const day = data.exported_at.slice(0, 10);
      c.header('Content-Disposition', `attachment; filename="kin-health-export-${day}.json"`);
      return c.json(data);
    })
    .post(
      '/import',
      bodyLimit({
        maxSize: MAX_IMPORT_BYTES,
        onError: (c) => c.json({ message: 'The file is too large to import (at most 64 MB)' }, 413),
      }),
      validate('json', dataExportSchema),
      async (c) => c.json(await importUserData(db, c.var.user.id, c.req.valid('json')), 201),
    );
}
