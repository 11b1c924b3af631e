/**
 * Import runs (GitBook's imports API): a run is recorded `pending` and queued; its job reads the
 * source (a website through the website importer, or uploaded files: Word documents, zips of
 * Confluence or Notion exports, of markdown or HTML folders), stores the images the pages show as
 * space files and adds the pages to the space in one write. A run that fails, or is cancelled
 * before it writes, leaves the space as it was.
 */
import { Clock, Config, Context, Data, Duration, Effect, Layer, Option, Stream } from "effect"
import { Actor, Errors, Ids, Pagination, Roles, Transactor } from "@quire/kernel"
import { JobQueue } from "@quire/queue"
import * as Access from "./Access.ts"
import { BlobStore } from "./BlobStore.ts"
import { ContentAccess } from "./ContentAccess.ts"
import { ImportBranches } from "./ImportBranches.ts"
import { type ImportedPageState, type ImportFile, type ImportFormat, type ImportRun, type ImportRunStatus, type ImportSource, type ImportTarget, initialProgress } from "./domain/ImportRun.ts"
import { contentTypeOf } from "./domain/MediaType.ts"
import type { FileNode, PageNode, Revision } from "./domain/Revision.ts"
import type { ContentChange } from "./RevisionWriter.ts"
import { type ImportRunFilter, importRunKeyShape, ImportRunsRepo } from "./ImportRunsRepo.ts"
import { type ArchiveLimits, ArchiveRefused, defaultArchiveLimits } from "./importing/Archive.ts"
import { checkUpload, type Upload, uploadsTree } from "./importing/FileSources.ts"
import { countPages, materialize, referencedFiles } from "./importing/ImportTree.ts"
import { SpaceContent } from "./SpaceContent.ts"
import { OrganizationStorageBytes, StorageUsageRepo } from "./StorageUsageRepo.ts"

/** The task name of an import run on the durable queue. */
export const importTask = "content.importRun"

export interface StartImportInput {
  readonly source: ImportSource
  readonly target: ImportTarget
  /** Quire's: open a new change request and import into it (its subject: `subject`, else one naming the source). */
  readonly newChangeRequest?: { readonly subject?: string | undefined } | undefined
}

export interface ImportRunsQuery extends Pagination.PageRequest {
  readonly space?: string | undefined
  /** Only runs into these spaces (the spaces of a site, which the caller resolves). */
  readonly spaces?: ReadonlyArray<string> | undefined
  readonly status?: ImportRunStatus | "active" | undefined
  readonly changeRequest?: string | undefined
}

/** An uploaded file: its name, type and bytes as they arrive (bounded by whoever reads the request). */
export interface ImportUpload<E> {
  readonly name: string
  readonly contentType: string
  readonly bytes: Stream.Stream<Uint8Array, E>
  /** The size the request declares, for a refusal before a byte is stored. */
  readonly declaredSize?: number | undefined
  /** The upload's id when it was promised beforehand (a signed upload URL's key); a new id otherwise. */
  readonly id?: string | undefined
}

/**
 * An upload holds its bytes against the organization's storage quota as a space holds its files
 * (`StorageUsageRepo`), under this holder id, until it is purged.
 */
export const importUploadHolder = (fileId: string) => `import-upload:${fileId}`

/** `QUIRE_IMPORT_UPLOAD_RETENTION_HOURS`: how long an upload no active run names is kept (default 24). */
export const ImportUploadRetention = Config.Number("QUIRE_IMPORT_UPLOAD_RETENTION_HOURS").pipe(
  Config.withDefault(24),
  Config.map((hours) => Duration.hours(hours))
)

