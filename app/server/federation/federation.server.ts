import {
  type Context,
  createExponentialBackoffPolicy,
  createFederation,
  exportJwk,
  type Federation,
  generateCryptoKeyPair,
  importJwk,
  type KvStore,
  type MessageQueue,
} from "@fedify/fedify";
import {
  Accept,
  Announce,
  Article,
  Create,
  Delete,
  Endpoints,
  Follow,
  Hashtag,
  Image,
  LanguageString,
  Like,
  Person,
  PropertyValue,
  PUBLIC_COLLECTION,
  Tombstone,
  Undo,
  Update,
} from "@fedify/vocab";
import { Temporal as TemporalPolyfill } from "@js-temporal/polyfill";
import type { Logger } from "pino";
import en from "../../../locales/en/common.json" with { type: "json" };
import zh from "../../../locales/zh/common.json" with { type: "json" };
import type { DB } from "../db/db.server.ts";
import type { FederationActor } from "../db/schema.server.ts";
import { absolutizeUrls, postUrl } from "../feeds/feeds.server.ts";
import type { Env } from "../platform/env.server.ts";
import { newId } from "../platform/ids.server.ts";
import { iconUrl } from "../settings/icons.server.ts";
import { getSiteSetting, getSiteSettings, SOCIAL_NETWORKS, type SocialNetwork } from "../site/site-settings.server.ts";
import { type InboundData, onCreate, onDelete, onReaction, onUndoReaction, onUpdate } from "./inbound.server.ts";
import { isBlocked } from "./inbound-store.server.ts";
import { DatabaseKvStore } from "./kv.server.ts";
import {
  DELIVERY_ATTEMPTS,
  DELIVERY_RETRY_INITIAL_MS,
  FEDERATION_PATHS,
  federationHost,
  PERMANENT_FAILURE_STATUSES,
} from "./paths.server.ts";
import {
  actorKeys,
  addFollower,
  countFederatedPosts,
  countFollowers,
  type FederatedPostSource,
  federatedPostSources,
  followerRecipients,
  isFederationActor,
  removeFollower,
  saveActorKey,
} from "./store.server.ts";

/**
 * An instant as Fedify takes it. Fedify's types name the standard Temporal (lib
 * esnext.temporal) but Node 24 has none yet: values come from the polyfill Fedify uses itself.
 */
export function instant(iso?: string): Temporal.Instant {
  const value = iso === undefined ? TemporalPolyfill.Now.instant() : TemporalPolyfill.Instant.from(iso);
  return value as unknown as Temporal.Instant;
}

/** What Fedify hands every dispatcher and listener: the database, and how to say a post's pages changed. */
export type FederationData = InboundData;

export type InkwellFederation = Federation<FederationData>;

export const FOLLOWERS_PAGE = 100;

/** The BCP 47 tag each language's Articles carry in `contentMap`. */
export const LANGUAGE_TAGS: Record<FederationActor, string> = { en: "en", zh: "zh-Hans" };

export interface FederationOptions {
  db: DB;
  env: Env;
  log: Logger;
  queue: MessageQueue;
  /** Fedify's key–value store; the database's when not given. */
  kv?: KvStore;
  /** Told of each failed delivery attempt (the delivery log). */
  onOutboxError?: (error: Error) => void;
  /** Tests only (tests/setup/federation-server.ts): let Fedify fetch loopback addresses. */
  allowPrivateAddress?: boolean;
  /** The first retry of a failed delivery; each next one waits about twice as long. Tests shorten it. */
  retryInitialMs?: number;
}

type KeyPair = { publicKey: CryptoKey; privateKey: CryptoKey };

/**
 * The actor's key pairs (RSA for HTTP signatures, Ed25519 for object proofs), made and
 * stored the first time they are asked for; kept in memory afterwards (they never change).
 */
