/**
 * Use cases of live editing: who may open a change request's page as a shared document (and
 * whether to write or only read), the page's markdown it starts from, and the markdown it
 * writes back through the change request's one write path, crediting everyone who typed; and
 * the storage of the shared documents' Yjs state and updates (opaque bytes here).
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors } from "@quire/kernel"
import { flattenPages, markdownWithFrontmatter } from "@quire/content"
import { ChangeRequests, type ChangeRequestView } from "./ChangeRequests.ts"
import { ChangeRequestsRepo } from "./ChangeRequestsRepo.ts"
import { createHash } from "node:crypto"
import { type CollabAgreement, type CollabDocumentKey, type CollabUpdate, CollabUpdatesRepo, type StoredCollabDocument } from "./CollabUpdatesRepo.ts"
import { StoredLiveMarkdown } from "./StoredLiveMarkdown.ts"
import type { UnreadableLiveDocument } from "./domain/LiveDocumentErrors.ts"

/** What a person may do in a shared document: type, or only watch. */
export type LiveAccess = "edit" | "view"

/** A shared document as its caller opens it. */
export interface OpenedPage {
  readonly key: CollabDocumentKey
  readonly access: LiveAccess
  /** The page's markdown in the change request's head, frontmatter included, as the editor reads it. */
  readonly markdown: string
}

/** `<changeRequestId>/<pageId>`, each an id of letters, digits, `_` or `-`. */
const namePattern = /^([A-Za-z0-9_-]{1,64})\/([A-Za-z0-9_-]{1,64})$/

/** `<changeRequestId>/~presence`: `~` is in no id, so no page's document has this name. */
const presencePattern = /^([A-Za-z0-9_-]{1,64})\/~presence$/

/**
 * The name of a change request's presence document: it holds no page, only the awareness of
 * everyone who has the change request open (who they are, which page they are on), and is never
 * stored.
 */
export const presenceName = (changeRequestId: string): string => `${changeRequestId}/~presence`

/** The change request whose presence document `name` is; none for any other name. */
export const presenceOf = (name: string): Option.Option<string> => {
  const match = presencePattern.exec(name)
  return match === null ? Option.none() : Option.some(match[1]!)
}

/** The page's markdown and the document's, as one compares them with their last agreement. */
export interface MarkdownPair {
  readonly page: string
  readonly doc: string
}

/**
 * How a stored document stands against its page: `agreed` as when they last agreed; `unwritten`
 * when only the document changed (edits not yet written to the page); `changed-elsewhere` when
 * only the page did (another writer); `diverged` when both did.
 */
export type Standing = "agreed" | "unwritten" | "changed-elsewhere" | "diverged"

const sha = (text: string) => createHash("sha256").update(text).digest("hex")

const agreementOf = (pair: MarkdownPair): CollabAgreement => ({ pageSha: sha(pair.page), docSha: sha(pair.doc) })

/** A page hash no page has: an agreement that says the page moved since, whatever it holds. */
const unmatched = "merged-with-another-write"

/** Where a stored document stands against its page now. */
export const standing = (stored: CollabAgreement, now: MarkdownPair): Standing => {
  const pageMoved = sha(now.page) !== stored.pageSha
  const docMoved = sha(now.doc) !== stored.docSha
  return pageMoved ? (docMoved ? "diverged" : "changed-elsewhere") : docMoved ? "unwritten" : "agreed"
}

/** Whether the document's markdown `doc` is the one its stored agreement with the page records. */
export const agreesWith = (stored: CollabAgreement, doc: string): boolean => sha(doc) === stored.docSha

/** Typing needs edit permission on a change request still open to edits (a draft or open one); else one only watches. */
const accessOf = (view: Pick<ChangeRequestView, "access" | "changeRequest">): LiveAccess =>
  view.access.permissions.edit && (view.changeRequest.status === "draft" || view.changeRequest.status === "open") ? "edit" : "view"

/**
 * What a person may do in a change request's shared document now, and, when they may not type,
 * why: the change request `merged` or `archived`, their `role` only lets them read; or, when they
 * may not even watch, the page `page-deleted` from the change request, or the change request
 * `gone` for them (removed from the space, or never visible to them).
 */
export type LiveCheck =
  | { readonly access: "edit" }
  | { readonly access: "view"; readonly because: "merged" | "archived" | "role"; readonly by?: string | undefined }
  | { readonly access: "none"; readonly because: "page-deleted" | "gone" }

