/**
 * The benchmark's data: 1,000 users, one of them heavy (5 family members, 20,000 records
 * over every type) and one new (three months of records: a full first page in each list). The heavy and the new user sign up
 * through the product's real sign-up, so their password and passcode hashes and sessions
 * are real; everything else goes straight into the tables in one transaction, with the
 * heavy user's hashes reused for the other 998 accounts (hashing 998 passwords at the
 * hasher's cost would only make the run slower, not the data truer).
 */
import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { seedShape } from './config';
import { words } from './words';

export interface BenchAccount {
  id: string;
  email: string;
  password: string;
  name: string;
}

export interface SeededUser extends BenchAccount {
  memberIds: string[];
  /** Rows per record table. */
  counts: Record<string, number>;
  /** A past visit of this user, for the detail measurement. */
  visitId: string;
  /** One of the heavy user's lab results, whose trend is measured ('' when none). */
  labResultId: string;
}

export const BENCH_PASSWORD = 'bench-password-1';

/** Signs up through the product's own endpoint and returns the new user's id. */
export async function signUp(
  baseUrl: string,
  account: Omit<BenchAccount, 'id'>,
  passcode: string,
): Promise<BenchAccount> {
  const response = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ ...account, passcode }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { user: { id: string } };
  return { ...account, id: body.user.id };
}

/** Signs an account in through the product's own endpoint and returns its cookie header. */
export async function signInCookie(
  baseUrl: string,
  account: Pick<BenchAccount, 'email' | 'password'>,
  passcode: string,
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email: account.email, password: account.password, passcode }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

/** A small, seeded generator: the same data on every run, so runs compare. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (probability: number) => next() < probability,
  };
}
type Random = ReturnType<typeof generator>;

const DAY_MS = 24 * 60 * 60 * 1000;
const calendarDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
const momentAt = (offsetDays: number, random: Random) => {
  const day = new Date(Date.now() + offsetDays * DAY_MS);
  day.setUTCHours(random.int(7, 18), random.pick([0, 15, 30, 45]), 0, 0);
  return day.toISOString();
};

const sentence =
  'Bring previous results and the list of current medications. Ask about the dosage, ' +
  'side effects and the next appointment. ';
const prose = (random: Random) => sentence.repeat(random.int(1, 4)).trim();

type Row = Record<string, string | number | null>;

/** One row of each record type, for a user and, when linked, one of their members. */
const rowMakers: Record<string, (random: Random, span: { from: number; to: number }) => Row> = {
  visits: (random, span) => ({
    visit_name: random.pick(words.visits),
    doctor_name: random.pick(words.doctors),
    visit_date: momentAt(random.int(span.from, span.to), random),
    frequency: random.chance(0.5) ? 'Yearly' : null,
    office_name: random.pick(words.offices),
    notes: random.chance(0.4) ? prose(random) : null,
  }),
  medications: (random, span) => {
    const start = random.int(span.from, Math.min(span.to, 0));
    const ongoing = random.chance(0.15);
    return {
      medication_name: random.pick(words.medications),
      dosage: `${random.int(1, 50) * 10} mg`,
      frequency: random.pick(['Daily', 'Twice Daily', 'Weekly', 'As Needed']),
      time_morning: random.chance(0.6) ? 1 : 0,
      time_noon: random.chance(0.2) ? 1 : 0,
      time_evening: random.chance(0.3) ? 1 : 0,
      time_night: random.chance(0.3) ? 1 : 0,
      start_date: calendarDay(start),
      end_date: ongoing ? null : calendarDay(start + random.int(7, 400)),
      condition: random.chance(0.7) ? random.pick(words.conditions) : null,
      prescribed_doctor: random.pick(words.doctors),
      notes: random.chance(0.3) ? prose(random) : null,
    };
  },
  shots: (random, span) => ({
    shot_name: random.pick(words.shots),
    date_administered: random.chance(0.05) ? null : calendarDay(random.int(span.from, span.to)),
    location: random.pick(words.offices),
    notes: random.chance(0.2) ? prose(random) : null,
  }),
  notes: (random, span) => ({
    title: random.pick(words.notes),
    note_type: random.pick(['Provider Letter', 'Referral', 'Personal Note', 'Other']),
    note_date: random.chance(0.05)
      ? null
      : calendarDay(random.int(span.from, Math.min(span.to, 0))),
    content: prose(random),
  }),
  conditions: (random, span) => {
    const familyHistory = random.chance(0.2);
    return {
      condition_name: random.pick(words.conditions),
      diagnosis_date: random.chance(0.1)
        ? null
        : calendarDay(random.int(span.from * 3, Math.min(span.to, 0))),
      status: random.pick(['Active', 'Resolved', 'Chronic', 'Under Treatment']),
      is_family_history: familyHistory ? 1 : 0,
      relation: familyHistory ? random.pick(words.relations) : null,
      notes: random.chance(0.3) ? prose(random) : null,
    };
  },
  insurance: (random, span) => ({
    insurance_type: random.pick(['Medical', 'Dental', 'Vision', 'Long-term Disability', 'Other']),
    provider_name: random.pick(words.providers),
    policy_number: `P-${random.int(100000, 999999)}`,
    group_number: `G-${random.int(1000, 9999)}`,
    coverage_details: random.chance(0.5) ? prose(random) : null,
    deductible: `$${random.int(1, 50) * 100}`,
    copay: `$${random.int(1, 8) * 5}`,
    effective_date: calendarDay(random.int(span.from, Math.min(span.to, 0))),
    expiry_date: calendarDay(random.int(span.from, span.to)),
    status: random.chance(0.1) ? 'current' : 'past',
  }),
  // Ten tests of a lipid panel and a metabolic panel, each with its LOINC code, so that one
  // test's trend holds about 300 results, most of them in range.
  lab_results: (random, span) => {
    const [name, code, unit, low, high, typical] = random.pick(LAB_TESTS);
    const value = Math.round(typical * (0.7 + random.int(0, 60) / 100) * 10) / 10;
    return {
      test_name: name,
      loinc_code: code,
      result: String(value),
      unit,
      range_low: low === null ? null : String(low),
      range_high: String(high),
      collected_date: calendarDay(random.int(span.from, Math.min(span.to, 0))),
      lab: random.chance(0.5) ? 'Quest Diagnostics' : 'City Lab',
      ordered_by: random.pick(words.doctors),
      notes: random.chance(0.1) ? prose(random) : null,
    };
  },
  vitals: (random, span) => {
    const pressure = random.chance(0.5);
    return {
      measured_at: momentAt(random.int(span.from, Math.min(span.to, 0)), random),
      weight_kg: random.int(600, 900) / 10,
      height_cm: random.chance(0.2) ? random.int(1500, 1900) / 10 : null,
      systolic_mmhg: pressure ? random.int(105, 150) : null,
      diastolic_mmhg: pressure ? random.int(60, 95) : null,
      heart_rate_per_min: random.chance(0.5) ? random.int(55, 95) : null,
      notes: random.chance(0.1) ? prose(random) : null,
    };
  },
  contacts: (random) => ({
    contact_name: random.pick(words.contacts),
    contact_type: random.pick(['Doctor', 'Nurse', 'Pharmacy', 'Hospital', 'Specialist', 'Other']),
    specialty: random.chance(0.5) ? 'Family medicine' : null,
    phone_number: `+1 555 ${random.int(1000, 9999)}`,
    email: `office${random.int(1, 999)}@example.com`,
    address: `${random.int(1, 999)} Main St`,
    notes: random.chance(0.2) ? prose(random) : null,
  }),
};