function keyPairsOf(db: DB): (actor: FederationActor) => Promise<KeyPair[]> {
  const memo = new Map<FederationActor, Promise<KeyPair[]>>();
  const load = async (actor: FederationActor): Promise<KeyPair[]> => {
    let stored = await actorKeys(db, actor);
    for (const algorithm of ["rsa", "ed25519"] as const) {
      if (stored.some((k) => k.algorithm === algorithm)) continue;
      const pair = await generateCryptoKeyPair(algorithm === "rsa" ? "RSASSA-PKCS1-v1_5" : "Ed25519");
      await saveActorKey(db, actor, {
        algorithm,
        publicJwk: await exportJwk(pair.publicKey),
        privateJwk: await exportJwk(pair.privateKey),
      });
    }
    stored = await actorKeys(db, actor);
    return Promise.all(
      stored.map(async (k) => ({
        publicKey: await importJwk(k.publicJwk, "public"),
        privateKey: await importJwk(k.privateJwk, "private"),
      })),
    );
  };
  return (actor) => {
    let pairs = memo.get(actor);
    if (!pairs) {
      pairs = load(actor);
      memo.set(actor, pairs);
      pairs.catch(() => memo.delete(actor));
    }
    return pairs;
  };
}

/** A hashtag's name as Mastodon links it: letters, digits and underscores only. */
export function hashtagName(name: string, slug: string): string {
  const cleaned = name.replace(/[^\p{L}\p{N}_]/gu, "");
  return cleaned || slug.replace(/[^\p{L}\p{N}_]/gu, "") || "tag";
}

