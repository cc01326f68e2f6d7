/**
 * /api/doses: today's checklist, marking a dose taken or skipped, 'Undo', and a
 * medication's adherence.
 *
 *   GET    /api/doses?today=YYYY-MM-DD                    the day's due doses and their marks
 *   POST   /api/doses                                      { medication_id, day, slot, status }
 *   DELETE /api/doses/{id}                                 undo a mark
 *   GET    /api/doses/adherence/{medicationId}?today=…     the last 30 days
 */
import { Hono } from 'hono';
import { dosesQuerySchema, doseMarkSchema } from '../../shared/doses';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import type { DoseRepository } from './dose-repository';

export const MEDICATION_NOT_FOUND = 'Medication not found';
export const DOSE_NOT_FOUND = 'Dose not found';

export function doseRoutes(doses: DoseRepository) {
  return new Hono<AppEnv>()
    .get('/', validate('query', dosesQuerySchema), async (c) =>
      c.json(await doses.today(await c.var.access(), c.req.valid('query').today)),
    )
    .post('/', validate('json', doseMarkSchema), async (c) => {
      const mark = await doses.mark(await c.var.access(), c.req.valid('json'));
      if (!mark) throw notFound(MEDICATION_NOT_FOUND);
      return c.json(mark, 201);
    })
    .delete('/:id', async (c) => {
      if (!(await doses.undo(await c.var.access(), c.req.param('id')))) {
        throw notFound(DOSE_NOT_FOUND);
      }
      return c.body(null, 204);
    })
    .get('/adherence/:medicationId', validate('query', dosesQuerySchema), async (c) => {
      const adherence = await doses.adherence(
        await c.var.access(),
        c.req.param('medicationId'),
        c.req.valid('query').today,
      );
      if (!adherence) throw notFound(MEDICATION_NOT_FOUND);
      return c.json(adherence);
    });
}
