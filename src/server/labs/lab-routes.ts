/**
 * What lab results have beyond the one record mechanism (docs/decisions/0031-lab-results.md):
 * a panel saved in one go, all results or none (POST /api/labs/panel), and a result's trend,
 * every result of the same test for the same person, newest first (GET /api/labs/{id}/trend).
 * Reads and writes go through the same repository and access scope as every record.
 */
import { sql, type Kysely } from 'kysely';
import { Hono } from 'hono';
import { labPanelSchema } from '../../shared/labs/lab-panel';
import type { labResultDefinition } from '../../shared/records';
import type { StoredRecord } from '../../shared/records/definition';
import {
  rowsInScope,
  scopeOf,
  scopeShape,
  scopeValues,
  shareOfRow,
  type Access,
} from '../access/scope';
import { prepareQuery, preparedShapes } from '../db/prepared-query';
import type { DB } from '../db/schema';
import type { HouseholdRepository } from '../household/household-repository';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import type { RecordRepository } from '../records/record-repository';

type LabResult = StoredRecord<typeof labResultDefinition>;

/** The most points a trend answers (ten years of a daily test, and then some). */
export const MAX_TREND_POINTS = 5000;

export interface LabTrendPoint {
  id: string;
  collected_date: string;
  result: string;
  unit: string | null;
  range_low: string | null;
  range_high: string | null;
}

export interface LabTrend {
  test_name: string;
  loinc_code: string | null;
  /** Every result of the test for the person, newest first. */
  points: LabTrendPoint[];
}

/** The person a record is about, as a scope names them. */
function personOf(access: Access, record: LabResult): string {
  if (record.user_id === access.userId) return record.family_member_id ?? access.userId;
  return shareOfRow(access, record)?.personId ?? record.family_member_id ?? record.user_id;
}

interface TrendValues extends Record<string, unknown> {
  code: string | null;
  name: string;
}

/**
 * The trend's query, prepared once per database and shape (the scope's, and whether the
 * result has a LOINC code). Built anew on every request, building and compiling it took
 * Kysely about 8% of the read's CPU (docs/performance.md, the reads' profiles).
 */
const trendQueries = new WeakMap<
  Kysely<DB>,
  ReturnType<typeof preparedShapes<TrendValues, LabTrendPoint>>
>();

/**
 * A result's trend: every result of the same test (its LOINC code, or its name where a
 * result has no code) for the same person, within what `access` may read, newest first.
 */
export async function labTrendOf(
  db: Kysely<DB>,
  access: Access,
  record: LabResult,
): Promise<LabTrend> {
  const scope = scopeOf(access, { memberLinked: true, personId: personOf(access, record) });
  const code = record.loinc_code;
  let shapes = trendQueries.get(db);
  if (!shapes) {
    shapes = preparedShapes<TrendValues, LabTrendPoint>();
    trendQueries.set(db, shapes);
  }
  const byCode = Boolean(code);
  const query = shapes(`${scopeShape(scope)}|${byCode ? 'code' : 'name'}`, () =>
    prepareQuery(db, (v: TrendValues) =>
      rowsInScope(db, 'lab_results', scope, v, 'r')
        .select(['r.id', 'r.collected_date', 'r.result', 'r.unit', 'r.range_low', 'r.range_high'])
        .where((eb) =>
          byCode
            ? eb.or([
                eb('r.loinc_code', '=', v.code),
                eb.and([eb('r.loinc_code', 'is', null), eb(sql`lower(r.test_name)`, '=', v.name)]),
              ])
            : eb(sql`lower(r.test_name)`, '=', v.name),
        )
        .orderBy('r.collected_date', 'desc')
        .orderBy('r.id', 'desc')
        .limit(MAX_TREND_POINTS)
        // The columns are typed unknown through the scope helper; the table says what they hold.
        .$castTo<LabTrendPoint>(),
    ),
  );
  const points = await query({
    ...scopeValues(scope),
    code,
    name: record.test_name.toLowerCase(),
  });
  return { test_name: record.test_name, loinc_code: code, points };
}

export function labResultRoutes(
  db: Kysely<DB>,
  repository: RecordRepository<typeof labResultDefinition>,
  household: Pick<HouseholdRepository, 'noteUse'>,
) {
  const missing = () => notFound(repository.definition.messages.notFound);
  const noteShared = async (access: Access, record: LabResult, kind: 'read' | 'write') => {
    const share = record.user_id === access.userId ? undefined : shareOfRow(access, record);
    if (share) await household.noteUse(access, [share], kind);
  };

  return new Hono<AppEnv>()
    .post('/panel', validate('json', labPanelSchema), async (c) => {
      const rows = c.req.valid('json');
      const access = await c.var.access();
      const created = await repository.createAll(access, rows);
      if (created[0]) await noteShared(access, created[0], 'write');
      return c.json({ items: created }, 201);
    })
    .get('/:id/trend', async (c) => {
      const access = await c.var.access();
      const record = await repository.get(access, c.req.param('id'));
      if (!record) throw missing();
      const trend = await labTrendOf(db, access, record);
      await noteShared(access, record, 'read');
      return c.json(trend);
    });
}