const checkOf = (view: Pick<ChangeRequestView, "access" | "changeRequest">): LiveCheck => {
  const { status, mergedBy } = view.changeRequest
  return accessOf(view) === "edit" ? { access: "edit" }
    : status === "merged" ? { access: "view", because: "merged", by: mergedBy ?? undefined }
    : status === "archived" ? { access: "view", because: "archived" }
    : { access: "view", because: "role" }
}

export interface LiveDocumentsShape {
  /** The ids a document name stands for; InvalidInput naming `documentName` when it is not one. */
  readonly parseName: (name: string) => Effect.Effect<{ readonly changeRequestId: string; readonly pageId: string }, Errors.InvalidInput>
  /** The page for the caller: NotFound when they cannot view it, or it is not a document of the change request. */
  readonly open: (changeRequestId: string, pageId: string) => Effect.Effect<OpenedPage, Errors.NotFound, Actor.Actor>
  /** What the caller may do now: `edit`, `view`, or nothing (none). */
  readonly access: (changeRequestId: string) => Effect.Effect<Option.Option<LiveAccess>, never, Actor.Actor>
  /**
   * What the caller may do now in the document of `pageId` (the change request alone when none),
   * and why not more: checked again while connected, to close or stop a connection in words.
   */
  readonly check: (changeRequestId: string, pageId?: string) => Effect.Effect<LiveCheck, never, Actor.Actor>
  /** The page's markdown in the change request's head now. */
  readonly markdown: (changeRequestId: string, pageId: string) => Effect.Effect<string, Errors.NotFound, Actor.Actor>
  /**
   * Writes the page's markdown as one revision of the change request, the caller and `coauthors`
   * credited as contributors (nothing when it is already the page's markdown), and records that
   * the document and the page agree, the page holding its stored updates up to the id `through`
   * (those the document held when its markdown was taken; none: unchanged); answers the page's
   * markdown after it.
   */
  readonly write: (
    key: CollabDocumentKey,
    markdown: string,
    coauthors: ReadonlyArray<string>,
    through?: number
  ) => Effect.Effect<string, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /**
   * Writes each of the change request's stored documents that is ahead of its page (`unwritten`:
   * acknowledged edits the debounced write back, or a server stopped first, did not write yet)
   * as `write` does, its markdown made from the stored state and updates (StoredLiveMarkdown),
   * whether or not a server holds it open; answers how many it wrote.
   */
  readonly writeUnwritten: (
    changeRequestId: string
  ) => Effect.Effect<number, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /** The stored document: its state and the updates stored since. */
  readonly stored: (name: string) => Effect.Effect<Option.Option<StoredCollabDocument>>
  /** Stores a document's first state, made from the page, unless another server stored one first; whether this call did. */
  readonly storeInitial: (key: CollabDocumentKey, state: Uint8Array, made: MarkdownPair) => Effect.Effect<boolean>
  /**
   * Records that the document now agrees with the page as `made`, only if the page's hash is still
   * the one `stored` agreed with: the one server that brings a write from elsewhere into the
   * document claims it so; false when another server did first.
   */
  readonly claim: (stored: StoredCollabDocument, made: MarkdownPair) => Effect.Effect<boolean>
  /** Replaces a stored document by one made anew from the page (its updates dropped). */
  readonly storeReset: (name: string, state: Uint8Array, made: MarkdownPair) => Effect.Effect<void>
  /** Stores an update of a stored document, sent by the user `author` (none: the server's own); committed when this succeeds, which answers its id. */
  readonly storeUpdate: (name: string, update: Uint8Array, author?: string) => Effect.Effect<string>
  /**
   * Of a stored document's updates, those a write may take now: those its page holds already
   * and, of the later ones, those whose author may edit the change request now (the server's own
   * kept); with the authors of those (`editors`) and of the ones left out (`leftOut`).
   */
  readonly editorsOnly: (stored: StoredCollabDocument) => Effect.Effect<{
    readonly updates: ReadonlyArray<CollabUpdate>
    readonly editors: ReadonlyArray<string>
    readonly leftOut: ReadonlyArray<string>
  }>
  /** Replaces the state at `version` by `state`, which holds the updates `merged`; false when another server did first. */
  readonly storeCompacted: (name: string, version: number, state: Uint8Array, merged: ReadonlyArray<string>) => Effect.Effect<boolean>
}

