/**
 * How many records each user has of each type, per family member, kept by the database
 * itself. A list's tab counts were a count(*) over every one of the user's rows on every
 * page: the cost grew with a family's history, and a family with ten years of records paid
 * for all of them on each page. Triggers keep these totals exact whoever writes the rows,
 * including the deletes a member's or an account's removal cascades to, so a list counts
 * only what it cannot take from them (see record-repository.ts).
 *
 * A record of the user's own is counted under family_member_id '' (a key cannot be null).
 *
 * Medications of one member get the (member, end date) index the owner's already have, so
 * a member's current and past tabs are a range too, not every medication of that member.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from './engine';

const tables: { name: string; memberLinked: boolean }[] = [
  { name: 'visits', memberLinked: true },
  { name: 'medications', memberLinked: true },
  { name: 'shots', memberLinked: true },
  { name: 'health_history', memberLinked: true },
  { name: 'notes', memberLinked: true },
  { name: 'insurance', memberLinked: true },
  { name: 'contacts', memberLinked: false },
];

const createTable = `create table "record_counts" (
  "user_id" text not null references "user" ("id") on delete cascade,
  "record_table" text not null,
  "family_member_id" text not null,
  "total" integer not null,
  primary key ("user_id", "record_table", "family_member_id")
)`;

const memberOf = (row: 'new' | 'old', memberLinked: boolean) =>
  memberLinked ? `coalesce(${row}."family_member_id", '')` : `''`;

const addOne = (table: string, memberLinked: boolean) =>
  `insert into "record_counts" ("user_id", "record_table", "family_member_id", "total")
   values (new."user_id", '${table}', ${memberOf('new', memberLinked)}, 1)
   on conflict ("user_id", "record_table", "family_member_id")
   do update set "total" = "record_counts"."total" + 1`;

const takeOne = (table: string, memberLinked: boolean) =>
  `update "record_counts" set "total" = "total" - 1
   where "user_id" = old."user_id" and "record_table" = '${table}'
   and "family_member_id" = ${memberOf('old', memberLinked)}`;

export function sqliteTriggers({ name, memberLinked }: (typeof tables)[number]): string[] {
  const moved = memberLinked
    ? `old."user_id" is not new."user_id" or old."family_member_id" is not new."family_member_id"`
    : `old."user_id" is not new."user_id"`;
  const movedColumns = memberLinked ? `"user_id", "family_member_id"` : `"user_id"`;
  return [
    `create trigger "${name}_counts_insert" after insert on "${name}"
     begin ${addOne(name, memberLinked)}; end`,
    `create trigger "${name}_counts_delete" after delete on "${name}"
     begin ${takeOne(name, memberLinked)}; end`,
    `create trigger "${name}_counts_move" after update of ${movedColumns} on "${name}"
     when ${moved}
     begin ${takeOne(name, memberLinked)}; ${addOne(name, memberLinked)}; end`,
  ];
}

// One function for every table; its argument says whether the table has members. Each
// reference to a member column sits in its own statement, which PL/pgSQL only plans when it
// runs, so the function also serves contacts, which have no such column.
const postgresFunction = `create function "record_counts_change"() returns trigger
language plpgsql as $$
declare
  old_member text := '';
  new_member text := '';
begin
  if tg_argv[0] = 'member' and tg_op <> 'INSERT' then
    old_member := coalesce(old."family_member_id", '');
  end if;
  if tg_argv[0] = 'member' and tg_op <> 'DELETE' then
    new_member := coalesce(new."family_member_id", '');
  end if;
  if tg_op <> 'INSERT' then
    update "record_counts" set "total" = "total" - 1
    where "user_id" = old."user_id" and "record_table" = tg_table_name
    and "family_member_id" = old_member;
  end if;
  if tg_op <> 'DELETE' then
    insert into "record_counts" ("user_id", "record_table", "family_member_id", "total")
    values (new."user_id", tg_table_name, new_member, 1)
    on conflict ("user_id", "record_table", "family_member_id")
    do update set "total" = "record_counts"."total" + 1;
  end if;
  return null;
end $$`;

export function postgresTriggers({ name, memberLinked }: (typeof tables)[number]): string[] {
  const argument = memberLinked ? `'member'` : `'owner'`;
  const moved = memberLinked
    ? `old."user_id" is distinct from new."user_id" or old."family_member_id" is distinct from new."family_member_id"`
    : `old."user_id" is distinct from new."user_id"`;
  const movedColumns = memberLinked ? `"user_id", "family_member_id"` : `"user_id"`;
  return [
    `create trigger "${name}_counts" after insert or delete on "${name}"
     for each row execute function "record_counts_change"(${argument})`,
    `create trigger "${name}_counts_move" after update of ${movedColumns} on "${name}"
     for each row when (${moved}) execute function "record_counts_change"(${argument})`,
  ];
}

function backfill({ name, memberLinked }: (typeof tables)[number]): string {
  const member = memberLinked ? `coalesce("family_member_id", '')` : `''`;
  const groups = memberLinked ? `"user_id", coalesce("family_member_id", '')` : `"user_id"`;
  return `insert into "record_counts" ("user_id", "record_table", "family_member_id", "total")
    select "user_id", '${name}', ${member}, count(*) from "${name}" group by ${groups}`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === 'postgres';
  const statements = [
    createTable,
    ...(postgres ? [postgresFunction] : []),
    ...tables.flatMap((table) => (postgres ? postgresTriggers(table) : sqliteTriggers(table))),
    ...tables.map(backfill),
    `create index "medications_family_member_id_end_date_idx"
     on "medications" ("family_member_id", "end_date")`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