const LAB_TESTS: [string, string, string, number | null, number, number][] = [
  ['Total cholesterol', '2093-3', 'mg/dL', null, 200, 190],
  ['LDL Cholesterol', '18262-6', 'mg/dL', null, 100, 110],
  ['HDL Cholesterol', '2085-9', 'mg/dL', 40, 100, 55],
  ['Triglycerides', '2571-8', 'mg/dL', null, 150, 130],
  ['Glucose', '2345-7', 'mg/dL', 70, 99, 92],
  ['Creatinine', '2160-0', 'mg/dL', 0.6, 1.3, 1],
  ['Sodium', '2951-2', 'mmol/L', 135, 145, 140],
  ['Potassium', '2823-3', 'mmol/L', 3.5, 5.1, 4.2],
  ['HbA1c', '4548-4', '%', 4, 5.6, 5.5],
  ['TSH', '3016-3', 'm[IU]/L', 0.4, 4, 2.1],
];

const memberLinked = (table: string) => table !== 'contacts';
const MEMBER_COLORS = ['#20c997', '#3b82f6', '#8b5cf6', '#ec4899', '#f59e0b', '#10b981'];
const authId = () => randomBytes(24).toString('base64url').slice(0, 32);

/** Fills a database the product has migrated and in which both accounts have signed up. */
export function seedDatabase(
  file: string,
  accounts: { heavy: BenchAccount; fresh: BenchAccount },
): { heavy: SeededUser; fresh: SeededUser; users: number } {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  const random = generator(20_000);
  const now = new Date().toISOString();

  const statements = new Map<string, SQLite.Statement>();
  const insert = (table: string, row: Row) => {
    const columns = Object.keys(row);
    const key = `${table}:${columns.join(',')}`;
    let statement = statements.get(key);
    if (!statement) {
      const names = columns.map((column) => `"${column}"`).join(', ');
      const values = columns.map((column) => `@${column}`).join(', ');
      statement = sqlite.prepare(`insert into "${table}" (${names}) values (${values})`);
      statements.set(key, statement);
    }
    statement.run(row);
  };

  const addMembers = (userId: string, count: number) =>
    Array.from({ length: count }, (_, index) => {
      const id = uuidv7();
      insert('family_members', {
        id,
        user_id: userId,
        name: `Member ${index + 1}`,
        date_of_birth: calendarDay(-random.int(2, 80) * 365),
        color: MEMBER_COLORS[index % MEMBER_COLORS.length] ?? '#20c997',
        created_at: now,
        updated_at: now,
      });
      return id;
    });

  const addRecords = (
    userId: string,
    memberIds: string[],
    table: string,
    count: number,
    span: { from: number; to: number },
  ): string[] =>
    Array.from({ length: count }, () => {
      const id = uuidv7();
      // One record in six is the user's own; the rest belong to a member.
      const member =
        memberLinked(table) && memberIds.length && !random.chance(1 / 6)
          ? random.pick(memberIds)
          : null;
      const row: Row = { id, user_id: userId, ...rowMakers[table]?.(random, span) };
      if (memberLinked(table)) {
        // A family-history condition is about a relative, not a member (SPEC.md §4).
        row.family_member_id = row.is_family_history === 1 ? null : member;
      }
      insert(table, { ...row, created_at: now, updated_at: now });
      return id;
    });

  const fill = (
    account: BenchAccount,
    members: number,
    shape: Record<string, number>,
    span: { from: number; to: number },
  ): SeededUser => {
    const memberIds = addMembers(account.id, members);
    let visitId = '';
    let labResultId = '';
    for (const [table, count] of Object.entries(shape)) {
      const ids = addRecords(account.id, memberIds, table, count, span);
      if (table === 'visits') visitId = ids[Math.floor(ids.length / 2)] ?? '';
      if (table === 'lab_results') labResultId = ids[Math.floor(ids.length / 2)] ?? '';
    }
    return { ...account, memberIds, counts: { ...shape }, visitId, labResultId };
  };

  const result = sqlite.transaction(() => {
    const heavyRow = sqlite
      .prepare(
        `select u.passcode_version, a.password from "user" u
         join "account" a on a."userId" = u.id and a."providerId" = 'credential'
         where u.id = ?`,
      )
      .get(accounts.heavy.id) as { passcode_version: string; password: string } | undefined;
    if (!heavyRow) throw new Error('the heavy user did not sign up');

    const others = seedShape.users - 2;
    for (let index = 0; index < others; index += 1) {
      const userId = authId();
      insert('user', {
        id: userId,
        name: `User ${index + 1}`,
        email: `user-${index + 1}@example.com`,
        emailVerified: 0,
        image: null,
        createdAt: now,
        updatedAt: now,
        passcode_version: heavyRow.passcode_version,
      });
      insert('account', {
        id: authId(),
        accountId: userId,
        providerId: 'credential',
        userId,
        password: heavyRow.password,
        createdAt: now,
        updatedAt: now,
      });
      insert('session', {
        id: authId(),
        expiresAt: new Date(Date.now() + 30 * DAY_MS).toISOString(),
        token: authId(),
        createdAt: now,
        updatedAt: now,
        ipAddress: '127.0.0.1',
        userAgent: 'bench',
        userId,
      });
      const memberIds = addMembers(userId, random.int(0, 3));
      const tables = Object.keys(rowMakers);
      const shape: Record<string, number> = {};
      for (let n = 0; n < seedShape.recordsPerOtherUser; n += 1) {
        const table = random.pick(tables);
        shape[table] = (shape[table] ?? 0) + 1;
      }
      for (const [table, count] of Object.entries(shape)) {
        addRecords(userId, memberIds, table, count, { from: -5 * 365, to: 180 });
      }
    }

    // Ten years of records and a year ahead: visits and shots to come, medications taken.
    const heavy = fill(accounts.heavy, seedShape.heavyMembers, seedShape.heavyRecords, {
      from: -10 * 365,
      to: 365,
    });
    // Three months of use: one member, and a full first page in every list measured.
    const perType = seedShape.newUserRecordsPerType;
    const fresh = fill(
      accounts.fresh,
      1,
      {
        visits: perType,
        medications: perType,
        shots: perType,
        notes: perType,
        conditions: perType,
      },
      { from: -90, to: 0 },
    );
    return { heavy, fresh, users: others + 2 };
  })();
  sqlite.close();
  return result;
}
