import { type Compilable, type CompiledQuery, createQueryId } from "kysely";
import type { DB } from "./schema.server.ts";
import { refuseNulParameters } from "./text-guard.server.ts";

/**
 * Queries a page runs on every request, built and compiled once per database and then
 * run with each request's values (docs/decisions/024-lean-reading-pages.md). Kysely builds
 * a query's tree and compiles it to SQL anew on every call: for the post page's dozen
 * queries that cost about as much as SQLite running them.
 *
 * A reusable query is a builder given placeholders in place of its values: it is built
 * once per database with a marker string for each value, compiled, and each compiled
 * parameter that is a marker is remembered by its name. A run copies the SQL and swaps the
 * markers for the values. So the builder must give the same SQL whatever the values are:
 * it may not branch on them, change them (`%${q}%`, `otherLocale(locale)`: pass what the
 * query needs as its own value) or read anything else that changes (the clock). Values it
 * uses as they are and constants in its code ("published") are fine. Building checks what
 * it can (a marker changed or written into the SQL text throws); each reusable query's
 * tests compare its SQL and parameters with a fresh build for several sets of values.
 *
 * Only databases `openDatabase` made are reused on (`allowReuse`): their plugins are
 * known (the NUL guard, which a run applies to its values itself). A transaction, or a
 * database with more plugins (a test recording every query), builds every query as
 * before and so sees each one with its values.
 */

/** Values a reusable query takes: strings and numbers, by name. */
export type QueryValues = Record<string, string | number>;

const reusable = new WeakSet<DB>();

/** Lets `db` (opened by `openDatabase`, with only the NUL guard as a plugin) reuse compiled queries. */
export function allowReuse(db: DB): void {
  reusable.add(db);
}

/** Whether `db` runs reusable queries from their compiled form (else it builds them each time). */
export function reusesQueries(db: DB): boolean {
  return reusable.has(db);
}

// Private-use characters: never in a real value that the builder would compare against.
const OPEN = "\uE000inkwell-value:";
const CLOSE = "\uE001";
const marker = (name: string) => `${OPEN}${name}${CLOSE}`;

interface Template {
  sql: string;
  query: CompiledQuery["query"];
  /** Per compiled parameter: the value's name, or the constant itself. */
  slots: ({ name: string } | { constant: unknown })[];
}

export interface ReusableQuery<V extends QueryValues, O> {
  /** The query built afresh for `values`, as a database that does not reuse runs it. */
  build(db: DB, values: V): Compilable<O>;
  /** The query for `values`: from the compiled template where `db` reuses queries. */
  compile(db: DB, values: V): CompiledQuery<O>;
  /** Every row. */
  execute(db: DB, values: V): Promise<O[]>;
  /** The first row, or undefined. */
  takeFirst(db: DB, values: V): Promise<O | undefined>;
}

/**
 * How many templates a query keeps per database for its `sized` values; past it, a new set
 * of them is built afresh each time (a caller passing ever new sizes costs no memory).
 */
export const MAX_SIZED_TEMPLATES = 16;

/**
 * A query built by `build` from its values, compiled once per database. `names` lists the
 * values `build` reads (each is a marker while the template is built).
 *
 * `sized` lists the names among them that are whole numbers the SQL is written with rather
 * than bound: a LIMIT's size, which SQLite's compiler writes as a literal (a `limit ?`
 * made SQLite compile the statement again on every run: sqlite-compiler.server.ts). They are
 * passed to `build` as they are, and each set of them has its own template: a page size
 * takes few values.
 */
export function reusableQuery<V extends QueryValues, O>(
  names: readonly (keyof V & string)[],
  build: (db: DB, values: V) => Compilable<O>,
  sized: readonly (keyof V & string)[] = [],
): ReusableQuery<V, O> {
  const templates = new WeakMap<DB, Map<string, Template>>();
  const marked = names.filter((name) => !sized.includes(name));
  const placeholders = Object.fromEntries(marked.map((name) => [name, marker(name)])) as Partial<V>;

  const templateFor = (db: DB, values: V): Template | null => {
    let byKey = templates.get(db);
    if (!byKey) {
      byKey = new Map();
      templates.set(db, byKey);
    }
    // Most queries have no sized values: one template, no key to build on each run.
    const key = sized.length === 0 ? "" : sized.map((name) => String(values[name])).join(",");
    let template = byKey.get(key);
    if (template) return template;
    if (byKey.size >= MAX_SIZED_TEMPLATES) return null;
    const withSizes = { ...placeholders } as V;
    for (const name of sized) withSizes[name] = values[name];
    const compiled = build(db, withSizes).compile();
    if (compiled.sql.includes(OPEN)) throw new Error(`a reusable query wrote a value into its SQL: ${compiled.sql}`);
    const slots = compiled.parameters.map((parameter): Template["slots"][number] => {
      if (typeof parameter === "string" && parameter.includes(OPEN)) {
        const name = parameter.slice(OPEN.length, -CLOSE.length);
        if (parameter !== marker(name) || !marked.includes(name))
          throw new Error(`a reusable query changed its value ${JSON.stringify(parameter)}`);
        return { name };
      }
      return { constant: parameter };
    });
    template = { sql: compiled.sql, query: compiled.query, slots };
    byKey.set(key, template);
    return template;
  };

  const compile = (db: DB, values: V): CompiledQuery<O> => {
    const template = reusable.has(db) ? templateFor(db, values) : null;
    if (!template) return build(db, values).compile();
    const parameters = template.slots.map((slot) => ("name" in slot ? values[slot.name] : slot.constant));
    refuseNulParameters(parameters);
    return { sql: template.sql, query: template.query, parameters, queryId: createQueryId() };
  };

  const execute = async (db: DB, values: V): Promise<O[]> => {
    if (!reusable.has(db)) return (await db.executeQuery(build(db, values))).rows;
    return (await db.executeQuery(compile(db, values))).rows;
  };

  return {
    build,
    compile,
    execute,
    takeFirst: async (db, values) => (await execute(db, values))[0],
  };
}