export class LiveDocuments extends Context.Service<LiveDocuments, LiveDocumentsShape>()("@quire/reviews/LiveDocuments") {
  static readonly layer = Layer.effect(
    LiveDocuments,
    Effect.gen(function*() {
      const changeRequests = yield* ChangeRequests
      const repo = yield* ChangeRequestsRepo
      const storage = yield* CollabUpdatesRepo
      const markdownOf = yield* StoredLiveMarkdown
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const spaceOf = (changeRequestId: string) =>
        Effect.flatMap(repo.find(changeRequestId), (found) =>
          Option.isSome(found) ? Effect.succeed(found.value.spaceId) : Effect.fail(new Errors.NotFound({ resource: "Change request", id: changeRequestId })))

      const pageOf = Effect.fnUntraced(function*(changeRequestId: string, pageId: string) {
        const spaceId = yield* spaceOf(changeRequestId)
        const found = yield* changeRequests.page(spaceId, changeRequestId, pageId)
        if (found.page.type !== "document") return yield* new Errors.NotFound({ resource: "Page", id: pageId })
        return { spaceId, found, markdown: markdownWithFrontmatter(found.page, found.revision.files, found.markdown ?? "") }
      })

      const write = Effect.fn("LiveDocuments.write")(function*(key: CollabDocumentKey, markdown: string, coauthors: ReadonlyArray<string>, through?: number) {
        const page = yield* pageOf(key.changeRequestId, key.pageId)
        const base = page.found.revision.id
        let written = page.markdown
        let mergedWithOthers = false
        if (written !== markdown) {
          const change = { operation: "update_page" as const, page: key.pageId, markdown }
          // Written against the revision just read: a write from elsewhere committed in between is
          // merged three-way with this one, never written over.
          yield* changeRequests.updateContent(page.spaceId, key.changeRequestId, [change], { coauthors, live: key.name, baseRevision: base })
          // The page as stored may differ from what was written (a leading heading becomes the title).
          const after = yield* pageOf(key.changeRequestId, key.pageId)
          written = after.markdown
          mergedWithOthers = after.found.revision.parents[0] !== base
        }
        // Merged with another write, the page holds more than the document: the agreement is left
        // unmatched, so that the document brings that write in as a change from elsewhere.
        const agreement = agreementOf({ page: written, doc: markdown })
        yield* storage.agree(key.name, mergedWithOthers ? { ...agreement, pageSha: unmatched } : agreement, through, yield* now)
        return written
      })

      /**
       * Of a stored document's updates, those its page holds already (written through) and, of
       * the later ones, those whose author has the right to edit the change request now (the
       * server's own, with no author, kept); and those authors, and those left out. Someone whose
       * access was removed while their socket stayed open for a moment had updates acknowledged
       * that they had no right to, and what they typed then must not reach the page.
       */
      const byEditors = Effect.fnUntraced(function*(stored: StoredCollabDocument) {
        const later = stored.updates.filter((u) => Number(u.id) > stored.writtenThrough)
        const editors: Array<string> = []
        for (const author of new Set(later.flatMap((u) => (u.author === undefined ? [] : [u.author])))) {
          const view = yield* Effect.option(changeRequests.get(stored.spaceId, stored.changeRequestId)).pipe(
            Effect.provideService(Actor.Actor, Actor.Actor.of({ userId: author, instanceAdmin: false }))
          )
          // Their own right, whatever the change request's status: a merge leaves its typists their words.
          if (Option.isSome(view) && view.value.access.permissions.edit) editors.push(author)
        }
        const kept = (u: CollabUpdate) => Number(u.id) <= stored.writtenThrough || u.author === undefined || editors.includes(u.author)
        const leftOut = Array.from(new Set(later.flatMap((u) => (kept(u) ? [] : [u.author!]))))
        return { updates: stored.updates.filter(kept), editors, leftOut }
      })

      /**
       * A stored document the codec cannot read (stored before live updates were checked) never
       * fails a merge with a 500: it is set aside (removed, so that live editing opens the page
       * again from its last saved markdown) and, while its page is in the change request, the merge
       * is refused naming the page; merged again, the change request takes the page as last saved.
       */
      const setAside = Effect.fnUntraced(function*(stored: StoredCollabDocument, unreadable: UnreadableLiveDocument) {
        yield* storage.remove(stored.name)
        yield* Effect.logWarning(`Live document ${stored.name} cannot be read and was set aside: ${unreadable.reason}`)
        const page = yield* Effect.option(pageOf(stored.changeRequestId, stored.pageId))
        if (Option.isNone(page)) return Option.none<string>()
        return yield* new Errors.InvalidInput({
          field: "changeRequestId",
          reason: `the live edits of page ${JSON.stringify(page.value.found.page.title)} (${stored.pageId}) cannot be read (${unreadable.reason}); ` +
            "they were set aside and the page is back to its last saved markdown, which live editing opens from now on: review it, then merge again"
        })
      })

      const writeUnwritten = Effect.fn("LiveDocuments.writeUnwritten")(function*(changeRequestId: string) {
        const caller = (yield* Actor.Actor).userId
        let count = 0
        for (const name of yield* storage.namesOf(changeRequestId)) {
          const stored = yield* storage.load(name)
          if (Option.isNone(stored)) continue
          // Updates of someone who may not edit now are left out: an update that depended on one
          // of theirs (typed just after their words) waits for it, and is left out too.
          const kept = yield* byEditors(stored.value)
          const doc = yield* markdownOf.of([stored.value.state, ...kept.updates.map((u) => u.update)]).pipe(
            Effect.catchTag("UnreadableLiveDocument", (unreadable) => setAside(stored.value, unreadable))
          )
          // A page removed from the change request meanwhile has nothing to write to.
          const page = yield* Effect.option(pageOf(changeRequestId, stored.value.pageId))
          if (Option.isNone(doc) || Option.isNone(page)) continue
          if (standing(stored.value, { page: page.value.markdown, doc: doc.value }) !== "unwritten") continue
          // Written by the caller (who merges), crediting those who typed it, the page holding the
          // updates up to the first left out. Its write back names the document (`live`), so no
          // open document brings it in as a write from elsewhere.
          const firstLeftOut = stored.value.updates.find((u) => !kept.updates.includes(u))
          const last = kept.updates.filter((u) => firstLeftOut === undefined || Number(u.id) < Number(firstLeftOut.id)).at(-1)
          yield* write(stored.value, doc.value, kept.editors.filter((author) => author !== caller), last === undefined ? undefined : Number(last.id))
          count += 1
        }
        return count
      })

      return LiveDocuments.of({
        parseName: (name) => {
          const match = namePattern.exec(name)
          return match === null
            ? Effect.fail(new Errors.InvalidInput({ field: "documentName", reason: `${JSON.stringify(name)} is not <changeRequestId>/<pageId>` }))
            : Effect.succeed({ changeRequestId: match[1]!, pageId: match[2]! })
        },
        open: Effect.fn("LiveDocuments.open")(function*(changeRequestId: string, pageId: string) {
          const { spaceId, markdown } = yield* pageOf(changeRequestId, pageId)
          const view = yield* changeRequests.get(spaceId, changeRequestId)
          return { key: { name: `${changeRequestId}/${pageId}`, spaceId, changeRequestId, pageId }, access: accessOf(view), markdown }
        }),
        access: (changeRequestId) =>
          spaceOf(changeRequestId).pipe(
            Effect.flatMap((spaceId) => changeRequests.get(spaceId, changeRequestId)),
            Effect.map((view) => Option.some(accessOf(view))),
            Effect.catchTag("NotFound", () => Effect.succeed(Option.none<LiveAccess>()))
          ),
        check: (changeRequestId, pageId) =>
          Effect.gen(function*() {
            const spaceId = yield* spaceOf(changeRequestId)
            const found = yield* changeRequests.content(spaceId, changeRequestId)
            // Whoever may see the change request sees every page of it: a page not there is gone, not hidden.
            const page = pageId === undefined ? undefined : flattenPages(found.revision.pages).find((entry) => entry.page.id === pageId)
            if (pageId !== undefined && page?.page.type !== "document") return { access: "none", because: "page-deleted" } as const
            return checkOf(found)
          }).pipe(Effect.catchTag("NotFound", () => Effect.succeed<LiveCheck>({ access: "none", because: "gone" }))),
        markdown: (changeRequestId, pageId) => Effect.map(pageOf(changeRequestId, pageId), (page) => page.markdown),
        write,
        writeUnwritten,
        editorsOnly: byEditors,
        stored: storage.load,
        storeInitial: (key, state, made) => Effect.flatMap(now, (at) => storage.create(key, state, agreementOf(made), at)),
        claim: (stored, made) => Effect.flatMap(now, (at) => storage.claim(stored.name, stored.pageSha, agreementOf(made), at)),
        storeReset: (name, state, made) => Effect.flatMap(now, (at) => storage.reset(name, state, agreementOf(made), at)),
        storeUpdate: (name, update, author) => Effect.flatMap(now, (at) => storage.append(name, update, author, at)),
        storeCompacted: (name, version, state, merged) => Effect.flatMap(now, (at) => storage.compact(name, version, state, merged, at))
      })
    })
  )
}
