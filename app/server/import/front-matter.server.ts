import { lazyModule } from "../platform/lazy-module.server.ts";

// Only a Markdown import reads front matter: the parsers load then, not at boot.
const yamlModule = lazyModule(() => import("yaml"));
const tomlModule = lazyModule(() => import("smol-toml"));

// Front matter of a Markdown post: YAML between `---` lines (Jekyll, Hexo, Hugo, Astro), TOML
// between `+++` lines (Hugo) or a JSON object opening the file (Hugo). Hostile input fails with a
// code, never a crash or a hang: the block's size is capped before parsing, YAML aliases are
// capped (a "billion laughs" document is refused), and only plain data comes back.

/** The largest front matter block read; a longer one is refused unparsed. */
export const FRONT_MATTER_MAX_BYTES = 64 * 1024;
/** YAML aliases allowed in one block: real front matter uses none. */
const YAML_MAX_ALIASES = 50;

export type FrontMatterFormat = "yaml" | "toml" | "json" | "none";

export type FrontMatterErrorCode =
  | "frontMatterTooLarge"
  | "frontMatterUnclosed"
  | "frontMatterInvalid"
  | "frontMatterAliases";

export class FrontMatterError extends Error {
  override name = "FrontMatterError";
  readonly code: FrontMatterErrorCode;
  constructor(code: FrontMatterErrorCode, detail: string) {
    super(detail);
    this.code = code;
  }
}

export interface FrontMatter {
  format: FrontMatterFormat;
  data: Record<string, unknown>;
  body: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** The block between an opening fence line and the next line that is exactly the fence. */
function fenced(text: string, fence: string): { block: string; body: string } | null {
  const open = new RegExp(`^${fence.replace(/[+]/g, "\\+")}[ \\t]*\\r?\\n`);
  const first = open.exec(text);
  if (!first) return null;
  const rest = text.slice(first[0].length);
  const close = new RegExp(`^${fence.replace(/[+]/g, "\\+")}[ \\t]*$`, "m");
  const end = close.exec(rest.slice(0, FRONT_MATTER_MAX_BYTES + fence.length + 2));
  if (!end) {
    if (rest.length > FRONT_MATTER_MAX_BYTES)
      throw new FrontMatterError("frontMatterTooLarge", "front matter over 64 KiB");
    throw new FrontMatterError("frontMatterUnclosed", `no closing ${fence}`);
  }
  const block = rest.slice(0, end.index);
  const body = rest.slice(end.index + end[0].length).replace(/^\r?\n/, "");
  return { block, body };
}

/** The JSON object opening a file (Hugo): up to the first line that is just `}`. */
function jsonBlock(text: string): { block: string; body: string } | null {
  if (!text.startsWith("{")) return null;
  const end = /^\}[ \t]*$/m.exec(text.slice(0, FRONT_MATTER_MAX_BYTES + 2));
  if (!end) {
    if (text.length > FRONT_MATTER_MAX_BYTES)
      throw new FrontMatterError("frontMatterTooLarge", "front matter over 64 KiB");
    throw new FrontMatterError("frontMatterUnclosed", "no closing }");
  }
  const stop = end.index + 1;
  return { block: text.slice(0, stop), body: text.slice(stop).replace(/^[ \t]*\r?\n/, "") };
}

async function parseBlock(format: Exclude<FrontMatterFormat, "none">, block: string): Promise<unknown> {
  // Loaded outside the try: a parser that cannot be loaded is the server's fault, not the file's.
  const yaml = format === "yaml" ? await yamlModule() : null;
  const toml = format === "toml" ? await tomlModule() : null;
  try {
    if (yaml) return yaml.parse(block, { maxAliasCount: YAML_MAX_ALIASES, uniqueKeys: false, logLevel: "error" });
    if (toml) return toml.parse(block);
    return JSON.parse(block);
  } catch (error) {
    const detail = (error instanceof Error ? error.message : String(error)).split("\n")[0]?.slice(0, 200) ?? "";
    if (/alias/i.test(detail)) throw new FrontMatterError("frontMatterAliases", detail);
    throw new FrontMatterError("frontMatterInvalid", detail);
  }
}

/** Splits a Markdown file into its front matter (as plain data) and its body. */
export async function readFrontMatter(text: string): Promise<FrontMatter> {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const attempts: Array<[Exclude<FrontMatterFormat, "none">, () => { block: string; body: string } | null]> = [
    ["yaml", () => fenced(source, "---")],
    ["toml", () => fenced(source, "+++")],
    ["json", () => jsonBlock(source)],
  ];
  for (const [format, find] of attempts) {
    const found = find();
    if (!found) continue;
    if (Buffer.byteLength(found.block) > FRONT_MATTER_MAX_BYTES)
      throw new FrontMatterError("frontMatterTooLarge", "front matter over 64 KiB");
    const data = found.block.trim() === "" ? {} : await parseBlock(format, found.block);
    if (data === null || data === undefined) return { format, data: {}, body: found.body };
    if (!isRecord(data)) throw new FrontMatterError("frontMatterInvalid", "front matter is not a set of fields");
    return { format, data, body: found.body };
  }
  return { format: "none", data: {}, body: source };
}
