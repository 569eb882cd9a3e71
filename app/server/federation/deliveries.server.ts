import { AsyncLocalStorage } from "node:async_hooks";
import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from "@fedify/fedify";
import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import type { DeliveryOutcome } from "../db/schema.server.ts";
import { newId } from "../platform/ids.server.ts";

/**
 * The delivery log and dead servers (docs/decisions/023-federation.md, "Profile, follow box,
 * delivery log"). Every outbound delivery is one queue message ("outbox", one inbox each);
 * the queue handed to Fedify is wrapped so each attempt's outcome is written down: Fedify
 * reports a failed attempt through `onOutboxError` while the message is being handled (the
 * same async context), a handler that returns without one has delivered. A server that has
 * failed for `deadAfterMs` is dead: its messages are dropped (logged "skipped") until an
 * activity arrives from it.
 */

/** Rows older than this are pruned. */
export const DELIVERY_LOG_DAYS = 30;
/** At most this many rows are kept (the newest). */
export const DELIVERY_LOG_MAX_ROWS = 20_000;
/** A server failing for this long (every attempt since) is given up until it is heard from. */
export const DEAD_SERVER_AFTER_MS = 3 * 24 * 60 * 60 * 1000;

/** The part of Fedify's outbox message the log reads (one inbox, one activity). */
interface OutboxMessage {
  type: "outbox";
  inbox: string;
  activityId?: string;
  activityType: string;
  attempt: number;
}

function isOutboxMessage(message: unknown): message is OutboxMessage {
  if (typeof message !== "object" || message === null) return false;
  const m = message as Record<string, unknown>;
  return m.type === "outbox" && typeof m.inbox === "string" && typeof m.activityType === "string";
}

/** What a failed attempt left while its message was being handled. */
interface Attempt {
  error: unknown;
}

/** The HTTP status and message of a failed delivery (Fedify's SendActivityError has `statusCode`). */
export function describeFailure(error: unknown): { status: number | null; error: string } {
  const status =
    typeof error === "object" && error !== null && "statusCode" in error && typeof error.statusCode === "number"
      ? error.statusCode
      : null;
  const text = error instanceof Error ? error.message : String(error);
  return { status: status && status > 0 ? status : null, error: text.slice(0, 500) };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "?";
  }
}

export interface DeliveryLogOptions {
  db: DB;
  log: Logger;
  /** How many attempts Fedify makes (its retry policy's maxAttempts). */
  maxAttempts: number;
  /** Inbox statuses Fedify does not retry (its permanentFailureStatusCodes). */
  permanentStatuses: readonly number[];
  deadAfterMs?: number;
  now?: () => number;
}

export class DeliveryLog {
  readonly #db: DB;
  readonly #log: Logger;
  readonly #maxAttempts: number;
  readonly #permanent: readonly number[];
  readonly #deadAfterMs: number;
  readonly #now: () => number;
  readonly #current = new AsyncLocalStorage<Attempt>();

  constructor(opts: DeliveryLogOptions) {
    this.#db = opts.db;
    this.#log = opts.log;
    this.#maxAttempts = opts.maxAttempts;
    this.#permanent = opts.permanentStatuses;
    this.#deadAfterMs = opts.deadAfterMs ?? DEAD_SERVER_AFTER_MS;
    this.#now = opts.now ?? Date.now;
  }

  /** Fedify's `onOutboxError`: remembers the failure of the attempt being handled. */
  readonly onOutboxError = (error: Error): void => {
    const attempt = this.#current.getStore();
    if (attempt) attempt.error = error;
  };

  /** The queue Fedify gets: `inner`, with each outbox message's outcome logged. */
  wrap(inner: MessageQueue): MessageQueue {
    const track = (handler: (message: unknown) => Promise<void> | void) => (message: unknown) =>
      this.#handle(message, handler);
    const wrapped: MessageQueue = {
      nativeRetrial: inner.nativeRetrial ?? false,
      enqueue: (message: unknown, options?: MessageQueueEnqueueOptions) => inner.enqueue(message, options),
      listen: (handler: (message: unknown) => Promise<void> | void, options?: MessageQueueListenOptions) =>
        inner.listen(track(handler), options),
    };
    const many = inner.enqueueMany?.bind(inner);
    if (many) wrapped.enqueueMany = many;
    return wrapped;
  }

