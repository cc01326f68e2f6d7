/**
 * /api/doses: today's checklist, marking a dose taken or skipped, 'Undo', and a
 * medication's adherence.
 *
 *   GET    /api/doses?today=YYYY-MM-DD                    the day's due doses and their marks
 *   POST   /api/doses                                      { medication_id, day, slot, status }
 *   DELETE /api/doses/{id}                                 undo a mark
 *   GET    /api/doses/adherence/{medicationId}?today=…     the last 30 days, when it runs out
 *   POST   /api/doses/refill/{medicationId}                'Refilled': { pack_size }
 */
import { Hono } from 'hono';
import { dosesQuerySchema, doseMarkSchema, refillSchema } from '../../shared/dose-requests';
import { sharesInScope, type Access } from '../access/scope';
import type { HouseholdRepository } from '../household/household-repository';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import type { DoseRepository } from './dose-repository';
import { key } from '../../shared/i18n/translate';

export const MEDICATION_NOT_FOUND = key('Medication not found');
export const DOSE_NOT_FOUND = key('Dose not found');

export function doseRoutes(doses: DoseRepository, household: Pick<HouseholdRepository, 'noteUse'>) {
  /** Notes, in the owner's security activity, a use of a shared person's medication. */
  const noteMedication = async (access: Access, medicationId: string, kind: 'read' | 'write') => {
    const share = await doses.shareOfMedication(access, medicationId);
    if (share) await household.noteUse(access, [share], kind);
  };

  return new Hono<AppEnv>()
    .get('/', validate('query', dosesQuerySchema), async (c) => {
      const access = await c.var.access();
      const today = await doses.today(access, c.req.valid('query').today);
      const shared = sharesInScope(access, { memberLinked: true });
      if (shared.length) await household.noteUse(access, shared, 'read');
      return c.json(today);
    })
    .post('/', validate('json', doseMarkSchema), async (c) => {
      const access = await c.var.access();
      const input = c.req.valid('json');
      const mark = await doses.mark(access, input);
      if (!mark) throw notFound(MEDICATION_NOT_FOUND);
      await noteMedication(access, input.medication_id, 'write');
      return c.json(mark, 201);
    })
    .delete('/:id', async (c) => {
      const access = await c.var.access();
      const medicationId = await doses.undo(access, c.req.param('id'));
      if (!medicationId) throw notFound(DOSE_NOT_FOUND);
      await noteMedication(access, medicationId, 'write');
      return c.body(null, 204);
    })
    .get('/adherence/:medicationId', validate('query', dosesQuerySchema), async (c) => {
      const access = await c.var.access();
      const medicationId = c.req.param('medicationId');
      const adherence = await doses.adherence(access, medicationId, c.req.valid('query').today);
      if (!adherence) throw notFound(MEDICATION_NOT_FOUND);
      await noteMedication(access, medicationId, 'read');
      return c.json(adherence);
    })
    .post('/refill/:medicationId', validate('json', refillSchema), async (c) => {
      const access = await c.var.access();
      const medicationId = c.req.param('medicationId');
      const refilled = await doses.refill(access, medicationId, c.req.valid('json'));
      if (!refilled) throw notFound(MEDICATION_NOT_FOUND);
      await noteMedication(access, medicationId, 'write');
      const { quantity_on_hand, refills_left, pack_size } = refilled;
      return c.json({ quantity_on_hand, refills_left, pack_size });
    });
}
