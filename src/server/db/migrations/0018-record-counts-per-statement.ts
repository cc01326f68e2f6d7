/**
 * On PostgreSQL the record totals (0005-record-counts.ts) are kept once per statement, not
 * once per row. A row trigger updated the same totals row once for every row written: an
 * import of 199k allergies left 199k dead versions of that one row, each update walking
 * past the ones before, and its transaction was still running after 16 minutes. A
 * statement trigger reads the rows the statement wrote (its transition table) and adds or
 * takes away each person's count in one write. Moving a record between members (an
 * update) stays a row trigger: it writes one row at a time anyway.
 *
 * SQLite has no statement triggers; its row triggers update a row in place, at a cost
 * that does not grow with the rows before, and stay as they are.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from './engine';

const tables: { name: string; memberLinked: boolean }[] = [
  { name: 'visits', memberLinked: true },
  { name: 'medications', memberLinked: true },
  { name: 'shots', memberLinked: true },
  { name: 'conditions', memberLinked: true },
  { name: 'notes', memberLinked: true },
  { name: 'insurance', memberLinked: true },
  { name: 'contacts', memberLinked: false },
  { name: 'allergies', memberLinked: true },
];

/**
 * The totals a statement added to (from `added_rows`). Each branch is planned only when it
 * runs, so the one that reads a member column never runs for contacts, which have none.
 */
const addedFunction = `create function "record_counts_added"() returns trigger language plpgsql as $$
begin
  if tg_argv[0] = 'member' then
    insert into "record_counts" ("user_id", "record_table", "family_member_id", "total")
    select "user_id", tg_table_name, coalesce("family_member_id", ''), count(*)
    from "added_rows" group by "user_id", coalesce("family_member_id", '')
    on conflict ("user_id", "record_table", "family_member_id")
    do update set "total" = "record_counts"."total" + excluded."total";
  else
    insert into "record_counts" ("user_id", "record_table", "family_member_id", "total")
    select "user_id", tg_table_name, '', count(*) from "added_rows" group by "user_id"
    on conflict ("user_id", "record_table", "family_member_id")
    do update set "total" = "record_counts"."total" + excluded."total";
  end if;
  return null;
end $$`;

/**
 * The totals a statement took from (from `removed_rows`): an update of the totals there
 * are, as the row trigger did, so that the deletes an account's removal cascades to (its
 * totals already gone with it) write nothing.
 */
const removedFunction = `create function "record_counts_removed"() returns trigger language plpgsql as $$
begin
  if tg_argv[0] = 'member' then
    update "record_counts" set "total" = "record_counts"."total" - removed."rows"
    from (select "user_id", coalesce("family_member_id", '') as "member", count(*) as "rows"
          from "removed_rows" group by "user_id", coalesce("family_member_id", '')) as removed
    where "record_counts"."user_id" = removed."user_id"
      and "record_counts"."record_table" = tg_table_name
      and "record_counts"."family_member_id" = removed."member";
  else
    update "record_counts" set "total" = "record_counts"."total" - removed."rows"
    from (select "user_id", count(*) as "rows" from "removed_rows" group by "user_id") as removed
    where "record_counts"."user_id" = removed."user_id"
      and "record_counts"."record_table" = tg_table_name
      and "record_counts"."family_member_id" = '';
  end if;
  return null;
end $$`;

/**
 * A record table's row trigger of inserts and deletes (0005) replaced by statement ones; a
 * record table made later is made with these (PostgreSQL only).
 */
export function statementTriggers({ name, memberLinked }: { name: string; memberLinked: boolean }) {
  const argument = memberLinked ? `'member'` : `'owner'`;
  return [
    `drop trigger "${name}_counts" on "${name}"`,
    `create trigger "${name}_counts_insert" after insert on "${name}"
     referencing new table as "added_rows"
     for each statement execute function "record_counts_added"(${argument})`,
    `create trigger "${name}_counts_delete" after delete on "${name}"
     referencing old table as "removed_rows"
     for each statement execute function "record_counts_removed"(${argument})`,
  ];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  const statements = [addedFunction, removedFunction, ...tables.flatMap(statementTriggers)];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