  async #handle(message: unknown, handler: (message: unknown) => Promise<void> | void): Promise<void> {
    if (!isOutboxMessage(message)) {
      await handler(message);
      return;
    }
    const server = hostOf(message.inbox);
    if (await this.isDead(server)) {
      await this.#write(message, server, "skipped", { status: null, error: "server given up as dead" });
      return;
    }
    const attempt: Attempt = { error: undefined };
    await this.#current.run(attempt, () => handler(message));
    if (attempt.error === undefined) {
      // Failures cleared first: whoever reads the "sent" row also sees the server healthy.
      await this.#db.deleteFrom("federationServers").where("server", "=", server).execute();
      await this.#write(message, server, "sent", { status: null, error: null });
      return;
    }
    const failure = describeFailure(attempt.error);
    const permanent = failure.status !== null && this.#permanent.includes(failure.status);
    const last = message.attempt + 1 >= this.#maxAttempts;
    await this.#write(message, server, permanent || last ? "gave-up" : "retrying", failure);
    await this.#failed(server);
  }

  async #write(
    message: OutboxMessage,
    server: string,
    outcome: DeliveryOutcome,
    failure: { status: number | null; error: string | null },
  ): Promise<void> {
    try {
      await this.#db
        .insertInto("federationDeliveries")
        .values({
          id: newId(),
          createdAt: new Date(this.#now()).toISOString(),
          server: server.slice(0, 300),
          inbox: message.inbox.slice(0, 2000),
          activityId: message.activityId?.slice(0, 2000) ?? null,
          // Fedify names the type by its IRI ("https://www.w3.org/ns/activitystreams#Create").
          activityType: message.activityType.replace(/^.*[#/]/, "").slice(0, 100),
          outcome,
          attempt: message.attempt,
          status: failure.status,
          error: failure.error,
        })
        .execute();
    } catch (error) {
      // The log is a record, not the delivery: a failed write never fails the delivery.
      this.#log.warn({ err: error }, "could not write the delivery log");
    }
  }

  /** A failed attempt: the server is failing since its first failure, dead once that is long enough ago. */
  async #failed(server: string): Promise<void> {
    const at = new Date(this.#now()).toISOString();
    await this.#db
      .insertInto("federationServers")
      .values({ server, failingSince: at, lastFailureAt: at, deadSince: null })
      .onConflict((oc) => oc.column("server").doUpdateSet({ lastFailureAt: at }))
      .execute();
    const row = await this.#db
      .selectFrom("federationServers")
      .select(["failingSince", "deadSince"])
      .where("server", "=", server)
      .executeTakeFirst();
    if (!row || row.deadSince !== null) return;
    if (this.#now() - Date.parse(row.failingSince) >= this.#deadAfterMs) {
      await this.#db.updateTable("federationServers").set({ deadSince: at }).where("server", "=", server).execute();
      this.#log.warn({ server, failingSince: row.failingSince }, "Fediverse server given up as dead");
    }
  }

  async isDead(server: string): Promise<boolean> {
    const row = await this.#db
      .selectFrom("federationServers")
      .select("deadSince")
      .where("server", "=", server)
      .executeTakeFirst();
    return row?.deadSince != null;
  }

  /** An activity came from `server`: it is alive, deliveries to it resume. */
  async heardFrom(server: string): Promise<void> {
    const result = await this.#db.deleteFrom("federationServers").where("server", "=", server).executeTakeFirst();
    if (Number(result.numDeletedRows) > 0) this.#log.info({ server }, "Fediverse server heard from: deliveries resume");
  }

  /** Drops rows older than DELIVERY_LOG_DAYS and all but the newest DELIVERY_LOG_MAX_ROWS. */
  async prune(maxRows = DELIVERY_LOG_MAX_ROWS): Promise<void> {
    const cutoff = new Date(this.#now() - DELIVERY_LOG_DAYS * 24 * 60 * 60 * 1000).toISOString();
    await this.#db.deleteFrom("federationDeliveries").where("createdAt", "<", cutoff).execute();
    const edge = await this.#db
      .selectFrom("federationDeliveries")
      .select(["createdAt", "id"])
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .offset(maxRows)
      .executeTakeFirst();
    if (!edge) return;
    await this.#db
      .deleteFrom("federationDeliveries")
      .where((eb) =>
        eb.or([
          eb("createdAt", "<", edge.createdAt),
          eb.and([eb("createdAt", "=", edge.createdAt), eb("id", "<=", edge.id)]),
        ]),
      )
      .execute();
  }
}

export interface DeliveryRow {
  id: string;
  createdAt: string;
  server: string;
  inbox: string;
  activityType: string;
  outcome: DeliveryOutcome;
  attempt: number;
  status: number | null;
  error: string | null;
}

export type DeliveryFilter = "all" | "failures";

/** Outcomes that are not a delivery: the failures filter and what sorts first. */
export const FAILURE_OUTCOMES: readonly DeliveryOutcome[] = ["retrying", "gave-up", "skipped"];

/** How many attempts in the log did not deliver: what its "failures" filter lists (the dashboard's count). */
export async function failedDeliveryCount(db: DB): Promise<number> {
  const row = await db
    .selectFrom("federationDeliveries")
    .where("outcome", "in", [...FAILURE_OUTCOMES])
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The admin's page of the delivery log, newest first; "failures": only attempts that did not deliver. */
export async function deliveriesPage(
  db: DB,
  opts: { filter: DeliveryFilter; page: number; pageSize: number },
): Promise<{ items: DeliveryRow[]; total: number; page: number; pageCount: number }> {
  let base = db.selectFrom("federationDeliveries");
  if (opts.filter === "failures") base = base.where("outcome", "in", [...FAILURE_OUTCOMES]);
  const counted = await base.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const pageCount = Math.max(1, Math.ceil(total / opts.pageSize));
  const page = Math.min(Math.max(1, opts.page), pageCount);
  const rows = await base
    .select(["id", "createdAt", "server", "inbox", "activityType", "outcome", "attempt", "status", "error"])
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(opts.pageSize)
    .offset((page - 1) * opts.pageSize)
    .execute();
  return {
    items: rows.map((r) => ({ ...r, attempt: Number(r.attempt), status: r.status === null ? null : Number(r.status) })),
    total,
    page,
    pageCount,
  };
}

/** The servers given up as dead, for the admin. */
export async function deadServers(db: DB): Promise<Array<{ server: string; failingSince: string; deadSince: string }>> {
  const rows = await db
    .selectFrom("federationServers")
    .select(["server", "failingSince", "deadSince"])
    .where("deadSince", "is not", null)
    .orderBy("deadSince", "desc")
    .execute();
  return rows.flatMap((r) => (r.deadSince ? [{ ...r, deadSince: r.deadSince }] : []));
}