export interface ImportsShape {
  /**
   * Keeps an uploaded file for a later `start` of the organization (a member who may create content),
   * counted against the organization's storage quota: Forbidden when it would pass it.
   */
  readonly upload: <E>(organizationId: string, upload: ImportUpload<E>) => Effect.Effect<ImportFile, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput | E, Actor.Actor>
  /** Records a run and queues it; the source is checked first (a 400 naming the field). */
  readonly start: (organizationId: string, input: StartImportInput) => Effect.Effect<ImportRun, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  readonly get: (organizationId: string, runId: string) => Effect.Effect<ImportRun, Errors.NotFound, Actor.Actor>
  /** The runs of spaces the caller can see, most recent first. */
  readonly list: (organizationId: string, query: ImportRunsQuery) => Effect.Effect<Pagination.Page<ImportRun>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** Cancels a pending or running run (its space's editors); a finished run is a 400. */
  readonly cancel: (organizationId: string, runId: string) => Effect.Effect<ImportRun, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
  /** Runs the queued run once; records the outcome and never fails. */
  readonly run: (runId: string) => Effect.Effect<void>
  /** The queue gave the run up: a run still active is recorded failed. */
  readonly giveUp: (runId: string, reason: string) => Effect.Effect<void>
  /**
   * Purges the uploads kept longer than the retention (`QUIRE_IMPORT_UPLOAD_RETENTION_HOURS`) that no
   * pending or running run names, giving their bytes back to the quota; answers how many.
   */
  readonly purgeUploads: Effect.Effect<number>
}

/** The bounds of an uploaded archive, from `QUIRE_IMPORT_MAX_*`. */
export const ArchiveLimitsConfig = Config.all({
  maxArchiveBytes: Config.Int("QUIRE_IMPORT_MAX_ARCHIVE_BYTES").pipe(Config.withDefault(defaultArchiveLimits.maxArchiveBytes)),
  maxFiles: Config.Int("QUIRE_IMPORT_MAX_FILES").pipe(Config.withDefault(defaultArchiveLimits.maxFiles)),
  maxExpandedBytes: Config.Int("QUIRE_IMPORT_MAX_EXPANDED_BYTES").pipe(Config.withDefault(defaultArchiveLimits.maxExpandedBytes)),
  maxRatio: Config.Int("QUIRE_IMPORT_MAX_RATIO").pipe(Config.withDefault(defaultArchiveLimits.maxRatio))
})

class RunStopped extends Data.TaggedError("RunStopped")<{ readonly status: "failed" | "cancelled"; readonly reason: string }> {}

const active: ReadonlyArray<ImportRunStatus> = ["pending", "in-progress"]
const finished: ReadonlyArray<ImportRunStatus> = ["completed", "failed", "cancelled"]
/** The progress step of a run whose write has committed: too late to cancel. */
const wroteStep = "written"
const tooLateToCancel = (run: ImportRun) => finished.includes(run.status) || run.progress.step === wroteStep
const cancelRefused = (run: ImportRun) =>
  new Errors.InvalidInput({
    field: "importRunId",
    reason: run.progress.step === wroteStep && !finished.includes(run.status)
      ? "The import run has written its pages; it can no longer be cancelled"
      : `The import run is ${run.status}; only a pending or running import can be cancelled`
  })
const cancelled = new RunStopped({ status: "cancelled", reason: "cancelled" })

/**
 * A run's checks against a cancel: `stillActive` stops it before it builds its write; `markWritten`,
 * inside the write's transaction, marks it written under its lock, or fails (rolling the write back)
 * when it was cancelled. A cancel waits for that lock and then refuses a run that has written.
 */
const cancelChecks = (repo: ImportRunsRepo["Service"], now: Effect.Effect<Date>) => ({
  stillActive: (runId: string) =>
    Effect.flatMap(repo.find(runId), (found) => Option.isSome(found) && found.value.status === "cancelled" ? Effect.fail(cancelled) : Effect.void),
  markWritten: (run: ImportRun, pages: number, files: number) =>
    Effect.flatMap(now, (at) =>
      Effect.flatMap(
        repo.update(run.id, { progress: { step: wroteStep, done: 4, total: 4, pages, files }, updatedAt: at }, ["cancelled"]),
        (found) => Option.isSome(found) && found.value.status === "cancelled" ? Effect.fail(cancelled) : Effect.void
      ))
})

const maxNameLength = 255

/** The subject of a change request an import opens: the one asked for, else one naming the source. */
const subjectOf = (asked: string | undefined, source: ImportSource, names: ReadonlyArray<string>): string => {
  if (asked !== undefined && asked.trim() !== "") return asked.trim()
  const what = source.type === "website" ? source.url : names.length === 1 ? names[0]! : `${names.length} files`
  return `Import of ${what}`.slice(0, 200)
}

/** Adds `pages` under the page `pageId` of `pages` (anywhere in the tree); none when there is no such page. */
const insertUnder = (pages: ReadonlyArray<PageNode>, pageId: string, added: ReadonlyArray<PageNode>): ReadonlyArray<PageNode> | undefined => {
  let found = false
  const walk = (list: ReadonlyArray<PageNode>): ReadonlyArray<PageNode> =>
    list.map((page) => {
      if (page.id === pageId) {
        found = true
        return { ...page, pages: [...page.pages, ...added] }
      }
      return page.pages.length === 0 ? page : { ...page, pages: walk(page.pages) }
    })
  const next = walk(pages)
  return found ? next : undefined
}

const findPage = (pages: ReadonlyArray<PageNode>, pageId: string): PageNode | undefined => {
  for (const page of pages) {
    if (page.id === pageId) return page
    const inner = findPage(page.pages, pageId)
    if (inner !== undefined) return inner
  }
  return undefined
}

const pageIds = (pages: ReadonlyArray<PageNode>): Set<string> => {
  const ids = new Set<string>()
  const walk = (list: ReadonlyArray<PageNode>) => {
    for (const page of list) {
      ids.add(page.id)
      walk(page.pages)
    }
  }
  walk(pages)
  return ids
}

/** The target of a run being started: the change request it names, the page it names, not both ways to a change request. */
const checkTarget = Effect.fnUntraced(function*(content: SpaceContent["Service"], branches: ImportBranches["Service"], spaceId: string, input: StartImportInput) {
  if (input.newChangeRequest !== undefined && input.target.changeRequest !== undefined) {
    return yield* new Errors.InvalidInput({ field: "newChangeRequest", reason: "Give target.changeRequest (an existing change request) or newChangeRequest, not both" })
  }
  if (input.target.changeRequest !== undefined) {
    const changeRequestId = input.target.changeRequest
    yield* branches.head(spaceId, changeRequestId).pipe(
      Effect.catchTag("InvalidInput", (error) => Effect.fail(new Errors.InvalidInput({ field: "target.changeRequest", reason: error.reason }))),
      Effect.catchTag("NotFound", () => Effect.fail(new Errors.InvalidInput({ field: "target.changeRequest", reason: `The space has no change request ${JSON.stringify(changeRequestId)}` })))
    )
  }
  if (input.target.page !== undefined) {
    const pages = input.target.changeRequest === undefined
      ? (yield* content.revision(spaceId)).revision.pages
      : (yield* branches.head(spaceId, input.target.changeRequest)).pages
    if (findPage(pages, input.target.page) === undefined) {
      return yield* new Errors.InvalidInput({ field: "target.page", reason: `The space has no page ${JSON.stringify(input.target.page)}` })
    }
  }
})

/** Where a run writes: the space's main content, or the change request its target names. */
const targetWrites = (content: SpaceContent["Service"], branches: ImportBranches["Service"]) => ({
  revision: (run: ImportRun) =>
    run.target.changeRequest === undefined
      ? Effect.map(content.revision(run.spaceId), (current) => current.revision)
      : branches.head(run.spaceId, run.target.changeRequest),
  write: <E, R>(run: ImportRun, build: (parent: Revision) => Effect.Effect<ContentChange, E, R>, within: Effect.Effect<void, E, R>) =>
    run.target.changeRequest === undefined
      ? content.commit(run.spaceId, build, { within })
      : branches.commit(run.spaceId, run.target.changeRequest, build, within)
})

export class Imports extends Context.Service<Imports, ImportsShape>()("@quire/content/Imports") {
  /** Needs the repo, SpaceContent, ContentAccess, BlobStore, StorageUsageRepo, Ids, a Transactor and a JobQueue; bounds from the environment. */
  static readonly layer = Layer.effect(Imports, Effect.gen(function*() {
    return yield* make(yield* Effect.orDie(ArchiveLimitsConfig), yield* Effect.orDie(OrganizationStorageBytes), yield* Effect.orDie(ImportUploadRetention))
  }))
}

const make = Effect.fnUntraced(function*(limits: ArchiveLimits, quota: number, retention: Duration.Duration) {
  const repo = yield* ImportRunsRepo
  const usage = yield* StorageUsageRepo
  const transactor = yield* Transactor.Transactor
  const content = yield* SpaceContent
  const access = yield* ContentAccess
  const blobs = yield* BlobStore
  const ids = yield* Ids.Ids
  const queue = yield* JobQueue
  const branches = yield* ImportBranches
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  const { upload, releaseUploads, releaseIfEnded, purgeUploads } = uploadKeeping({ repo, usage, transactor, access, blobs, ids, quota, retention, now })

  /** The uploads a source names, each the organization's. */
  const uploadsOf = (organizationId: string, keys: ReadonlyArray<string>) =>
    Effect.forEach(keys, (key, index) =>
      Effect.gen(function*() {
        const file = yield* repo.findFile(key)
        if (Option.isNone(file) || file.value.organizationId !== organizationId) {
          return yield* new Errors.InvalidInput({ field: `source.files[${index}]`, reason: `No uploaded file has the key ${JSON.stringify(key)}` })
        }
        const bytes = yield* blobs.get(file.value.blob)
        if (Option.isNone(bytes)) return yield* new Errors.InvalidInput({ field: `source.files[${index}]`, reason: `The uploaded file ${JSON.stringify(key)} is no longer stored` })
        return { name: file.value.name, bytes: bytes.value } satisfies Upload
      }))

  /** The uploads' names (for the subject of a change request an import opens). */
  const sourceNames = (source: ImportSource) =>
    source.type === "website"
      ? Effect.succeed<ReadonlyArray<string>>([])
      : Effect.forEach(source.files, (key) => Effect.map(repo.findFile(key), (file) => Option.isSome(file) ? file.value.name : key))

  const checkSource = Effect.fnUntraced(function*(organizationId: string, source: ImportSource) {
    if (source.type === "website") {
      if (!URL.canParse(source.url) || !/^https?:$/.test(new URL(source.url).protocol)) {
        return yield* new Errors.InvalidInput({ field: "source.url", reason: "source.url must be an http(s) URL" })
      }
      return
    }
    const uploads = yield* uploadsOf(organizationId, source.files)
    for (const [index, item] of uploads.entries()) {
      try {
        checkUpload(item, source.format ?? "auto", limits)
      } catch (error) {
        if (!(error instanceof ArchiveRefused)) throw error
        return yield* new Errors.InvalidInput({ field: `source.files[${index}]`, reason: error.message })
      }
    }
  })

  const start = Effect.fn("Imports.start")(function*(organizationId: string, input: StartImportInput) {
    const { permissions, space } = yield* access.space(input.target.space)
    if (space.organizationId !== organizationId) return yield* new Errors.NotFound({ resource: "space", id: input.target.space })
    yield* Access.ensure(permissions.edit, "import content into this space")
    yield* checkTarget(content, branches, space.id, input)
    yield* checkSource(organizationId, input.source)
    // The change request is opened once the source is known good, so that a refusal opens none.
    const target = input.newChangeRequest === undefined
      ? input.target
      : { ...input.target, changeRequest: yield* branches.open(space.id, subjectOf(input.newChangeRequest.subject, input.source, yield* sourceNames(input.source))) }
    const actor = yield* Actor.Actor
    const at = yield* now
    const run: ImportRun = {
      id: yield* ids.make,
      organizationId,
      spaceId: space.id,
      source: input.source,
      target,
      status: "pending",
      reason: null,
      createdBy: actor.userId,
      pages: [],
      progress: initialProgress,
      createdAt: at,
      updatedAt: at,
      startedAt: null,
      completedAt: null
    }
    yield* repo.insert(run)
    yield* queue.enqueue(importTask, { runId: run.id }, { jobKey: `${importTask}:${run.id}`, maxAttempts: 3 })
    return run
  })

  /** The run, for a caller who can see its space. */
  const visible = Effect.fnUntraced(function*(organizationId: string, runId: string) {
    const found = yield* repo.find(runId)
    if (Option.isNone(found) || found.value.organizationId !== organizationId) return yield* new Errors.NotFound({ resource: "import run", id: runId })
    const space = yield* access.space(found.value.spaceId).pipe(Effect.mapError(() => new Errors.NotFound({ resource: "import run", id: runId })))
    return { run: found.value, space }
  })

  const get = Effect.fn("Imports.get")(function*(organizationId: string, runId: string) {
    return (yield* visible(organizationId, runId)).run
  })

  const list = Effect.fn("Imports.list")(function*(organizationId: string, query: ImportRunsQuery) {
    yield* access.organizationMember(organizationId)
    const after = yield* Pagination.afterOf(query, importRunKeyShape)
    const filter: ImportRunFilter = {
      spaceId: query.space,
      spaceIds: query.spaces,
      statuses: query.status === undefined ? undefined : query.status === "active" ? active : [query.status],
      changeRequestId: query.changeRequest
    }
    const page = yield* repo.list(organizationId, filter, after, Pagination.limitOf(query))
    // Runs of spaces the caller cannot see are left out of the page.
    const items = yield* Effect.filter(page.items, (run) => Effect.map(Effect.result(access.space(run.spaceId)), (r) => r._tag === "Success"))
    return { ...page, items }
  })

  const cancel = Effect.fn("Imports.cancel")(function*(organizationId: string, runId: string) {
    const { run: before, space } = yield* visible(organizationId, runId)
    yield* Access.ensure(space.permissions.edit, "cancel imports into this space")
    if (tooLateToCancel(before)) return yield* cancelRefused(before)
    const at = yield* now
    // Under the run's lock: a write holding it commits first, and then the run has written.
    const run = Option.getOrThrow(yield* repo.update(runId, { status: "cancelled", updatedAt: at, completedAt: at, reason: null }, tooLateToCancel))
    if (run.status !== "cancelled" || run.updatedAt.getTime() !== at.getTime()) return yield* cancelRefused(run)
    yield* releaseUploads(run)
    return run
  })

  const job = runner(repo, content, branches, blobs, ids, limits, now)
  return Imports.of({
    upload,
    start,
    get,
    list,
    cancel,
    run: (runId) => Effect.andThen(job.run(runId), releaseIfEnded(runId)),
    giveUp: (runId, reason) => Effect.andThen(job.giveUp(runId, reason), releaseIfEnded(runId)),
    purgeUploads
  })
})

/**
 * The uploads a run reads: each kept under the organization's storage quota (one counter with its
 * spaces' files) and purged when a run that named it ends, or past the retention unused.
 */
const uploadKeeping = (deps: {
  readonly repo: ImportRunsRepo["Service"]
  readonly usage: StorageUsageRepo["Service"]
  readonly transactor: Transactor.Transactor["Service"]
  readonly access: ContentAccess["Service"]
  readonly blobs: BlobStore["Service"]
  readonly ids: Ids.Ids["Service"]
  readonly quota: number
  readonly retention: Duration.Duration
  readonly now: Effect.Effect<Date>
}) => {
  const { repo, usage, transactor, access, blobs, ids, quota, retention, now } = deps
const upload = <E>(organizationId: string, input: ImportUpload<E>) =>
  Effect.gen(function*() {
    const role = yield* access.organizationMember(organizationId)
    yield* Access.ensure(Roles.atLeast(role, "edit"), "import content")
    const name = input.name.trim()
    if (input.id !== undefined && Option.isSome(yield* repo.findFile(input.id))) {
      return yield* new Errors.InvalidInput({ field: "key", reason: "this upload URL was used already: ask for another" })
    }
    if (name === "" || name.length > maxNameLength || /[/\\]/.test(name)) {
      return yield* new Errors.InvalidInput({ field: "name", reason: `name must be a file name of 1 to ${maxNameLength} characters, without slashes` })
    }
    // A cheap early refusal on the declared size; the hold below is the one that counts.
    if (input.declaredSize !== undefined) {
      const used = yield* usage.used(organizationId)
      if (used + input.declaredSize > quota) return yield* quotaRefused(used, name, input.declaredSize)
    }
    const stored = yield* blobs.putStream(input.bytes)
    if (stored.size === 0) return yield* new Errors.InvalidInput({ field: "body", reason: "The file is empty" })
    const actor = yield* Actor.Actor
    const file: ImportFile = {
      id: input.id ?? (yield* ids.make),
      organizationId,
      name,
      contentType: input.contentType === "" ? contentTypeOf(name) : input.contentType,
      size: stored.size,
      blob: stored.hash,
      createdBy: actor.userId,
      createdAt: yield* now
    }
    yield* transactor.transaction(Effect.gen(function*() {
      if (!(yield* usage.hold(organizationId, importUploadHolder(file.id), [{ blob: file.blob, size: file.size }], quota))) {
        return yield* quotaRefused(yield* usage.used(organizationId), name, file.size)
      }
      yield* repo.insertFile(file)
    }))
    return file
  }).pipe(Effect.withSpan("Imports.upload"))

const quotaRefused = (used: number, name: string, size: number) =>
  new Errors.Forbidden({
    reason: `The organization's storage quota of ${quota} bytes is used up (${used} bytes stored; ${JSON.stringify(name)} needs ${size})`
  })

/** Forgets an upload and gives its bytes back to the quota. */
const purgeUpload = (fileId: string) => transactor.transaction(Effect.andThen(repo.removeFile(fileId), usage.releaseSpace(importUploadHolder(fileId))))

/** The uploads of a run that has ended, unless another pending or running run names them. */
const releaseUploads = (run: ImportRun) =>
  run.source.type !== "file" ? Effect.void : Effect.forEach(run.source.files, (key) =>
    Effect.flatMap(repo.fileInUse(key, run.id), (inUse) => inUse ? Effect.void : purgeUpload(key)), { discard: true })

/** Once a run has ended (whichever way), its uploads are purged. */
const releaseIfEnded = (runId: string) =>
  Effect.flatMap(repo.find(runId), (found) => Option.isSome(found) && finished.includes(found.value.status) ? releaseUploads(found.value) : Effect.void)

const purgeUploads = Effect.gen(function*() {
  const cutoff = new Date((yield* Clock.currentTimeMillis) - Duration.toMillis(retention))
  let purged = 0
  for (;;) {
    const batch = yield* repo.unusedFilesBefore(cutoff, 100)
    for (const file of batch) yield* purgeUpload(file.id)
    purged += batch.length
    if (batch.length < 100) return purged
  }
}).pipe(Effect.withSpan("Imports.purgeUploads"))

  return { upload, releaseUploads, releaseIfEnded, purgeUploads }
}

/** The job: converts the source, stores its files and writes the pages, recording progress on the run. */
const runner = (
  repo: ImportRunsRepo["Service"],
  content: SpaceContent["Service"],
  branches: ImportBranches["Service"],
  blobs: BlobStore["Service"],
  ids: Ids.Ids["Service"],
  limits: ArchiveLimits,
  now: Effect.Effect<Date>
) => {
  const progress = (runId: string, step: string, done: number, extra: Partial<ImportRun["progress"]> = {}) =>
    Effect.flatMap(now, (at) =>
      Effect.flatMap(repo.find(runId), (found) =>
        Option.isNone(found) ? Effect.void : Effect.asVoid(repo.update(runId, { progress: { ...found.value.progress, ...extra, step, done, total: 4 }, updatedAt: at }, finished))))

  const { revision: targetRevision, write } = targetWrites(content, branches)

  const { stillActive, markWritten } = cancelChecks(repo, now)

  const importFiles = Effect.fnUntraced(function*(run: ImportRun, source: Extract<ImportSource, { type: "file" }>) {
    const keys = source.files
    const uploads: Array<Upload> = []
    for (const key of keys) {
      const file = yield* repo.findFile(key)
      const bytes = Option.isNone(file) ? Option.none<Uint8Array>() : yield* blobs.get(file.value.blob)
      if (Option.isNone(file) || Option.isNone(bytes)) return yield* new RunStopped({ status: "failed", reason: `The uploaded file ${key} is no longer stored` })
      uploads.push({ name: file.value.name, bytes: bytes.value })
    }
    yield* progress(run.id, "converting", 1)
    const tree = yield* Effect.tryPromise({
      try: () => uploadsTree(uploads, (source.format ?? "auto") as ImportFormat, limits),
      catch: (error) => new RunStopped({ status: "failed", reason: error instanceof Error ? error.message : String(error) })
    })
    const total = countPages(tree.pages)
    if (total === 0) return yield* new RunStopped({ status: "failed", reason: "The upload holds no pages (markdown, HTML, Word or an export of Confluence or Notion); nothing was imported" })
    const pageIdList = yield* Effect.forEach(Array.from({ length: total }), () => ids.make)
    const wanted = [...referencedFiles(tree.pages)].filter((path) => tree.assets.has(path))
    yield* progress(run.id, "storing files", 2, { pages: total, files: wanted.length })
    const organizationId = run.organizationId
    const stored: Array<FileNode> = []
    const fileIds = new Map<string, string>()
    return yield* Effect.gen(function*() {
      for (const path of wanted) {
        const asset = tree.assets.get(path)!
        const node = yield* content.storeFile(organizationId, { name: asset.name, contentType: contentTypeOf(asset.name), bytes: asset.bytes })
        stored.push(node)
        fileIds.set(path, node.id)
      }
      yield* progress(run.id, "writing", 3)
      let states: ReadonlyArray<{ readonly id: string; readonly key: string; readonly folder: boolean }> = []
      yield* write(run, (parent: Revision) =>
        Effect.gen(function*() {
          yield* stillActive(run.id)
          const at = (yield* now).toISOString()
          const under = run.target.page === undefined ? undefined : findPage(parent.pages, run.target.page)
          if (run.target.page !== undefined && under === undefined) {
            return yield* new RunStopped({ status: "failed", reason: `The page ${run.target.page} was removed from the space before the import wrote` })
          }
          const siblings = new Set((under?.pages ?? parent.pages).map((p) => p.slug))
          const made = materialize(tree, pageIdList, fileIds, siblings, at, under === undefined)
          states = made.states
          const pages = under === undefined ? [...parent.pages, ...made.pages] : insertUnder(parent.pages, under.id, made.pages)!
          return { pages, files: [...parent.files, ...stored], documents: made.documents }
        }), Effect.suspend(() => markWritten(run, states.length, stored.length)))
      return {
        pages: states.map((state): ImportedPageState => ({ id: state.id, sourceURL: state.key, type: state.folder ? "folder" : "page", status: "complete" })),
        files: stored.length
      }
    }).pipe(Effect.onError(() => content.releaseFiles(organizationId, stored)))
  })

  const importWebsite = Effect.fnUntraced(function*(run: ImportRun, url: string) {
    yield* progress(run.id, "fetching", 1)
    const site = yield* content.fetchWebsite(url, { images: true })
    yield* progress(run.id, "storing files", 2, { pages: site.importedResources, files: site.images.length })
    const stored = new Map<string, FileNode>()
    return yield* Effect.gen(function*() {
      for (const image of site.images) {
        stored.set(image.url, yield* content.storeFile(run.organizationId, { name: image.name, contentType: image.contentType, bytes: image.bytes }))
      }
      yield* progress(run.id, "writing", 3)
      const before = pageIds((yield* targetRevision(run)).pages)
      const written = yield* write(run, (parent) =>
        Effect.gen(function*() {
          yield* stillActive(run.id)
          const change = yield* site.build(parent, stored)
          if (run.target.page === undefined) return change
          // Under the target page: the pages the website added move there from the root.
          const kept = new Set(parent.pages.map((page) => page.id))
          const added = change.pages.filter((page) => !kept.has(page.id))
          const nested = insertUnder(change.pages.filter((page) => kept.has(page.id)), run.target.page, added)
          if (nested === undefined) return yield* new RunStopped({ status: "failed", reason: `The page ${run.target.page} was removed from the space before the import wrote` })
          return { ...change, pages: nested }
        }), markWritten(run, site.importedResources, stored.size))
      const added = [...pageIds(written.pages)].filter((id) => !before.has(id))
      return { pages: added.map((id): ImportedPageState => ({ id, type: "page", status: "complete" })), files: stored.size }
    }).pipe(Effect.onError(() => content.releaseFiles(run.organizationId, [...stored.values()])))
  })

  const run = (runId: string): Effect.Effect<void> =>
    Effect.gen(function*() {
      const found = yield* repo.find(runId)
      if (Option.isNone(found) || found.value.status !== "pending") return
      const started = yield* now
      const claimed = yield* repo.update(runId, { status: "in-progress", startedAt: started, updatedAt: started, progress: { ...initialProgress, step: "reading", total: 4 } }, finished)
      if (Option.isNone(claimed) || claimed.value.status !== "in-progress") return
      const job = claimed.value
      const work: Effect.Effect<{ readonly pages: ReadonlyArray<ImportedPageState>; readonly files: number }, RunStopped | Errors.InvalidInput | Errors.Conflict | Errors.Forbidden | Errors.NotFound, Actor.Actor> =
        job.source.type === "website" ? importWebsite(job, job.source.url) : importFiles(job, job.source)
      const outcome = yield* Effect.result(
        work.pipe(
          Effect.provideService(Actor.Actor, { userId: job.createdBy, instanceAdmin: false })
        )
      )
      const at = yield* now
      if (outcome._tag === "Success") {
        const { pages, files } = outcome.success
        yield* repo.update(runId, {
          status: "completed",
          pages,
          updatedAt: at,
          completedAt: at,
          progress: { step: "done", done: 4, total: 4, pages: pages.length, files }
        }, ["cancelled"])
        return
      }
      const error = outcome.failure
      if (error._tag === "RunStopped" && error.status === "cancelled") return
      const reason = error._tag === "RunStopped" ? error.reason : error.message
      yield* repo.update(runId, { status: "failed", reason, updatedAt: at, completedAt: at }, finished)
    }).pipe(
      Effect.catchCause((cause) =>
        Effect.flatMap(now, (at) =>
          Effect.asVoid(repo.update(runId, { status: "failed", reason: `The import stopped unexpectedly: ${String(cause).slice(0, 500)}`, updatedAt: at, completedAt: at }, finished)))
      ),
      Effect.withSpan("Imports.run")
    )

  const giveUp = (runId: string, reason: string) =>
    Effect.flatMap(now, (at) => Effect.asVoid(repo.update(runId, { status: "failed", reason, updatedAt: at, completedAt: at }, finished)))

  return { run, giveUp }
}
