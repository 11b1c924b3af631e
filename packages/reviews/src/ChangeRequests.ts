/**
 * Use cases of change requests: create, list, read and patch them, edit their content in batches
 * (each batch one revision of the change request's branch, through the RevisionWriter) and read it back.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, Ids, Pagination, Transactor } from "@quire/kernel"
import {
  Access,
  BlobStore,
  type ContentChange,
  ContentAccess,
  type FileNode,
  type Head,
  type HeadState,
  type Revision,
  type RevisionPage,
  RevisionWriter,
  SpaceContent,
  type SpaceAccess
} from "@quire/content"
import { contentTypeOf as typeOfName, isMediaType } from "@quire/content/domain/MediaType"
import { OutboundFetch } from "@quire/outbound"
import { applyChanges, type Change, type Outcome } from "./ChangeSet.ts"
import { changeRequestKeyShape, ChangeRequestsRepo } from "./ChangeRequestsRepo.ts"
import * as Pdf from "./Pdf.ts"
import { type ChangeRequest, type ChangeRequestStatus, countersOf, maxSubjectLength, permittedTransitions } from "./domain/ChangeRequest.ts"
import { ReviewsRepo } from "./ReviewsRepo.ts"
import { SpaceCountersRepo } from "./SpaceCountersRepo.ts"

type Denied = Errors.NotFound | Errors.Forbidden

/** A change request as the caller may see it. */
export interface ChangeRequestView {
  readonly access: SpaceAccess
  readonly changeRequest: ChangeRequest
  /** True when the space's main content moved since `revisionMergedAncestor`. */
  readonly outdated: boolean
}

export interface ChangeRequestList {
  readonly access: SpaceAccess
  readonly items: Pagination.Page<ChangeRequest>
  /** The space's current revision, against which `outdated` is computed. */
  readonly spaceRevision: string
}

export interface ListRequest extends Pagination.PageRequest {
  /** Default `open`, as GitBook. */
  readonly status?: ChangeRequestStatus | undefined
  readonly creator?: string | undefined
  readonly contributor?: string | undefined
}

export interface CreateInput {
  readonly subject?: string | undefined
  readonly agentTaskId?: string | undefined
}

export interface UpdateInput {
  readonly subject?: string | undefined
  readonly status?: ChangeRequestStatus | undefined
}

