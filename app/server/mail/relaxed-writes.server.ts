import { sql } from "kysely";
import type { DB, Dialect } from "../db/db.server.ts";
import type { OutcomeWriter } from "./outbox.server.ts";

/**
 * How the mail worker writes "sent" and "failed": committed without waiting for the
 * disk. Every other write of the site waits for it (SQLite synchronous=FULL,
 * PostgreSQL synchronous_commit=on), and at one mail per commit that wait (~4 ms
 * here) capped a newsletter at ~100 mails a second. A crash or kill of the server
 * loses none of these writes (the WAL is written before the commit returns); a power
 * cut or an operating-system crash may forget the last few, and those mails then go
 * out a second time — never not at all.
 *
 * SQLite: the write runs on the one connection, held for it (no other query can slip
 * in), with synchronous=NORMAL set around it. PostgreSQL: in a transaction with
 * `synchronous_commit = off` (a setting per transaction).
 */
export function relaxedOutcomeWrites(db: DB, dialect: Dialect): OutcomeWriter {
  if (dialect === "postgres") {
    return (write) =>
      db.transaction().execute(async (trx) => {
        await sql`set local synchronous_commit = off`.execute(trx);
        return write(trx);
      });
  }
  return (write) =>
    db.connection().execute(async (connection) => {
      await sql`pragma synchronous = NORMAL`.execute(connection);
      try {
        return await write(connection);
      } finally {
        await sql`pragma synchronous = FULL`.execute(connection);
      }
    });
}
