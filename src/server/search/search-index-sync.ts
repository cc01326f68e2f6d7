/**
 * Keeps the search index beside every write: for each search source (search-sources.ts),
 * triggers on its table (and on the table its joined text is in) that replace the source
 * row's entry in `search_entries` in the same statement, so in the same transaction, as the
 * write. Creates, edits and deletes through the API, imports, restores, and the deletes a
 * person's or an account's removal cascades to all reach the index this way; a crash
 * between a write and its entry cannot happen.
 *
 * Run after the migrations, at every start: a source whose triggers were made from the same
 * description is left alone; a new or changed one gets its triggers made again and its
 * entries rebuilt from the rows there are (the back-fill of existing records). A source
 * whose tables do not exist yet (documents, before their migration) waits.
 */
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../db/schema';
import { engineOf } from '../db/migrations/engine';
import { searchSources, type SearchMeasure, type SearchSource } from './search-sources';

const NAME = /^[a-z_][a-z0-9_]*$/;

function checkedName(name: string): string {
  if (!NAME.test(name)) throw new Error(`search: "${name}" is not a plain column or table name`);
  return `"${name}"`;
}

const quoted = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * A number as words: at most `decimals` decimals, no trailing zeros, the point a space
 * ('72 5' for 72.5, '160'), written the same by both engines. A query's '72.5' is the words
 * '72' and '5' (shared/search.ts); PostgreSQL's parser would keep '72.5' as one word.
 */
function numberText(engine: Engine, value: string, decimals: number): string {
  if (decimals === 0) {
    return engine === 'postgres'
      ? `round((${value})::numeric)::text`
      : `cast(round(${value}) as integer)`;
  }
  const fixed =
    engine === 'postgres'
      ? `round((${value})::numeric, ${decimals})::text`
      : `printf('%.${decimals}f', ${value})`;
  return `replace(rtrim(rtrim(${fixed}, '0'), '.'), '.', ' ')`;
}

/** A measure's words, when the row holds it: its names (title) or its values (body). */
function measureText(engine: Engine, measure: SearchMeasure, part: 'names' | 'values'): string {
  const column = `s.${checkedName(measure.column)}`;
  const text =
    part === 'names'
      ? quoted(`${measure.words} `)
      : measure.units
          .map((unit) => {
            const shown = unit.offset
              ? `(${column} - (${unit.offset})) / ${unit.factor}`
              : `${column} / ${unit.factor}`;
            const number = numberText(engine, shown, unit.decimals);
            return unit.symbol ? `${number} || ${quoted(` ${unit.symbol} `)}` : `${number} || ' '`;
          })
          .join(' || ');
  return `case when ${column} is null then '' else ${text} end`;
}

/** The select of a source's entries, for the rows `where` keeps (`s` the row, `j` its text). */
export function entriesSelect(engine: Engine, source: SearchSource, where: string): string {
  const column = (name: string) => `s.${checkedName(name)}`;
  const texts = source.columns.map((name) => `coalesce(${column(name)}, '')`);
  if (source.joined) texts.push(`coalesce(j.${checkedName(source.joined.column)}, '')`);
  for (const measure of source.measures ?? []) texts.push(measureText(engine, measure, 'values'));
  const body = texts.length ? texts.join(` || ' ' || `) : `''`;
  const title = source.titleColumn
    ? `coalesce(${column(source.titleColumn)}, '')`
    : (source.measures ?? [])
        .map((measure) => measureText(engine, measure, 'names'))
        .join(' || ') || `''`;
  const join = source.joined
    ? ` left join ${checkedName(source.joined.table)} j on j.${checkedName(source.joined.key)} = s."id"`
    : '';
  return `select ${quoted(source.table)}, s."id", s."user_id", ${
    source.memberLinked ? 's."family_member_id"' : `''`
  }, ${title}, ${body}, ${
    source.dateColumn ? column(source.dateColumn) : 'null'
  } from ${checkedName(source.table)} s${join} where ${where}`;
}

const INSERT = `insert into search_entries
  (record_table, record_id, user_id, family_member_id, title, body, record_date)`;

const removeEntry = (source: SearchSource, id: string) =>
  `delete from search_entries where record_table = ${quoted(source.table)} and record_id = ${id}`;
const addEntry = (engine: Engine, source: SearchSource, id: string) =>
  `${INSERT} ${entriesSelect(engine, source, `s."id" = ${id}`)}`;

/** The trigger names of a source: dropped before they are made again. */
function triggerNames(source: SearchSource): { table: string; name: string }[] {
  const own = ['added', 'changed', 'removed'].map((event) => ({
    table: source.table,
    name: `search_${source.table}_${event}`,
  }));
  if (!source.joined) return own;
  const joined = source.joined.table;
  return [
    ...own,
    ...['added', 'changed', 'removed'].map((event) => ({
      table: joined,
      name: `search_${source.table}_${joined}_${event}`,
    })),
  ];
}

