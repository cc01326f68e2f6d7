/**
 * Queries the API runs on every request, built and compiled by Kysely once and then run with
 * each request's values. Building a query (a tree of immutable nodes) and compiling it to
 * SQL cost Kysely 25–90 µs a query, as much as SQLite took to run it. So the query is built
 * once with placeholders where its values go, and its SQL and the places of its values kept.
 *
 * The build function sees placeholders, never values, so it must not branch on them: a query
 * whose shape depends on the request (a member filter, a cursor) is prepared once per shape.
 */
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import { readImmediately } from './database';

const PLACEHOLDER = Symbol('placeholder');

interface Placeholder {
  readonly [PLACEHOLDER]: string;
}

function isPlaceholder(value: unknown): value is Placeholder {
  return typeof value === 'object' && value !== null && PLACEHOLDER in value;
}

/** Stands in for every value the build function reads, by the value's name. */
const placeholders = new Proxy(
  {},
  { get: (_target, name): Placeholder => ({ [PLACEHOLDER]: String(name) }) },
);

export type PreparedQuery<Values, Row> = (values: Values) => Promise<Row[]>;

export function prepareQuery<Values extends Record<string, unknown>, Row>(
  // Any schema: the build function's own types say what it reads and returns.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  build: (values: Values) => Compilable<Row>,
): PreparedQuery<Values, Row> {
  let prepared: CompiledQuery<Row> | undefined;
  return async (values) => {
    prepared ??= build(placeholders as Values).compile();
    const parameters = prepared.parameters.map((parameter) =>
      isPlaceholder(parameter) ? values[parameter[PLACEHOLDER]] : parameter,
    );
    const query = CompiledQuery.raw(prepared.sql, parameters) as CompiledQuery<Row>;
    return readImmediately(db, query) ?? (await db.executeQuery(query)).rows;
  };
}

/**
 * Prepared queries of one kind, one per shape (a view, a member filter), each made the first
 * time its shape is asked for.
 */
export function preparedShapes<Values extends Record<string, unknown>, Row>() {
  const shapes = new Map<string, PreparedQuery<Values, Row>>();
  return (shape: string, prepare: () => PreparedQuery<Values, Row>): PreparedQuery<Values, Row> => {
    let query = shapes.get(shape);
    if (!query) {
      query = prepare();
      shapes.set(shape, query);
    }
    return query;
  };
}