/** An image's media type from its file name (the cover's URL); null when the extension says nothing. */
export function imageMediaType(url: string): string | null {
  const ext = /\.([a-z0-9]+)$/i.exec(url.split(/[?#]/, 1)[0] ?? "")?.[1]?.toLowerCase();
  const types: Record<string, string> = {
    jpg: "image/jpeg",
    jpeg: "image/jpeg",
    png: "image/png",
    webp: "image/webp",
    gif: "image/gif",
    avif: "image/avif",
    svg: "image/svg+xml",
  };
  return ext ? (types[ext] ?? null) : null;
}

/** An image of this site (a path) or elsewhere (an http(s) URL) as an absolute URL. */
function absoluteUrl(url: string, publicUrl: string): URL | null {
  try {
    const absolute = new URL(url, `${publicUrl}/`);
    return absolute.protocol === "https:" || absolute.protocol === "http:" ? absolute : null;
  } catch {
    return null;
  }
}

/** An `Image` object for `url`, with its media type and alt text when known. */
function imageObject(url: URL, alt: string | null): Image {
  return new Image({ url, mediaType: imageMediaType(url.pathname), name: alt?.trim() ? alt : null });
}

/** A post's translation as an ActivityStreams Article. */
export function buildArticle(ctx: Context<FederationData>, post: FederatedPostSource, publicUrl: string): Article {
  const actor = post.locale;
  const html = absolutizeUrls(post.bodyHtml, publicUrl);
  const cover = post.coverImageUrl ? absoluteUrl(post.coverImageUrl, publicUrl) : null;
  return new Article({
    id: ctx.getObjectUri(Article, { locale: post.locale, id: post.id }),
    attribution: ctx.getActorUri(actor),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(actor),
    name: post.title,
    summary: post.summary.trim() === "" ? null : post.summary,
    contents: [html, new LanguageString(html, LANGUAGE_TAGS[actor])],
    // The link readers follow from their timeline: tagged so Insights counts those reads.
    url: new URL(`${postUrl(publicUrl, post.locale, post.id)}?utm_source=fediverse`),
    published: instant(post.publishedAt),
    updated: post.updatedAt > post.publishedAt ? instant(post.updatedAt) : null,
    tags: post.tags.map(
      (t) =>
        new Hashtag({
          name: `#${hashtagName(t.name, t.slug)}`,
          href: new URL(`${publicUrl}/${post.locale}/tags/${encodeURIComponent(t.slug)}`),
        }),
    ),
    // The cover, as Mastodon shows it: the preview image and a media attachment.
    image: cover ? imageObject(cover, post.coverAlt) : null,
    attachments: cover ? [imageObject(cover, post.coverAlt)] : [],
  });
}

/** The links of a profile's attachment fields, as Mastodon renders them (rel="me" verifies them). */
function profileLink(href: string, text: string): string {
  const esc = (v: string) =>
    v.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  return `<a href="${esc(href)}" rel="me nofollow noopener noreferrer" target="_blank">${esc(text)}</a>`;
}

/**
 * The profile fields an actor shows (Mastodon's "attachment" of PropertyValues): the site in
 * that language, the other language's account, and the site's social links, each a rel="me" link.
 */
export function profileFields(opts: {
  actor: FederationActor;
  publicUrl: string;
  handles: Record<FederationActor, string>;
  socialLinks: Record<SocialNetwork, string>;
}): PropertyValue[] {
  const { actor, publicUrl, handles } = opts;
  const other: FederationActor = actor === "en" ? "zh" : "en";
  // The strings straight from the locale files (with import attributes: plain Node loads this too).
  const strings = actor === "en" ? en : zh;
  const home = `${publicUrl}/${actor}`;
  const host = federationHost(publicUrl);
  const otherHandle = `@${handles[other]}@${host}`;
  const fields = [
    new PropertyValue({
      name: strings.fediverse.profile.website,
      value: profileLink(home, home.replace(/^https?:\/\//, "")),
    }),
    new PropertyValue({
      name: strings.fediverse.profile.otherAccount[other],
      value: profileLink(`${publicUrl}/ap/actors/${other}`, otherHandle),
    }),
  ];
  for (const network of SOCIAL_NETWORKS) {
    const url = opts.socialLinks[network];
    if (!url) continue;
    fields.push(
      new PropertyValue({ name: strings.footer[network], value: profileLink(url, url.replace(/^https?:\/\//, "")) }),
    );
  }
  return fields;
}

export function createActivity(ctx: Context<FederationData>, article: Article, actor: FederationActor): Create {
  return new Create({
    id: new URL(`${article.id?.href}#create`),
    actor: ctx.getActorUri(actor),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(actor),
    object: article,
    published: article.published,
  });
}

export function updateActivity(ctx: Context<FederationData>, article: Article, actor: FederationActor): Update {
  return new Update({
    id: new URL(`${article.id?.href}#update-${newId()}`),
    actor: ctx.getActorUri(actor),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(actor),
    object: article,
    updated: instant(),
  });
}

export function deleteActivity(ctx: Context<FederationData>, postId: string, actor: FederationActor): Delete {
  const id = ctx.getObjectUri(Article, { locale: actor, id: postId });
  return new Delete({
    id: new URL(`${id.href}#delete-${newId()}`),
    actor: ctx.getActorUri(actor),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(actor),
    object: new Tombstone({ id, deleted: instant() }),
  });
}

/**
 * The Fedify federation of this blog: one actor per language (identifier "en" / "zh",
 * handle from the site settings), WebFinger, NodeInfo 2.1, inboxes, outbox, followers,
 * and the Articles; Follow is answered with Accept, Undo(Follow) removes the follower.
 */
export function createInkwellFederation(opts: FederationOptions): InkwellFederation {
  const { db, env, log, queue } = opts;
  const publicUrl = env.publicUrl;
  const keyPairs = keyPairsOf(db);
  const federation = createFederation<FederationData>({
    kv: opts.kv ?? new DatabaseKvStore(db),
    queue,
    manuallyStartQueue: true,
    origin: publicUrl,
    allowPrivateAddress: opts.allowPrivateAddress === true,
    userAgent: { software: "Inkwell/0.1", url: new URL(publicUrl) },
    outboxRetryPolicy: createExponentialBackoffPolicy({
      maxAttempts: DELIVERY_ATTEMPTS,
      initialDelay: { milliseconds: opts.retryInitialMs ?? DELIVERY_RETRY_INITIAL_MS },
    }),
    inboxRetryPolicy: createExponentialBackoffPolicy({ maxAttempts: 5 }),
    permanentFailureStatusCodes: PERMANENT_FAILURE_STATUSES,
    // Our own dead-server rule (deliveries.server.ts) replaces Fedify's circuit breaker: a held
    // delivery would look delivered to the delivery log.
    circuitBreaker: false,
    ...(opts.onOutboxError ? { onOutboxError: opts.onOutboxError } : {}),
  });

  federation
    .setActorDispatcher(FEDERATION_PATHS.actor, async (ctx, identifier) => {
      if (!isFederationActor(identifier)) return null;
      const settings = await getSiteSettings(ctx.data.db);
      const pairs = await ctx.getActorKeyPairs(identifier);
      // The brand (admin/brand): the avatar is the site icon's largest size (square, as
      // Mastodon shows avatars), else the logo, else the social image; the header is the social image.
      const picture = settings.socialImage ? absoluteUrl(settings.socialImage, publicUrl) : null;
      const { brand } = settings;
      const avatarPath = brand.icon ? iconUrl(brand.icon, "i512.png") : brand.logo || null;
      const avatar = avatarPath ? absoluteUrl(avatarPath, publicUrl) : picture;
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: settings.fediverse.handles[identifier],
        name: settings.siteName[identifier],
        summary: settings.siteDescription[identifier],
        url: new URL(`${publicUrl}/${identifier}`),
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        manuallyApprovesFollowers: false,
        discoverable: true,
        indexable: true,
        icon: avatar ? imageObject(avatar, null) : null,
        image: picture ? imageObject(picture, null) : null,
        attachments: profileFields({
          actor: identifier,
          publicUrl,
          handles: settings.fediverse.handles,
          socialLinks: settings.socialLinks,
        }),
        publicKey: pairs[0]?.cryptographicKey ?? null,
        assertionMethods: pairs.map((p) => p.multikey),
      });
    })
    .setKeyPairsDispatcher((_ctx, identifier) => (isFederationActor(identifier) ? keyPairs(identifier) : []))
    .mapHandle(async (ctx, username) => {
      const { handles } = await getSiteSetting(ctx.data.db, "fediverse");
      const lower = username.toLowerCase();
      if (handles.zh.toLowerCase() === lower) return "zh";
      if (handles.en.toLowerCase() === lower) return "en";
      return null;
    });

  federation
    .setFollowersDispatcher(FEDERATION_PATHS.followers, async (ctx, identifier, cursor) => {
      if (!isFederationActor(identifier) || cursor === null) return null;
      const offset = Number.parseInt(cursor, 10);
      if (!Number.isSafeInteger(offset) || offset < 0) return null;
      const rows = await followerRecipients(ctx.data.db, identifier, offset, FOLLOWERS_PAGE);
      return {
        items: rows.map((r) => ({
          id: new URL(r.followerUri),
          inboxId: new URL(r.inboxUrl),
          endpoints: r.sharedInboxUrl ? { sharedInbox: new URL(r.sharedInboxUrl) } : null,
        })),
        nextCursor: rows.length < FOLLOWERS_PAGE ? null : String(offset + rows.length),
      };
    })
    .setFirstCursor(() => "0")
    .setCounter((ctx, identifier) => (isFederationActor(identifier) ? countFollowers(ctx.data.db, identifier) : null));

  federation
    .setOutboxDispatcher(FEDERATION_PATHS.outbox, async (ctx, identifier, cursor) => {
      if (!isFederationActor(identifier) || cursor === null) return null;
      const offset = Number.parseInt(cursor, 10);
      if (!Number.isSafeInteger(offset) || offset < 0) return null;
      const posts = await federatedPostSources(ctx.data.db, {
        locale: identifier,
        limit: 20,
        offset,
      });
      return {
        items: posts.map((p) => createActivity(ctx, buildArticle(ctx, p, publicUrl), identifier)),
        nextCursor: posts.length < 20 ? null : String(offset + posts.length),
      };
    })
    .setFirstCursor(() => "0")
    // totalItems: Mastodon shows an account's post count from its outbox.
    .setCounter((ctx, identifier) =>
      isFederationActor(identifier) ? countFederatedPosts(ctx.data.db, identifier) : null,
    );

  federation.setObjectDispatcher(Article, FEDERATION_PATHS.article, async (ctx, values) => {
    if (!isFederationActor(values.locale)) return null;
    const [post] = await federatedPostSources(ctx.data.db, { postId: values.id, locale: values.locale });
    return post ? buildArticle(ctx, post, publicUrl) : null;
  });

  federation.setNodeInfoDispatcher(FEDERATION_PATHS.nodeinfo, async (ctx) => {
    const posts = await ctx.data.db
      .selectFrom("posts")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("status", "=", "published")
      .where("deletedAt", "is", null)
      .executeTakeFirstOrThrow();
    return {
      software: { name: "inkwell", version: "0.1.0", homepage: new URL(publicUrl) },
      protocols: ["activitypub"],
      openRegistrations: false,
      usage: {
        users: { total: 2, activeMonth: 2, activeHalfyear: 2 },
        localPosts: Number(posts.n),
        localComments: 0,
      },
    };
  });

  federation
    .setInboxListeners(FEDERATION_PATHS.inbox, FEDERATION_PATHS.sharedInbox)
    .on(Follow, async (ctx, follow) => {
      if (follow.id === null || follow.actorId === null || follow.objectId === null) return;
      const target = ctx.parseUri(follow.objectId);
      if (target?.type !== "actor" || !isFederationActor(target.identifier)) return;
      // A blocked actor or server: its Follow is ignored (no Accept, nothing stored).
      if (await isBlocked(ctx.data.db, follow.actorId.href)) return;
      const follower = await follow.getActor(ctx);
      if (follower === null || follower.id === null || follower.inboxId === null) return;
      // The signed request's actor is the one following (Fedify checked the key's owner).
      if (follower.id.href !== follow.actorId.href) return;
      const server = follower.id.host;
      await addFollower(ctx.data.db, {
        actor: target.identifier,
        followerUri: follower.id.href,
        inboxUrl: follower.inboxId.href,
        sharedInboxUrl: follower.endpoints?.sharedInbox?.href ?? null,
        handle: `@${follower.preferredUsername ?? "?"}@${server}`.slice(0, 300),
        name: String(follower.name ?? follower.preferredUsername ?? "").slice(0, 200),
        server,
      });
      await ctx.sendActivity(
        { identifier: target.identifier },
        follower,
        new Accept({
          id: new URL(`#accepts/${newId()}`, ctx.getActorUri(target.identifier)),
          actor: follow.objectId,
          object: follow,
        }),
      );
      log.info({ actor: target.identifier, follower: follower.id.href }, "new Fediverse follower");
    })
    .on(Create, (ctx, create) => onCreate(ctx, create, log))
    .on(Update, (ctx, update) => onUpdate(ctx, update))
    .on(Delete, (ctx, del) => onDelete(ctx, del))
    .on(Like, (ctx, like) => onReaction(ctx, like))
    .on(Announce, (ctx, announce) => onReaction(ctx, announce))
    .on(Undo, async (ctx, undo) => {
      const object = await undo.getObject(ctx);
      if (await onUndoReaction(ctx, undo, object)) return;
      if (!(object instanceof Follow) || undo.actorId === null || object.objectId === null) return;
      // Only the follower itself may undo its Follow.
      if (object.actorId?.href !== undo.actorId.href) return;
      const target = ctx.parseUri(object.objectId);
      if (target?.type !== "actor" || !isFederationActor(target.identifier)) return;
      if (await removeFollower(ctx.data.db, target.identifier, undo.actorId.href)) {
        log.info({ actor: target.identifier, follower: undo.actorId.href }, "Fediverse follower left");
      }
    })
    .onError((_ctx, error) => {
      log.warn({ err: error }, "could not handle an incoming activity");
    });

  return federation;
}
