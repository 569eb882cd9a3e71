import type { Kysely } from "kysely";

// Accounts (better-auth's core tables, plural names), admins, rate-limit counters
// and the first-run setup tokens. Frozen once merged.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("emailVerified", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("image", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("expiresAt", "text", (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("ipAddress", "text")
    .addColumn("userAgent", "text")
    .addColumn("userId", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_userId_idx").on("sessions").column("userId").execute();

  await db.schema
    .createTable("accounts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("accountId", "text", (c) => c.notNull())
    .addColumn("providerId", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("accessToken", "text")
    .addColumn("refreshToken", "text")
    .addColumn("idToken", "text")
    .addColumn("accessTokenExpiresAt", "text")
    .addColumn("refreshTokenExpiresAt", "text")
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("accounts_userId_idx").on("accounts").column("userId").execute();
  await db.schema
    .createIndex("accounts_provider_account_idx")
    .on("accounts")
    .columns(["providerId", "accountId"])
    .unique()
    .execute();

  await db.schema
    .createTable("verifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expiresAt", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("verifications_identifier_idx").on("verifications").column("identifier").execute();

  // Admins, keyed by normalised (trimmed, lower-case) e-mail (spec: collection `admins`).
  await db.schema
    .createTable("admins")
    .addColumn("email", "text", (c) => c.primaryKey())
    .addColumn("source", "text", (c) => c.notNull().defaultTo("cli"))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();

  // Fixed-window counters for every rate limit (ours and better-auth's), shared by instances.
  await db.schema
    .createTable("rateLimits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("windowStart", "bigint", (c) => c.notNull())
    .addColumn("expiresAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("rateLimits_expiresAt_idx").on("rateLimits").column("expiresAt").execute();

  // One-time links that create the first admin account.
  await db.schema
    .createTable("setupTokens")
    .addColumn("tokenHash", "text", (c) => c.primaryKey())
    .addColumn("expiresAt", "text", (c) => c.notNull())
    .addColumn("usedAt", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["setupTokens", "rateLimits", "admins", "verifications", "accounts", "sessions", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
