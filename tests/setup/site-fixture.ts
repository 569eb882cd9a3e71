import type { DB } from "../../app/server/db/db.server.ts";

/**
 * A little of everything, for the backup and export tests: a row or more in every
 * table a logical copy moves, including a reply (parents must load first),
 * Chinese text, a password account and an OAuth account with tokens.
 */
export async function fillSite(db: DB): Promise<void> {
  const t = "2026-11-20T10:00:00.000Z";
  const at = { createdAt: t, updatedAt: t };
  await db
    .insertInto("users")
    .values([
      {
        id: "u1",
        name: "Ada",
        email: "ada@example.com",
        emailVerified: 1,
        image: null,
        banned: 0,
        bannedAt: null,
        ...at,
      },
      { id: "u2", name: "李雷", email: "li@example.com", emailVerified: 1, image: null, banned: 1, bannedAt: t, ...at },
    ])
    .execute();
  const account = {
    accessToken: null,
    refreshToken: null,
    idToken: null,
    accessTokenExpiresAt: null,
    refreshTokenExpiresAt: null,
    scope: null,
    password: null,
    ...at,
  };
  await db
    .insertInto("accounts")
    .values([
      { ...account, id: "a1", accountId: "u1", providerId: "credential", userId: "u1", password: "scrypt$hash" },
      { ...account, id: "a2", accountId: "gh-42", providerId: "github", userId: "u2", accessToken: "gho_secret" },
    ])
    .execute();
  await db
    .insertInto("sessions")
    .values({ id: "s1", expiresAt: t, token: "tok", ipAddress: null, userAgent: null, userId: "u1", ...at })
    .execute();
  await db
    .insertInto("verifications")
    .values({ id: "v1", identifier: "x", value: "y", expiresAt: t, ...at })
    .execute();
  await db
    .insertInto("admins")
    .values({ email: "ada@example.com", source: "cli", ...at })
    .execute();
  await db
    .insertInto("siteSettings")
    .values({ key: "siteName", value: '"墨水 Inkwell"', ...at })
    .execute();
  await db
    .insertInto("subscribers")
    .values({
      id: "sub1",
      email: "r@example.com",
      locale: "zh",
      status: "confirmed",
      confirmTokenHash: "c1",
      unsubscribeTokenHash: "u1",
      confirmedAt: t,
      unsubscribedAt: null,
      ...at,
    })
    .execute();
  await db
    .insertInto("categories")
    .values({ id: "c1", slug: "notes", nameEn: "Notes", nameZh: "笔记", ...at })
    .execute();
  await db
    .insertInto("tags")
    .values({ id: "t1", slug: "db", nameEn: "Databases", nameZh: "数据库", ...at })
    .execute();
  await db
    .insertInto("series")
    .values({ id: "s1", slug: "first-steps", nameEn: "First steps", nameZh: "入门", descriptionEn: "In order.", ...at })
    .execute();
  await db
    .insertInto("posts")
    .values({
      id: "p1",
      slug: "hello",
      authorId: "u1",
      status: "published",
      publishedAt: t,
      categoryId: "c1",
      coverImageId: null,
      seriesId: "s1",
      seriesPosition: 1,
      ...at,
    })
    .execute();
  const tr = { postId: "p1", seoTitle: null, seoDescription: null, ...at };
  await db
    .insertInto("postTranslations")
    .values([
      { ...tr, locale: "en", title: "Hello", summary: "First", bodyMarkdown: "# Hi", bodyHtml: "<h1>Hi</h1>" },
      { ...tr, locale: "zh", title: "你好", summary: "第一篇", bodyMarkdown: "# 你好", bodyHtml: "<h1>你好</h1>" },
    ])
    .execute();
  await db.insertInto("postTags").values({ postId: "p1", tagId: "t1" }).execute();
  await db
    .insertInto("postRevisions")
    .values({
      id: "r1",
      postId: "p1",
      authorId: "u1",
      kind: "saved",
      status: "published",
      slug: "hello",
      publishedAt: null,
      categoryId: null,
      tags: '["Tag"]',
      coverImageUrl: null,
      coverAlt: "",
      translations: JSON.stringify({ en: { title: "Hello", summary: "", bodyMarkdown: "# Hello" } }),
      seriesId: "s1",
      seriesPosition: 1,
      ...at,
    })
    .execute();
  // The reply's id sorts before its parent's: loading in key order alone would fail.
  await db
    .insertInto("comments")
    .values([
      {
        id: "k9",
        postId: "p1",
        authorId: "u2",
        parentId: null,
        bodyMarkdown: "Nice",
        bodyHtml: "<p>Nice</p>",
        status: "approved",
        ...at,
      },
      {
        id: "k1",
        postId: "p1",
        authorId: "u1",
        parentId: "k9",
        bodyMarkdown: "谢谢",
        bodyHtml: "<p>谢谢</p>",
        status: "pending",
        ...at,
      },
    ])
    .execute();
  await db
    .insertInto("swapers")
    .values({
      id: "w1",
      titleEn: "Slide",
      titleZh: "幻灯片",
      imageUrl: "/media/m1/640.webp",
      linkUrl: null,
      startsAt: null,
      endsAt: null,
      ...at,
    })
    .execute();
  await db
    .insertInto("links")
    .values({ id: "l1", name: "Friend", url: "https://friend.example", logoUrl: null, ...at })
    .execute();
  await db
    .insertInto("redirects")
    .values({
      id: "r1",
      fromPath: "/2019/05/旧文章",
      toPath: "/posts/detail/p1",
      status: 301,
      hits: 4,
      lastHitAt: t,
      source: "import:wordpress",
      ...at,
    })
    .execute();
  await db
    .insertInto("ads")
    .values({
      id: "ad1",
      placement: "home_top",
      kind: "text",
      title: "Ad",
      imageUrl: null,
      linkUrl: "https://ad.example",
      startsAt: null,
      endsAt: null,
      impressions: 7,
      ...at,
    })
    .execute();
  await db
    .insertInto("media")
    .values({
      id: "m1",
      originalName: "猫.jpg",
      bucket: "local",
      name: "m1/main.jpg",
      fullPath: "local/m1/main.jpg",
      size: 3,
      md5Hash: "x",
      generation: "1",
      contentType: "image/jpeg",
      cacheControl: "public",
      width: 1,
      height: 1,
      uploadedBy: "u1",
      ...at,
    })
    .execute();
  await db
    .insertInto("auditLog")
    .values({
      id: "log1",
      actorId: "u1",
      actorEmail: "ada@example.com",
      action: "post.create",
      entityType: "post",
      entityId: "p1",
      ...at,
    })
    .execute();
  await db
    .insertInto("contactMessages")
    .values({ id: "cm1", name: "R", email: "r@example.com", message: "你好", locale: "zh", ipAddress: null, ...at })
    .execute();
}