/** A file of an `insert_files` change: its bytes, before they are stored. */
export interface FileInput {
  readonly name: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

/** A file of an `insert_files` change to fetch from a URL (through OutboundFetch); `contentType` overrides the response's. */
export interface UrlFileInput {
  readonly name: string
  readonly contentType?: string | undefined
  readonly url: string
}

/** A change as callers send it (`insert_files` carries bytes or URLs; the use case fetches and stores them). */
export type ChangeInput =
  | Exclude<Change, { readonly operation: "insert_files" }>
  | { readonly operation: "insert_files"; readonly files: ReadonlyArray<FileInput | UrlFileInput> }

export interface ContentUpdate extends ChangeRequestView {
  readonly outcomes: ReadonlyArray<Outcome>
  readonly insertedFiles: ReadonlyArray<FileNode>
}

/** The content of a change request (its head revision). */
export interface ChangeRequestContent {
  readonly access: SpaceAccess
  readonly changeRequest: ChangeRequest
  readonly revision: Revision
}

export interface ChangeRequestImport {
  readonly changeRequest: ChangeRequest
  readonly revision: Revision
  readonly importedResources: number
  readonly totalResources: number
}

/** Files of an `insert_files` change may be at most this large. */
export const maxFileBytes = 1024 * 1024
/** Changes in one batch. */
export const maxChanges = 50
/** Files one batch may add (inline or by URL), and their bytes in total. */
export const maxBatchFiles = 20
export const maxBatchFileBytes = 8 * 1024 * 1024
/** The time limit of fetching one file of an `insert_files` change by URL. */
export const fileFetchTimeout = "20 seconds"

/**
 * A fetched file's content type: the response's (without parameters) when it is a media type,
 * else guessed from its name, else `application/octet-stream`. What another server sends is never
 * stored unchecked: a file is served with its content type.
 */
const contentTypeOf = (header: string, name: string): string => {
  const essence = header.split(";")[0]!.trim().toLowerCase()
  const fromHeader = isMediaType(essence) ? essence : ""
  if (fromHeader !== "" && fromHeader !== "application/octet-stream") return fromHeader
  const byName = typeOfName(name)
  return byName !== "application/octet-stream" || fromHeader === "" ? byName : fromHeader
}

/** A change request's branch as a head of the RevisionWriter: the change request, read with the caller's access. */
export interface BranchHead extends HeadState {
  readonly access: SpaceAccess
  readonly changeRequest: ChangeRequest
}

export interface ChangeRequestsShape {
  /**
   * The change request's branch as a head the RevisionWriter moves, for a caller who may edit it;
   * merged and archived change requests refuse (`action` names what was refused: "edited", "updated").
   */
  readonly branchHead: (spaceId: string, ref: string, action: string) => Head<BranchHead, Denied | Errors.InvalidInput, Actor.Actor>
  readonly create: (spaceId: string, input: CreateInput) => Effect.Effect<ChangeRequestView, Denied | Errors.InvalidInput, Actor.Actor>
  readonly list: (spaceId: string, request: ListRequest) => Effect.Effect<ChangeRequestList, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** By id, or by its number in the space. */
  readonly get: (spaceId: string, ref: string) => Effect.Effect<ChangeRequestView, Errors.NotFound, Actor.Actor>
  /** The change request whose merge wrote revision `revisionId` of the space, if one did. */
  readonly mergedInto: (spaceId: string, revisionId: string) => Effect.Effect<Option.Option<ChangeRequestView>, Errors.NotFound, Actor.Actor>
  /** Subject and permitted status transitions (never to `merged`: that is a merge). */
  readonly update: (spaceId: string, ref: string, input: UpdateInput) => Effect.Effect<ChangeRequestView, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /** Applies a batch of changes as one new revision of the change request, or none when a change cannot apply. */
  readonly updateContent: (spaceId: string, ref: string, changes: ReadonlyArray<ChangeInput>) => Effect.Effect<ContentUpdate, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  readonly content: (spaceId: string, ref: string) => Effect.Effect<ChangeRequestContent, Errors.NotFound, Actor.Actor>
  readonly page: (spaceId: string, ref: string, pageId: string) => Effect.Effect<RevisionPage & { readonly access: SpaceAccess }, Errors.NotFound, Actor.Actor>
  readonly files: (spaceId: string, ref: string, request: Pagination.PageRequest) => Effect.Effect<Pagination.Page<FileNode>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly file: (spaceId: string, ref: string, fileId: string) => Effect.Effect<FileNode, Errors.NotFound, Actor.Actor>
  /** Imports a website as pages after the change request's pages. */
  readonly importWebsite: (spaceId: string, ref: string, url: string) => Effect.Effect<ChangeRequestImport, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /**
   * The change request's content as a PDF: every page in tree order, or only `page` and its
   * subpages (only `page` itself with `only`), stored in the BlobStore. NotFound for an unknown page.
   */
  readonly pdf: (spaceId: string, ref: string, options?: PdfOptions) => Effect.Effect<ChangeRequestPdf, Errors.NotFound, Actor.Actor>
}

export interface PdfOptions {
  readonly page?: string | undefined
  readonly only?: boolean | undefined
}

/** A rendered PDF, stored in the blob store. */
export interface ChangeRequestPdf {
  readonly changeRequest: ChangeRequest
  /** The hash of the PDF's bytes in the BlobStore. */
  readonly blob: string
  readonly size: number
}

/** True when the space's main content moved since the change request was last brought up to date. */
/** A subject within GitBook's bound, for every caller (the API's schema checks it first). */
const checkSubject = (subject: string | undefined): Effect.Effect<void, Errors.InvalidInput> =>
  subject !== undefined && subject.length > maxSubjectLength
    ? Effect.fail(new Errors.InvalidInput({ field: "subject", reason: `is longer than ${maxSubjectLength} characters` }))
    : Effect.void

export const isOutdated = (cr: ChangeRequest, spaceRevision: string): boolean =>
  cr.status !== "merged" && cr.revisionMergedAncestor !== spaceRevision

const view = (spaceAccess: SpaceAccess, changeRequest: ChangeRequest): ChangeRequestView => ({
  access: spaceAccess,
  changeRequest,
  outdated: isOutdated(changeRequest, spaceAccess.space.revisionId)
})

export class ChangeRequests extends Context.Service<ChangeRequests, ChangeRequestsShape>()("@quire/reviews/ChangeRequests") {
  static readonly layer = Layer.effect(
    ChangeRequests,
    Effect.gen(function*() {
      const repo = yield* ChangeRequestsRepo
      const reviews = yield* ReviewsRepo
      const access = yield* ContentAccess
      const counters = yield* SpaceCountersRepo
      const writer = yield* RevisionWriter
      const content = yield* SpaceContent
      const blobs = yield* BlobStore
      const outbound = yield* OutboundFetch
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      /** The change request `ref` (an id or a number) of a space the caller can view. */
      const resolve = Effect.fnUntraced(function*(spaceId: string, ref: string) {
        const spaceAccess = yield* access.space(spaceId)
        const byNumber = /^[1-9][0-9]{0,8}$/.test(ref) ? yield* repo.findByNumber(spaceId, Number(ref)) : Option.none()
        const found = Option.isSome(byNumber) ? byNumber : yield* repo.find(ref)
        if (Option.isNone(found) || found.value.spaceId !== spaceId) {
          return yield* new Errors.NotFound({ resource: "Change request", id: ref })
        }
        return { access: spaceAccess, changeRequest: found.value }
      })

      const revisionOf = (cr: ChangeRequest) =>
        content.revisionById(cr.revision).pipe(
          Effect.catchTag("NotFound", () => Effect.die(new Error(`Change request ${cr.id} points at a missing revision ${cr.revision}`)))
        )

      const create = Effect.fn("ChangeRequests.create")(function*(spaceId: string, input: CreateInput) {
        yield* checkSubject(input.subject)
        const spaceAccess = yield* access.space(spaceId)
        yield* Access.ensure(spaceAccess.permissions.edit, "create change requests in this space")
        const actor = yield* Actor.Actor
        const at = yield* now
        const space = spaceAccess.space
        // GitBook creates change requests as drafts.
        const created = yield* transactor.transaction(Effect.gen(function*() {
          const stored = yield* repo.insert({
            id: yield* ids.make,
            spaceId,
            status: "draft",
            subject: input.subject ?? "",
            createdBy: actor.userId,
            createdAt: at,
            updatedAt: at,
            revision: space.revisionId,
            revisionInitial: space.revisionId,
            revisionMergedAncestor: space.revisionId,
            revisionMerged: null,
            agentTaskId: input.agentTaskId ?? null,
            contributors: []
          })
          yield* counters.add(spaceId, { changeRequests: 1, ...countersOf(stored.status) })
          return stored
        }))
        return view(spaceAccess, created)
      })

      const list = Effect.fn("ChangeRequests.list")(function*(spaceId: string, request: ListRequest) {
        const after = yield* Pagination.afterOf(request, changeRequestKeyShape)
        const spaceAccess = yield* access.space(spaceId)
        const items = yield* repo.list(
          { spaceId, status: request.status ?? "open", creator: request.creator, contributor: request.contributor },
          after,
          Pagination.limitOf(request)
        )
        return { access: spaceAccess, items, spaceRevision: spaceAccess.space.revisionId }
      })

      const get = Effect.fn("ChangeRequests.get")(function*(spaceId: string, ref: string) {
        const found = yield* resolve(spaceId, ref)
        return view(found.access, found.changeRequest)
      })

      const mergedInto = Effect.fn("ChangeRequests.mergedInto")(function*(spaceId: string, revisionId: string) {
        const spaceAccess = yield* access.space(spaceId)
        return Option.map(yield* repo.findMergedInto(spaceId, revisionId), (cr) => view(spaceAccess, cr))
      })

      const update = Effect.fn("ChangeRequests.update")(function*(spaceId: string, ref: string, input: UpdateInput) {
        const found = yield* resolve(spaceId, ref)
        yield* Access.ensure(found.access.permissions.edit, "change this change request")
        let current = found.changeRequest
        const at = yield* now
        if (input.status !== undefined && input.status !== current.status) {
          const next = input.status
          if (next === "merged") {
            return yield* new Errors.InvalidInput({ field: "status", reason: "a change request becomes merged only by merging it" })
          }
          const allowed = permittedTransitions[current.status]
          if (!allowed.includes(next)) {
            return yield* new Errors.InvalidInput({
              field: "status",
              reason: `a ${current.status} change request cannot become ${next}` +
                (allowed.length === 0 ? "" : ` (it may become ${allowed.join(" or ")})`)
            })
          }
          const from = current.status
          const moved = yield* transactor.transaction(Effect.gen(function*() {
            const changed = yield* repo.setStatus(current.id, from, next, at)
            if (Option.isNone(changed)) return changed
            const before = countersOf(from)
            const after = countersOf(next)
            yield* counters.add(spaceId, {
              changeRequestsOpen: after.changeRequestsOpen - before.changeRequestsOpen,
              changeRequestsDraft: after.changeRequestsDraft - before.changeRequestsDraft
            })
            return changed
          }))
          if (Option.isNone(moved)) {
            return yield* new Errors.Conflict({ reason: "The change request's status changed meanwhile; try again" })
          }
          current = moved.value
        }
        if (input.subject !== undefined && input.subject !== current.subject) {
          yield* checkSubject(input.subject)
          const patched = yield* repo.update(current.id, { subject: input.subject, updatedAt: at })
          if (Option.isSome(patched)) current = patched.value
        }
        return view(found.access, current)
      })

      const branchHead = (spaceId: string, ref: string, action: string): Head<BranchHead, Denied | Errors.InvalidInput, Actor.Actor> => ({
        read: Effect.gen(function*() {
          const found = yield* resolve(spaceId, ref)
          yield* Access.ensure(found.access.permissions.edit, `change the content of this change request`)
          const cr = found.changeRequest
          if (cr.status === "merged" || cr.status === "archived") {
            return yield* new Errors.InvalidInput({
              field: "changeRequestId",
              reason: `change request ${cr.number} is ${cr.status}; only draft and open change requests can be ${action}`
            })
          }
          return { ...found, space: found.access.space, revisionId: cr.revision }
        }),
        move: (head, next) => repo.setRevision(head.changeRequest.id, head.revisionId, next.id, next.createdAt),
        main: false,
        describe: (head) => `change request ${head.changeRequest.number}`
      })

      /** Writes a change request's branch through the RevisionWriter; the editor becomes a contributor. */
      const commitTo = <C extends ContentChange, E, R>(spaceId: string, ref: string, build: (parent: Revision) => Effect.Effect<C, E, R>) =>
        Effect.gen(function*() {
          const actor = yield* Actor.Actor
          const written = yield* writer.write(branchHead(spaceId, ref, "edited"), build, {
            within: ({ head }) =>
              Effect.gen(function*() {
                yield* repo.addContributor(head.changeRequest.id, actor.userId)
                yield* reviews.recordEdit(spaceId, head.changeRequest.id, actor.userId, yield* now)
                // The conflicts of an earlier merge or update were about the content this edit changed.
                if (head.changeRequest.conflicts !== null) yield* repo.setConflicts(head.changeRequest.id, null)
              })
          })
          const changeRequest = Option.getOrElse(yield* repo.find(written.head.changeRequest.id), () => written.head.changeRequest)
          return { ...view(written.head.access, changeRequest), revision: written.revision, change: written.change }
        })

      const updateContent = Effect.fn("ChangeRequests.updateContent")(function*(
        spaceId: string,
        ref: string,
        changes: ReadonlyArray<ChangeInput>
      ) {
        if (changes.length === 0 || changes.length > maxChanges) {
          return yield* new Errors.InvalidInput({ field: "changes", reason: `a batch holds 1 to ${maxChanges} changes` })
        }
        // Refused before anything is stored.
        const found = yield* resolve(spaceId, ref)
        yield* Access.ensure(found.access.permissions.edit, "edit this change request's content")
        for (const [index, change] of changes.entries()) {
          if (change.operation !== "insert_files") continue
          const tooLarge = change.files.find((f) => "bytes" in f && f.bytes.byteLength > maxFileBytes)
          if (tooLarge !== undefined) {
            return yield* new Errors.InvalidInput({
              field: `changes[${index}]`,
              reason: `insert_files: ${JSON.stringify(tooLarge.name)} is larger than ${maxFileBytes} bytes`
            })
          }
        }
        const files = changes.flatMap((change) => change.operation === "insert_files" ? change.files : [])
        if (files.length > maxBatchFiles) {
          return yield* new Errors.InvalidInput({ field: "changes", reason: `a batch adds at most ${maxBatchFiles} files, this one ${files.length}` })
        }
        const overBudget = (bytes: number) =>
          new Errors.InvalidInput({
            field: "changes",
            reason: `the files of a batch hold at most ${maxBatchFileBytes} bytes in total, this one ${bytes} or more; no change of the batch was applied`
          })
        // What the batch's inline files leave of the byte budget bounds what its URLs may fetch.
        let budget = maxBatchFileBytes - files.reduce((sum, f) => sum + ("bytes" in f ? f.bytes.byteLength : 0), 0)
        if (budget < 0) return yield* overBudget(maxBatchFileBytes - budget)
        // Files by URL are fetched (after the access check) before anything is stored; one that fails refuses the batch.
        const fetched: Array<ReadonlyArray<FileInput>> = []
        for (const [index, change] of changes.entries()) {
          if (change.operation !== "insert_files") {
            fetched.push([])
            continue
          }
          fetched.push(yield* Effect.forEach(change.files, (f) =>
            "bytes" in f
              ? Effect.succeed(f)
              : Effect.suspend(() =>
                budget <= 0
                  ? Effect.fail(overBudget(maxBatchFileBytes - budget + 1))
                  : outbound.get(f.url, { maxBytes: Math.min(maxFileBytes, budget), timeout: fileFetchTimeout }).pipe(
                    Effect.mapError((error) =>
                      error.reason === "too-large" && budget < maxFileBytes
                        ? overBudget(maxBatchFileBytes + 1)
                        : new Errors.InvalidInput({
                          field: `changes[${index}]`,
                          reason: `insert_files: ${JSON.stringify(f.name)}: cannot fetch ${f.url} (${error.reason}: ${error.message}); ` +
                            "no change of the batch was applied"
                        })
                    ),
                    Effect.tap((response) => Effect.sync(() => { budget -= response.body.byteLength })),
                    Effect.flatMap((response) => budget < 0 ? Effect.fail(overBudget(maxBatchFileBytes - budget)) : Effect.succeed(response))
                  )
              ).pipe(
                Effect.map((response): FileInput => ({
                  name: f.name,
                  contentType: f.contentType ?? contentTypeOf(response.contentType, f.name),
                  bytes: response.body
                }))
              ), { concurrency: 4 }))
        }
        // Bytes are content-addressed: storing them for a batch that is then refused leaves only
        // unreferenced blobs; they count against the quota with the revision that points to them.
        const organizationId = found.access.space.organizationId
        const prepared: Array<Change> = []
        const insertedFiles: Array<FileNode> = []
        const result = yield* Effect.gen(function*() {
          for (const [index, change] of changes.entries()) {
            if (change.operation !== "insert_files") {
              prepared.push(change)
              continue
            }
            const stored = yield* Effect.forEach(fetched[index]!, (f) => Effect.tap(content.storeFile(organizationId, f), (node) => Effect.sync(() => insertedFiles.push(node))))
            prepared.push({ operation: "insert_files", files: stored })
          }
          const inserts = prepared.filter((change) => change.operation === "insert_page").length
          return yield* commitTo(spaceId, ref, (parent) =>
            Effect.gen(function*() {
              const fresh = yield* Effect.replicateEffect(ids.make, inserts)
              const at = (yield* now).toISOString()
              const applied = applyChanges(parent, prepared, { makeId: () => fresh.shift()!, now: at })
              if (applied.kind === "rejected") {
                const change = prepared[applied.value.index]!
                return yield* new Errors.InvalidInput({
                  field: `changes[${applied.value.index}]`,
                  reason: `${change.operation}: ${applied.value.reason}; no change of the batch was applied`
                })
              }
              return applied.value
            }))
        })
        return { access: result.access, changeRequest: result.changeRequest, outdated: result.outdated, outcomes: result.change.outcomes, insertedFiles }
      })

      const contentOf = Effect.fn("ChangeRequests.content")(function*(spaceId: string, ref: string) {
        const found = yield* resolve(spaceId, ref)
        return { ...found, revision: yield* revisionOf(found.changeRequest) }
      })

      const page = Effect.fn("ChangeRequests.page")(function*(spaceId: string, ref: string, pageId: string) {
        const found = yield* contentOf(spaceId, ref)
        return { access: found.access, ...(yield* content.pageIn(found.revision, pageId)) }
      })

      const files = Effect.fn("ChangeRequests.files")(function*(spaceId: string, ref: string, request: Pagination.PageRequest) {
        const found = yield* contentOf(spaceId, ref)
        return yield* content.filesIn(found.revision, request)
      })

      const file = Effect.fn("ChangeRequests.file")(function*(spaceId: string, ref: string, fileId: string) {
        const found = yield* contentOf(spaceId, ref)
        return yield* content.fileIn(found.revision, fileId)
      })

      const importWebsite = Effect.fn("ChangeRequests.importWebsite")(function*(spaceId: string, ref: string, url: string) {
        // Checked before anything is fetched, so that nobody makes Quire fetch for content they cannot change.
        const found = yield* resolve(spaceId, ref)
        yield* Access.ensure(found.access.permissions.edit, "edit this change request's content")
        const site = yield* content.fetchWebsite(url)
        const result = yield* commitTo(spaceId, ref, site.build)
        return {
          changeRequest: result.changeRequest,
          revision: result.revision,
          importedResources: site.importedResources,
          totalResources: site.totalResources
        }
      })

      const pdf = Effect.fn("ChangeRequests.pdf")(function*(spaceId: string, ref: string, options: PdfOptions = {}) {
        const found = yield* contentOf(spaceId, ref)
        const cr = found.changeRequest
        const bytes = yield* Pdf.renderRevision({
          title: found.access.space.title,
          subtitle: `Change request #${cr.number}${cr.subject === "" ? "" : `: ${cr.subject}`}`,
          revision: found.revision,
          page: options.page,
          only: options.only,
          pageIn: content.pageIn,
          blob: blobs.get
        })
        // Content-addressed: re-rendering the same content stores nothing new.
        return { changeRequest: cr, blob: yield* blobs.put(bytes), size: bytes.byteLength }
      })

      return ChangeRequests.of({
        branchHead,
        create,
        list,
        get,
        mergedInto,
        update,
        updateContent,
        content: contentOf,
        page,
        files,
        file,
        importWebsite,
        pdf
      })
    })
  )
}
