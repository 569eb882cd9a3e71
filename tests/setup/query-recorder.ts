import type { KyselyPlugin, QueryId, RootOperationNode } from "kysely";

export interface Recorded {
  node: RootOperationNode;
  queryId: QueryId;
}

/**
 * Notes every query a connection made with `db.withPlugin(recorder)` runs, and changes
 * none. Kysely also hands a subquery's node to the plugins when it builds the outer query;
 * only the queries that ran (and so returned a result) count, or a subquery's rows would
 * be counted twice. `roundTrips` counts every statement sent, built ones and raw ones
 * (`db.executeQuery(CompiledQuery.raw(…))`, which have no node to record) alike.
 */
export class QueryRecorder implements KyselyPlugin {
  #compiled = new Map<QueryId, Recorded>();
  queries: Recorded[] = [];
  roundTrips = 0;
  reset(): void {
    this.#compiled.clear();
    this.queries = [];
    this.roundTrips = 0;
  }
  transformQuery(args: { node: RootOperationNode; queryId: QueryId }): RootOperationNode {
    this.#compiled.set(args.queryId, args);
    return args.node;
  }
  async transformResult<T>(args: { result: T; queryId: QueryId }): Promise<T> {
    this.roundTrips++;
    const ran = this.#compiled.get(args.queryId);
    if (ran) this.queries.push(ran);
    return args.result;
  }
}
