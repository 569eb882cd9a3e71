import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseDatabaseUrl, parseEnv, storeAuthSecret } from "./env.server.ts";

const tmp = () => mkdtempSync(path.join(tmpdir(), "inkwell-env-"));

describe("parseEnv", () => {
  it("gives working defaults with nothing set but a data directory", () => {
    const dir = tmp();
    const env = parseEnv({ DATA_DIR: dir });
    expect(env.port).toBe(3000);
    expect(env.publicUrl).toBe("http://localhost:3000");
    expect(env.database).toEqual({ dialect: "sqlite", file: path.join(dir, "inkwell.db") });
    expect(env.trustProxy).toBe(false);
    expect(env.nodeEnv).toBe("production");
  });

  it("generates an auth secret once, keeps it private, and reuses it", () => {
    const dir = tmp();
    const first = parseEnv({ DATA_DIR: dir }).authSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, "auth-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(parseEnv({ DATA_DIR: dir }).authSecret).toBe(first);
  });

  it("adopts the secret another instance stored first, so both sign alike", () => {
    const dir = tmp();
    const file = path.join(dir, "auth-secret");
    const winner = "w".repeat(43);
    // The other instance's secret lands between this one's look and its write.
    writeFileSync(file, `${winner}\n`, { mode: 0o600 });
    expect(storeAuthSecret(file, "l".repeat(43))).toBe(winner);
    expect(readFileSync(file, "utf8").trim()).toBe(winner);
    expect(parseEnv({ DATA_DIR: dir }).authSecret).toBe(winner);
    // Nothing of the loser's is left beside it.
    expect(readdirSync(dir)).toEqual(["auth-secret"]);
  });

  it("stores its own secret when none is there, and replaces one too short to be ours", () => {
    const dir = tmp();
    const file = path.join(dir, "auth-secret");
    expect(storeAuthSecret(file, "a".repeat(43))).toBe("a".repeat(43));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileSync(file, "short\n");
    expect(storeAuthSecret(file, "b".repeat(43))).toBe("b".repeat(43));
    expect(readFileSync(file, "utf8").trim()).toBe("b".repeat(43));
    expect(readdirSync(dir)).toEqual(["auth-secret"]);
  });

  it("prefers AUTH_SECRET when set", () => {
    const secret = "s".repeat(40);
    expect(parseEnv({ DATA_DIR: tmp(), AUTH_SECRET: secret }).authSecret).toBe(secret);
  });

  it.each([
    [{ PORT: "seventy" }, /^PORT: /],
    [{ PORT: "70000" }, /^PORT: /],
    [{ PUBLIC_URL: "ftp://example.com" }, /^PUBLIC_URL: /],
    [{ LOG_LEVEL: "loud" }, /^LOG_LEVEL: /],
    [{ TRUST_PROXY: "maybe" }, /^TRUST_PROXY: must be true, false or a number/],
    [{ AUTH_SECRET: "short" }, /^AUTH_SECRET: must be at least 32 characters/],
    [{ DATABASE_URL: "mysql://root@localhost/x" }, /^DATABASE_URL: unsupported scheme/],
  ])("refuses %o with one line naming the variable", (vars, message) => {
    let error: unknown;
    try {
      parseEnv({ DATA_DIR: tmp(), ...vars });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("\n");
  });

  it("reads the password classes, and refuses unknown ones", () => {
    expect(parseEnv({ DATA_DIR: tmp(), PASSWORD_REQUIRE: "upper, digit,upper" }).passwordRequiredClasses).toEqual([
      "upper",
      "digit",
    ]);
    expect(parseEnv({ DATA_DIR: tmp() }).passwordRequiredClasses).toEqual([]);
    expect(() => parseEnv({ DATA_DIR: tmp(), PASSWORD_REQUIRE: "emoji" })).toThrow(/^PASSWORD_REQUIRE: /);
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATA_DIR: tmp(), PORT: "", PUBLIC_URL: "" }).port).toBe(3000);
  });

  it("reads TRUST_PROXY as a boolean or a hop count", () => {
    expect(parseEnv({ DATA_DIR: tmp(), TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(parseEnv({ DATA_DIR: tmp(), TRUST_PROXY: "2" }).trustProxy).toBe(2);
  });

  it("reads the storage settings: local by default, S3 with its bucket and both keys", () => {
    const dir = tmp();
    const env = parseEnv({ DATA_DIR: dir });
    expect(env.storage).toEqual({ driver: "local", root: path.join(dir, "uploads") });
    expect(env.uploadMaxBytes).toBe(10 * 1024 * 1024);
    const s3 = parseEnv({
      DATA_DIR: dir,
      STORAGE_DRIVER: "s3",
      S3_BUCKET: "my-media",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_PUBLIC_URL: "https://cdn.example/media/",
      S3_PREFIX: "site/",
    });
    expect(s3.storage).toMatchObject({
      driver: "s3",
      bucket: "my-media",
      publicUrl: "https://cdn.example/media",
      prefix: "site/",
    });
    expect(() => parseEnv({ DATA_DIR: dir, STORAGE_DRIVER: "s3" })).toThrow(/S3_BUCKET/);
    expect(() => parseEnv({ DATA_DIR: dir, STORAGE_DRIVER: "s3", S3_BUCKET: "Bad_Bucket" })).toThrow(/S3_BUCKET/);
    expect(() =>
      parseEnv({ DATA_DIR: dir, STORAGE_DRIVER: "s3", S3_BUCKET: "ok-bucket", S3_ACCESS_KEY_ID: "x" }),
    ).toThrow(/set together/);
  });

  it("retries storage for the spec's 2 and 10 minutes unless told otherwise", () => {
    expect(parseEnv({ DATA_DIR: tmp() }).storageRetry).toEqual({ deadlineMs: 120_000, uploadDeadlineMs: 600_000 });
    expect(
      parseEnv({ DATA_DIR: tmp(), STORAGE_RETRY_SECONDS: "30", STORAGE_UPLOAD_RETRY_SECONDS: "90" }).storageRetry,
    ).toEqual({ deadlineMs: 30_000, uploadDeadlineMs: 90_000 });
    expect(() => parseEnv({ DATA_DIR: tmp(), STORAGE_RETRY_SECONDS: "0" })).toThrow(/STORAGE_RETRY_SECONDS/);
  });

  it("sends 60 mails a minute unless told otherwise, and never none", () => {
    expect(parseEnv({ DATA_DIR: tmp() }).mailRatePerMinute).toBe(60);
    expect(parseEnv({ DATA_DIR: tmp(), MAIL_RATE_PER_MINUTE: "600" }).mailRatePerMinute).toBe(600);
    expect(() => parseEnv({ DATA_DIR: tmp(), MAIL_RATE_PER_MINUTE: "0" })).toThrow(/MAIL_RATE_PER_MINUTE/);
  });

  it("refuses local storage for several instances, with a clear message", () => {
    expect(() => parseEnv({ DATA_DIR: tmp(), INSTANCE_COUNT: "2" })).toThrow(
      /local disk cannot be shared by several instances/,
    );
    expect(
      parseEnv({ DATA_DIR: tmp(), INSTANCE_COUNT: "2", STORAGE_DRIVER: "s3", S3_BUCKET: "media" }).instanceCount,
    ).toBe(2);
  });

  it("keeps shared state in the database unless REDIS_URL is a redis URL", () => {
    expect(parseEnv({ DATA_DIR: tmp() }).redis).toBeNull();
    expect(parseEnv({ DATA_DIR: tmp(), REDIS_URL: "redis://cache:6379/2" }).redis).toEqual({
      url: "redis://cache:6379/2",
      prefix: "inkwell:",
    });
    expect(parseEnv({ DATA_DIR: tmp(), REDIS_URL: "rediss://cache", REDIS_PREFIX: "site-b:" }).redis?.prefix).toBe(
      "site-b:",
    );
    expect(() => parseEnv({ DATA_DIR: tmp(), REDIS_URL: "http://cache:6379" })).toThrow(/REDIS_URL/);
    expect(() => parseEnv({ DATA_DIR: tmp(), REDIS_URL: "redis://cache", REDIS_PREFIX: "a b" })).toThrow(
      /REDIS_PREFIX/,
    );
  });

  it("reads the WalletConnect relay: the official one by default, ws(s) URLs only", () => {
    const plain = parseEnv({ DATA_DIR: tmp() });
    expect(plain.walletConnectRelayUrl).toBe("wss://relay.walletconnect.org");
    expect(plain.walletConnectProjectId).toBeNull();
    const local = parseEnv({
      DATA_DIR: tmp(),
      WALLETCONNECT_PROJECT_ID: "abc123def456",
      WALLETCONNECT_RELAY_URL: "ws://127.0.0.1:4100/",
    });
    expect(local.walletConnectRelayUrl).toBe("ws://127.0.0.1:4100");
    expect(local.walletConnectProjectId).toBe("abc123def456");
    expect(() => parseEnv({ DATA_DIR: tmp(), WALLETCONNECT_RELAY_URL: "https://relay.example" })).toThrow(
      /WALLETCONNECT_RELAY_URL/,
    );
    expect(() => parseEnv({ DATA_DIR: tmp(), WALLETCONNECT_RELAY_URL: "wss://u:p@relay.example" })).toThrow(
      /WALLETCONNECT_RELAY_URL/,
    );
  });

  it("strips a trailing slash from PUBLIC_URL", () => {
    expect(parseEnv({ DATA_DIR: tmp(), PUBLIC_URL: "https://blog.example.com/" }).publicUrl).toBe(
      "https://blog.example.com",
    );
  });
});

describe("parseDatabaseUrl", () => {
  it("switches to PostgreSQL for postgres:// and postgresql:// URLs", () => {
    expect(parseDatabaseUrl("postgres://u@h/db", "/d")).toEqual({
      dialect: "postgres",
      connectionString: "postgres://u@h/db",
    });
    expect(parseDatabaseUrl("postgresql://u@h/db", "/d").dialect).toBe("postgres");
  });

  it("takes file paths, file: and sqlite: URLs as SQLite", () => {
    expect(parseDatabaseUrl("./x.db", "/d")).toEqual({ dialect: "sqlite", file: path.resolve("./x.db") });
    expect(parseDatabaseUrl("file:/var/lib/blog.db", "/d")).toEqual({ dialect: "sqlite", file: "/var/lib/blog.db" });
    expect(parseDatabaseUrl("sqlite::memory:", "/d")).toEqual({ dialect: "sqlite", file: ":memory:" });
  });
});
