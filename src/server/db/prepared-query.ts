/**
 * Queries the API runs on every request, built and compiled by Kysely once and then run with
 * each request's values. Building a query (a tree of immutable nodes) and compiling it to
 * SQL cost Kysely 25–90 µs a query, as much as SQLite took to run it. So the query is built
 * once with placeholders where its values go, and its SQL and the places of its values kept.
 * See docs/decisions/0009-library-code-rewritten-for-speed.md.
 *
 * The rule: the build function sees placeholders, never values, so it must not look at
 * them; a query whose shape depends on the request (a member filter, a cursor) is prepared
 * once per shape (`preparedShapes`). Broken, the rule fails loudly rather than silently
 * running the wrong SQL:
 * - a placeholder refuses to be turned into a string or a number (`values.limit + 1`, a
 *   template string, a comparison) and says which value was read;
 * - the first call of each prepared query builds it again from its real values the usual
 *   way and refuses to run if the SQL or its values differ (a branch on a value); with
 *   checking on (the test suites), every call does.
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

export class PreparedQueryError extends Error {}

function placeholderFor(name: string): Placeholder {
  const misuse = () => {
    throw new PreparedQueryError(
      `A prepared query's build function used the value of "${name}": it sees placeholders, ` +
        'never values, and must not compute with them or branch on them (prepare one query per shape)',
    );
  };
  return {
    [PLACEHOLDER]: name,
    [Symbol.toPrimitive]: misuse,
    toString: misuse,
    valueOf: misuse,
    toJSON: misuse,
  } as Placeholder;
}

/** Stands in for every value the build function reads, by the value's name. */
const placeholders = new Proxy({}, { get: (_target, name) => placeholderFor(String(name)) });

let checkEveryCall = false;

/** Makes every call of every prepared query check itself (the test suites turn this on). */
export function checkPreparedQueriesOnEveryCall(on: boolean) {
  checkEveryCall = on;
}

export type PreparedQuery<Values, Row> = (values: Values) => Promise<Row[]>;

export function prepareQuery<Values extends Record<string, unknown>, Row>(
  // Any schema: the build function's own types say what it reads and returns.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  build: (values: Values) => Compilable<Row>,
): PreparedQuery<Values, Row> {
  let prepared: CompiledQuery<Row> | undefined;
  return async (values) => {
    const firstCall = prepared === undefined;
    prepared ??= build(placeholders as Values).compile();
    const parameters = prepared.parameters.map((parameter) =>
      isPlaceholder(parameter) ? values[parameter[PLACEHOLDER]] : parameter,
    );
    if (firstCall || checkEveryCall) {
      const usual = build(values).compile();
      if (
        usual.sql !== prepared.sql ||
        JSON.stringify(usual.parameters) !== JSON.stringify(parameters)
      ) {
        throw new PreparedQueryError(
          `A prepared query's SQL depends on its values (its build function branches on one): ` +
            `prepared as\n  ${prepared.sql}\nbut built from these values as\n  ${usual.sql}`,
        );
      }
    }
    return (
      readImmediately<Row>(db, prepared.sql, parameters) ??
      (await db.executeQuery(CompiledQuery.raw(prepared.sql, parameters) as CompiledQuery<Row>))
        .rows
    );
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
