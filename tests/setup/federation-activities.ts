import { Create, Delete, Like, Note, PUBLIC_COLLECTION, Tombstone, Undo, Update } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { FediversePeer, PeerUser } from "./fediverse-peer.ts";

// What the Fedify peer (fediverse-peer.ts) sends the blog in the federation journeys
// (tests/integration/federation.test.ts): replies as notes, and likes, undos, edits,
// deletions and creates, each by one of the peer's accounts with a new id on the peer; and
// alice's activities as raw JSON for the requests the tests sign or forge themselves.

export interface PeerActivities {
  /** A public reply by `who` to `inReplyTo`: a new note, or a new version of the note `id`. */
  reply(who: PeerUser, inReplyTo: string, content: string, id?: URL): Note;
  like(who: PeerUser, object: URL): Like;
  undo(who: PeerUser, object: Like): Undo;
  edit(who: PeerUser, object: Note): Update;
  deletion(who: PeerUser, noteId: URL | null): Delete;
  /** `object` created by the actor `by`: under `id`, else under the note's id with `#create`. */
  create(by: URL, object: Note, id?: URL): Create;
  /**
   * An activity by alice as raw JSON, for a request the test signs (or forges) itself:
   * `type` of `object`, its id `#{fragment}` on alice's URL.
   */
  aliceJson(fragment: string, type: string, object: string): string;
}

/** The builders for `peer()`, read when an activity is built (the peer starts in a hook). */
export function peerActivities(peer: () => FediversePeer): PeerActivities {
  return {
    reply(who, inReplyTo, content, id = peer().newId(who, "statuses")) {
      return new Note({
        id,
        attribution: peer().actorUri(who),
        to: PUBLIC_COLLECTION,
        replyTarget: new URL(inReplyTo),
        content,
        url: new URL(`${id.href}/page`),
        published: Temporal.Now.instant() as unknown as globalThis.Temporal.Instant,
      });
    },
    like: (who, object) => new Like({ id: peer().newId(who, "likes"), actor: peer().actorUri(who), object }),
    undo: (who, object) => new Undo({ id: peer().newId(who, "undo"), actor: peer().actorUri(who), object }),
    edit: (who, object) => new Update({ id: peer().newId(who, "activities"), actor: peer().actorUri(who), object }),
    deletion: (who, noteId) =>
      new Delete({
        id: peer().newId(who, "activities"),
        actor: peer().actorUri(who),
        object: new Tombstone({ id: noteId }),
      }),
    create: (by, object, id) =>
      new Create({ id: id ?? new URL(`${object.id?.href}#create`), actor: by, object, to: PUBLIC_COLLECTION }),
    aliceJson: (fragment, type, object) =>
      JSON.stringify({
        "@context": "https://www.w3.org/ns/activitystreams",
        id: `${peer().url}/users/alice#${fragment}`,
        type,
        actor: `${peer().url}/users/alice`,
        object,
      }),
  };
}
