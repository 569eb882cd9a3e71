import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";

export const NUL_TEXT_MESSAGE = "Text may not contain NUL characters.";

const hasNul = (value: unknown): boolean =>
  typeof value === "string" ? value.includes("\u0000") : Array.isArray(value) && value.some(hasNul);

/**
 * Whether any parameter in a query's tree holds a NUL character. Parameters live in
 * ValueNode.value and PrimitiveValueListNode.values; the walk reads the tree without
 * copying it (Kysely's transformer would rebuild every node of every query).
 */
export function queryHasNul(node: OperationNode): boolean {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== "object") continue;
    if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
      continue;
    }
    const kind = (current as { kind?: unknown }).kind;
    if (kind === "ValueNode" && hasNul((current as { value?: unknown }).value)) return true;
    if (kind === "PrimitiveValueListNode" && hasNul((current as { values?: unknown }).values)) return true;
    // for…in rather than Object.values: no array per node (this runs for every query).
    const record = current as Record<string, unknown>;
    for (const name in record) {
      const child = record[name];
      if (child !== null && typeof child === "object") stack.push(child);
    }
  }
  return false;
}

const refusal = () =>
  new Response(NUL_TEXT_MESSAGE, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * The same refusal for a compiled query's parameters (a reusable query runs its compiled
 * form with new values, which no plugin sees: reusable-query.server.ts).
 */
export function refuseNulParameters(parameters: readonly unknown[]): void {
  if (parameters.some(hasNul)) throw refusal();
}

/**
 * Refuses every query whose parameters hold a NUL character, on both dialects:
 * PostgreSQL rejects such text with an error (a 500 from whichever form or URL
 * carried it), while SQLite would store it, so the same input behaved differently
 * per database. Checked here, at the one door all input passes, rather than in each
 * of the forms, URLs and importers that take text.
 *
 * It throws a 400 Response, so whichever loader, action or API handler ran the
 * query answers 400 and the transaction around it rolls back; outside a request
 * (jobs) it fails like any other error.
 */
export class RefuseNulText implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (queryHasNul(args.node)) throw refusal();
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
