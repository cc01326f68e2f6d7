/**
 * Property-based tests over every record route: random and hostile bodies, ids and query
 * strings, as the owner and as another user. Whatever arrives, the server never answers
 * 500 or leaks a stack, and a refused request leaves the database exactly as it was.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDefinitions } from '../../shared/records';
import type { RecordDefinition } from '../../shared/records/definition';
import { sampleRecord } from '../test/factories';
import {
  createTestServer,
  signedUpClient,
  type TestClient,
  type TestServer,
} from '../test/harness';

let server: TestServer;
let owner: TestClient;
let other: TestClient;
const ownerIds: Record<string, string> = {};
let ownerMemberId = '';
let otherMemberId = '';

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const TABLES = [
  'family_members',
  'visits',
  'medications',
  'shots',
  'notes',
  'conditions',
  'insurance',
  'contacts',
];

/** Every row of every product table, in a stable order: the database's whole state. */
async function snapshot(): Promise<string> {
  const parts: unknown[] = [];
  for (const table of TABLES) {
    const rows = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table)} order by id`.execute(server.db);
    parts.push(rows.rows);
  }
  return JSON.stringify(parts);
}

beforeAll(async () => {
  server = await createTestServer();
  owner = (await signedUpClient(server, 'Owner')).client;
  other = (await signedUpClient(server, 'Other')).client;
  ownerMemberId = (await owner.post<{ id: string }>('/api/family-members', { name: 'Kid' })).body
    .id;
  otherMemberId = (await other.post<{ id: string }>('/api/family-members', { name: 'Other kid' }))
    .body.id;
  for (const definition of recordDefinitions) {
    const created = await owner.post<{ id: string }>(
      `/api/${definition.path}`,
      sampleRecord(definition.type),
    );
    ownerIds[definition.type] = created.body.id;
  }
});
afterAll(() => server.close());

const hostileText = fc.constantFrom(
  "' OR '1'='1",
  "'; drop table visits; --",
  '<script>alert(1)</script>',
  '\u0000',
  '\ud800',
  '../../etc/passwd',
  '%00',
  '{{7*7}}',
  '${process.exit()}',
  'x'.repeat(10_001),
  '2026-02-30',
  '9999-99-99T99:99:99Z',
  '0000-00-00',
  'NaN',
  '__proto__',
  'constructor',
);

function fieldValue() {
  return fc.oneof(
    fc.string(),
    hostileText,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
    fc.constantFrom(ownerMemberId, otherMemberId),
  );
}

function bodies(definition: RecordDefinition) {
  const fieldNames = [
    ...Object.keys(definition.fields),
    'id',
    'user_id',
    'created_at',
    '__proto__',
  ];
  return fc.oneof(
    fc.anything(),
    fc.dictionary(fc.constantFrom(...fieldNames), fieldValue(), { maxKeys: 8 }),
    // Mostly valid input with one field made hostile.
    fc.tuple(fc.constantFrom(...fieldNames), fieldValue()).map(([name, value]) => ({
      ...sampleRecord(definition.type),
      [name]: value,
    })),
  );
}

const ids = (type: string) =>
  fc.oneof(
    fc.uuid(),
    fc.string(),
    hostileText,
    fc.constant(ownerIds[type] ?? ''),
    fc.constant(ownerMemberId),
  );

const queries = fc.dictionary(
  fc.oneof(fc.constantFrom('view', 'member', 'today', 'limit', 'offset', 'cursor'), fc.string()),
  fc.oneof(
    fc.string(),
    hostileText,
    fc.integer().map(String),
    fc.constantFrom(ownerMemberId, 'upcoming', 'past', 'current'),
  ),
  { maxKeys: 4 },
);

/** Percent-encodes a path segment; a lone surrogate becomes the invalid UTF-8 bytes it would be. */
function segment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

function encode(body: unknown): string {
  try {
    return JSON.stringify(body) ?? 'undefined';
  } catch {
    return String(body);
  }
}

describe.each(
  recordDefinitions.map((definition) => [definition.type, definition as RecordDefinition] as const),
)('%s routes under hostile input', (type, definition) => {
  const base = `/api/${definition.path}`;

  it('never fail, and a refusal changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'PUT'),
        ids(type),
        bodies(definition),
        fc.boolean(),
        async (method, id, body, raw) => {
          const before = await snapshot();
          const path = method === 'POST' ? base : `${base}/${segment(id)}`;
          const response = await owner.request(method, path, raw ? encode(body) : (body ?? null));
          expect(response.status).toBeLessThan(500);
          expect(JSON.stringify(response.body)).not.toMatch(/at .*\.(ts|js):\d+/);
          if (response.status >= 400) {
            expect(await snapshot()).toBe(before);
          } else if (method === 'POST') {
            // Accepted input was valid input: clean it up for the next run.
            const created = response.body as { id: string; user_id: string };
            expect(response.status).toBe(201);
            expect((await owner.delete(`${base}/${created.id}`)).status).toBe(204);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('answer any query string without failing or changing anything', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(queries, async (query) => {
        const response = await owner.get(`${base}?${new URLSearchParams(query)}`);
        expect([200, 400]).toContain(response.status);
      }),
      { numRuns: RUNS },
    );
    expect(await snapshot()).toBe(before);
  });

  it('never let another user read, change or delete the owner’s record', async () => {
    const ownerId = ownerIds[type] ?? '';
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'PUT', 'DELETE'),
        bodies(definition),
        async (method, body) => {
          const response = await other.request(
            method,
            `${base}/${ownerId}`,
            method === 'PUT' ? (body ?? null) : undefined,
          );
          expect(response.status === 404 || response.status === 400).toBe(true);
          expect(JSON.stringify(response.body)).not.toContain(ownerId);
        },
      ),
      { numRuns: RUNS },
    );
    expect(await snapshot()).toBe(before);
  });
});

describe('the timeline under hostile input', () => {
  it('answers any query string with 200 or 400', async () => {
    await fc.assert(
      fc.asyncProperty(queries, async (query) => {
        const response = await owner.get(`/api/timeline?${new URLSearchParams(query)}`);
        expect([200, 400]).toContain(response.status);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('family member routes under hostile input', () => {
  it('never fail, and a refusal changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'PUT', 'DELETE', 'GET'),
        fc.oneof(
          fc.uuid(),
          fc.string(),
          hostileText,
          fc.constant(otherMemberId),
          fc.constant(ownerMemberId),
        ),
        fc.oneof(
          fc.anything(),
          fc.dictionary(
            fc.constantFrom('name', 'date_of_birth', 'color', 'user_id', 'id'),
            fieldValue(),
            { maxKeys: 4 },
          ),
        ),
        async (method, id, body) => {
          const before = await snapshot();
          const path =
            method === 'POST' ? '/api/family-members' : `/api/family-members/${segment(id)}`;
          const client = id === otherMemberId ? owner : other;
          const response = await client.request(
            method,
            path,
            method === 'GET' || method === 'DELETE' ? undefined : (body ?? null),
          );
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) expect(await snapshot()).toBe(before);
          if (method === 'POST' && response.status === 201) {
            await client.delete(`/api/family-members/${(response.body as { id: string }).id}`);
          }
          // Nobody deletes or changes a member that is not theirs.
          if (method !== 'POST' && method !== 'GET' && id === otherMemberId)
            expect(response.status).not.toBe(204);
        },
      ),
      { numRuns: RUNS },
    );
    expect((await owner.get<unknown[]>('/api/family-members')).body).toHaveLength(1);
  });
});