function sqliteTriggers(source: SearchSource): string[] {
  const table = checkedName(source.table);
  const statements = [
    `create trigger search_${source.table}_added after insert on ${table} begin
      ${addEntry('sqlite', source, 'new."id"')}; end`,
    `create trigger search_${source.table}_changed after update on ${table} begin
      ${removeEntry(source, 'old."id"')}; ${addEntry('sqlite', source, 'new."id"')}; end`,
    `create trigger search_${source.table}_removed after delete on ${table} begin
      ${removeEntry(source, 'old."id"')}; end`,
  ];
  if (source.joined) {
    const joined = checkedName(source.joined.table);
    const key = checkedName(source.joined.key);
    const prefix = `search_${source.table}_${source.joined.table}`;
    statements.push(
      `create trigger ${prefix}_added after insert on ${joined} begin
        ${removeEntry(source, `new.${key}`)}; ${addEntry('sqlite', source, `new.${key}`)}; end`,
      `create trigger ${prefix}_changed after update on ${joined} begin
        ${removeEntry(source, `old.${key}`)}; ${addEntry('sqlite', source, `new.${key}`)}; end`,
      `create trigger ${prefix}_removed after delete on ${joined} begin
        ${removeEntry(source, `old.${key}`)}; ${addEntry('sqlite', source, `old.${key}`)}; end`,
    );
  }
  return statements;
}

function postgresTriggers(source: SearchSource): string[] {
  const table = checkedName(source.table);
  const fn = (name: string, body: string) => `create or replace function ${name}()
    returns trigger language plpgsql as $$
    begin
      ${body}
      return null;
    end $$`;
  const statements = [
    fn(
      `search_${source.table}_sync`,
      `if tg_op <> 'INSERT' then ${removeEntry(source, 'old."id"')}; end if;
      if tg_op <> 'DELETE' then ${addEntry('postgres', source, 'new."id"')}; end if;`,
    ),
    `create trigger search_${source.table}_changed after insert or update or delete on ${table}
      for each row execute function search_${source.table}_sync()`,
  ];
  if (source.joined) {
    // The joined text changed: the source row's entry is made again, with it or without it.
    const key = checkedName(source.joined.key);
    const prefix = `search_${source.table}_${source.joined.table}`;
    statements.push(
      fn(
        `${prefix}_sync`,
        `if tg_op <> 'INSERT' then ${removeEntry(source, `old.${key}`)}; end if;
        if tg_op <> 'DELETE' then
          ${removeEntry(source, `new.${key}`)}; ${addEntry('postgres', source, `new.${key}`)};
        else
          ${addEntry('postgres', source, `old.${key}`)};
        end if;`,
      ),
      `create trigger ${prefix}_changed after insert or update or delete on ${checkedName(
        source.joined.table,
      )} for each row execute function ${prefix}_sync()`,
    );
  }
  return statements;
}

function dropTriggers(engine: Engine, source: SearchSource): string[] {
  return triggerNames(source).map(({ table, name }) =>
    engine === 'postgres'
      ? `drop trigger if exists ${name} on ${checkedName(table)}`
      : `drop trigger if exists ${name}`,
  );
}

async function tableExists(db: Kysely<unknown>, engine: Engine, table: string) {
  const { rows } =
    engine === 'postgres'
      ? await sql<{ found: number }>`select count(*) as found from information_schema.tables
          where table_schema = current_schema() and table_name = ${table}`.execute(db)
      : await sql<{ found: number }>`select count(*) as found from sqlite_master
          where type = 'table' and name = ${table}`.execute(db);
  return Number(rows[0]?.found ?? 0) > 0;
}

const signatureOf = (source: SearchSource) => JSON.stringify(source);

/**
 * Makes the triggers of every source whose description changed (or that is new) and
 * rebuilds its entries. Returns the tables whose index was rebuilt.
 */
export async function syncSearchIndex(
  // Any schema: the migrator's, or the app's.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  sources: readonly SearchSource[] = searchSources,
): Promise<string[]> {
  const engine = engineOf(db);
  const rebuilt: string[] = [];
  for (const source of sources) {
    const tables = [source.table, ...(source.joined ? [source.joined.table] : [])];
    const present = await Promise.all(tables.map((table) => tableExists(db, engine, table)));
    if (present.includes(false)) continue;
    const signature = signatureOf(source);
    await db.transaction().execute(async (trx) => {
      // Several instances starting at once: one makes the triggers, the others find them made.
      if (engine === 'postgres') {
        await sql`select pg_advisory_xact_lock(hashtext('kin-search-index'))`.execute(trx);
      }
      const { rows } = await sql<{ signature: string }>`select signature from search_sources
        where record_table = ${source.table}`.execute(trx);
      if (rows[0]?.signature === signature) return;
      const statements = [
        ...dropTriggers(engine, source),
        ...(engine === 'postgres' ? postgresTriggers(source) : sqliteTriggers(source)),
        `delete from search_entries where record_table = ${quoted(source.table)}`,
        `${INSERT} ${entriesSelect(engine, source, 'true')}`,
      ];
      for (const statement of statements) await sql.raw(statement).execute(trx);
      await sql`delete from search_sources where record_table = ${source.table}`.execute(trx);
      await sql`insert into search_sources (record_table, signature)
        values (${source.table}, ${signature})`.execute(trx);
      rebuilt.push(source.table);
    });
  }
  return rebuilt;
}
