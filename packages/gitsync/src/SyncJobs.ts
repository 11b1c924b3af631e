/**
 * The work of the `gitsync.import` and `gitsync.export` jobs: fetch, read the layout and write one
 * revision through content's RevisionWriter; or render main, write the layout and push one commit.
 * Each run records its outcome in the space's record (errors redacted); a failed run changes no
 * content and is not retried (`git info` shows why).
 */
import { Cause, Clock, Config, Context, Effect, Layer, Option, Result, Schema } from "effect"
import { Actor, Errors, Ids, Redact } from "@quire/kernel"
import {
  BlobStore,
  contentTypeOf,
  type FileNode,
  flattenPages,
  type Head,
  type MainHead,
  PublishedContent,
  reusableDocuments,
  type Revision,
  RevisionWriter,
  SpaceContent
} from "@quire/content"
import { importPages, reusableFile } from "./ContentMapping.ts"
import { exportIncludes, importReusableContents } from "./ReusableContentMapping.ts"
import { includeFolders, readIncludes, writeIncludes } from "./layout/Includes.ts"
import type { SyncRun } from "./domain/GitSyncInfo.ts"
import { CommitMessages } from "./CommitMessages.ts"
import { GitAuthors } from "./GitAuthors.ts"
import { GitSyncRepo, type SyncRecord } from "./GitSyncRepo.ts"
import { ImportedLayoutRepo } from "./ImportedLayoutRepo.ts"
import { type GitBlob, type GitSnapshot, GitTransport, type ReadLimits } from "./GitTransport.ts"
import { SecretBox } from "./SecretBox.ts"
import { readRepository, type RepoAsset, type RepoPage } from "./layout/Layout.ts"
import { joinPath, normalizePath } from "./layout/Paths.ts"
import { exportChanges, layoutFilesOf } from "./sync/Exporting.ts"

/** The payload of `gitsync.import`. */
export const ImportJob = Schema.Struct({
  spaceId: Schema.String,
  /** The user the import acts as (the requester, or who connected the space). */
  actorId: Schema.String,
  /** The URL sealed by the SecretBox; null: the space's configured one. */
  url: Schema.NullOr(Schema.String),
  ref: Schema.String,
  projectDirectory: Schema.String,
  standalone: Schema.Boolean,
  force: Schema.Boolean,
  /** ISO instant of the triggering event. */
  timestamp: Schema.String,
  trigger: Schema.Literals(["api", "webhook"]),
  /** The pushed commit's message, when a webhook said it. */
  message: Schema.optional(Schema.String)
})
export type ImportJob = typeof ImportJob.Type

/** The payload of `gitsync.export`. */
export const ExportJob = Schema.Struct({
  spaceId: Schema.String,
  actorId: Schema.String,
  /** The URL sealed by the SecretBox; null: the space's configured repository (with its ref and directory). */
  url: Schema.NullOr(Schema.String),
  ref: Schema.String,
  projectDirectory: Schema.String,
  commitMessage: Schema.String,
  force: Schema.Boolean,
  timestamp: Schema.String,
  trigger: Schema.Literals(["api", "auto"])
})
export type ExportJob = typeof ExportJob.Type

export const importTask = "gitsync.import"
export const exportTask = "gitsync.export"

/** What one import may read: the transport's bounds of the tree, and the most pages. */
export interface ImportLimits extends ReadLimits {
  readonly maxPages: number
}

/**
 * The import limits from the environment: `QUIRE_GIT_MAX_FILE_BYTES` (100 MiB, GitBook's limit of a
 * file), `QUIRE_GIT_MAX_TREE_BYTES` (256 MiB), `QUIRE_GIT_MAX_TREE_FILES` (20,000) and
 * `QUIRE_GIT_MAX_PAGES` (5,000).
 */
export const importLimitsConfig: Config.Config<ImportLimits> = Config.all({
  maxFileBytes: Config.Int("QUIRE_GIT_MAX_FILE_BYTES").pipe(Config.withDefault(100 * 1024 * 1024)),
  maxTreeBytes: Config.Int("QUIRE_GIT_MAX_TREE_BYTES").pipe(Config.withDefault(256 * 1024 * 1024)),
  maxTreeFiles: Config.Int("QUIRE_GIT_MAX_TREE_FILES").pipe(Config.withDefault(20_000)),
  maxPages: Config.Int("QUIRE_GIT_MAX_PAGES").pipe(Config.withDefault(5_000))
})

const countPages = (pages: ReadonlyArray<RepoPage>): number => pages.reduce((n, page) => n + 1 + countPages(page.children), 0)

/** Why a run stopped without changing anything (recorded as failed or skipped). */
class RunStopped {
  constructor(readonly status: "failed" | "skipped", readonly reason: string) {}
}

export interface SyncJobsShape {
  readonly runImport: (job: ImportJob) => Effect.Effect<void>
  readonly runExport: (job: ExportJob) => Effect.Effect<void>
  /** The queue gave a run up (its process died on the last attempt): a run still pending or running is recorded failed with `reason`. */
  readonly giveUp: (kind: "import" | "export", spaceId: string, reason: string) => Effect.Effect<void>
}

/**
 * The user's credentials in `url` (and the URL itself when it holds them), to mask wherever git or a
 * message might echo them. A URL without credentials, a local repository's path among them, is no
 * secret: masking it would hide where the failure happened.
 */
export const secretsOf = (url: string): ReadonlyArray<string> => {
  if (!URL.canParse(url)) return []
  const parsed = new URL(url)
  const credentials = [decodeURIComponent(parsed.password), decodeURIComponent(parsed.username)].filter((s) => s !== "")
  return credentials.length === 0 ? [] : [url, ...credentials]
}

/** The space's main content as a head that never moves: the revision is stored beside main (`standalone`). */
const beside = (main: Head<MainHead, Errors.NotFound | Errors.Forbidden, Actor.Actor>): Head<MainHead, Errors.NotFound | Errors.Forbidden, Actor.Actor> => ({
  read: main.read,
  move: () => Effect.succeed(true),
  main: false,
  describe: main.describe
})

/** How a run is recorded in the space's record: running, then its outcome (errors redacted). */
const runRecords = (repo: GitSyncRepo["Service"], box: SecretBox["Service"]) => {
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  const setRun = (
    spaceId: string,
    kind: "import" | "export",
    run: Omit<SyncRun, "at">,
    extra: { readonly eventAt?: Date | undefined; readonly exportedCommit?: string | undefined } = {}
  ) => Effect.flatMap(now, (at) => repo.updateRun(spaceId, { kind, run: { ...run, at }, ...extra }))

  /** Runs `work` as the job's user, recording running, then its outcome; never fails. */
  const run = (
    kind: "import" | "export",
    job: ImportJob | ExportJob,
    work: (record: SyncRecord, url: string) => Effect.Effect<{ readonly commit: string | null; readonly exportedCommit?: string }, unknown, Actor.Actor>
  ) =>
    Effect.gen(function*() {
      const found = yield* repo.find(job.spaceId)
      // A space disconnected (or purged) since the job was queued: nothing to do.
      if (Option.isNone(found)) return
      const record = found.value
      yield* setRun(job.spaceId, kind, { status: "running", commit: null, error: null })
      const sealed = job.url ?? record.urlSealed
      const opened = box.open(sealed)
      const secrets = Option.match(opened, { onNone: () => [], onSome: secretsOf })
      const timestamp = new Date(job.timestamp)
      const outcome = yield* Effect.gen(function*() {
        if (Option.isNone(opened)) {
          return yield* Effect.fail(new RunStopped("failed", "The stored repository URL cannot be decrypted (was QUIRE_SECRET changed?); connect the space again"))
        }
        if (record.lastEventAt !== null && timestamp.getTime() < record.lastEventAt.getTime()) {
          return yield* Effect.fail(new RunStopped("skipped", `A newer event (${record.lastEventAt.toISOString()}) was already applied; this one (${timestamp.toISOString()}) is older`))
        }
        return yield* work(record, opened.value).pipe(Effect.provideService(Actor.Actor, { userId: job.actorId, instanceAdmin: false }))
      }).pipe(Effect.result)
      if (Result.isSuccess(outcome)) {
        yield* setRun(job.spaceId, kind, { status: "succeeded", commit: outcome.success.commit, error: null }, {
          eventAt: timestamp,
          exportedCommit: outcome.success.exportedCommit
        })
        return
      }
      const failure = outcome.failure
      const stopped = failure instanceof RunStopped
        ? failure
        : new RunStopped("failed", failure instanceof Error || (typeof failure === "object" && failure !== null && "message" in failure)
          ? String((failure as { readonly message: unknown }).message)
          : String(failure))
      const reason = Redact.text(stopped.reason, secrets)
      if (stopped.status === "failed") yield* Effect.logWarning(`Git ${kind} of space ${job.spaceId} failed: ${reason}`)
      yield* setRun(job.spaceId, kind, { status: stopped.status, commit: null, error: reason })
    }).pipe(
      Effect.catchCause((cause) =>
        Effect.gen(function*() {
          yield* Effect.logError(`Git ${kind} of space ${job.spaceId} failed`, cause)
          if (Cause.hasInterruptsOnly(cause)) return yield* Effect.failCause(cause)
          yield* setRun(job.spaceId, kind, { status: "failed", commit: null, error: "Internal error; see the server's log" })
        })
      ),
      Effect.orDie
    ) as Effect.Effect<void>

  return { setRun, run }
}

/** The project's pages, files and includes; the run stops when they cannot be read, are too many or are none. */
const readTree = Effect.fnUntraced(function*(snapshot: GitSnapshot, job: ImportJob, limits: ImportLimits) {
  const read = readRepository(snapshot.files, { projectDirectory: job.projectDirectory })
  if (Result.isFailure(read)) return yield* Effect.fail(new RunStopped("failed", `The repository cannot be read: ${read.failure.message}`))
  const tree = read.success
  const includes = readIncludes(snapshot.files, includeFolders(job.projectDirectory, tree.config))
  const pageCount = countPages(tree.pages)
  if (pageCount > limits.maxPages) {
    return yield* Effect.fail(
      new RunStopped("failed", `The repository has ${pageCount} pages, more than the limit of ${limits.maxPages} pages per import (QUIRE_GIT_MAX_PAGES)`)
    )
  }
  // Never an import that empties the space: a root that misses the pages is a mistake to show.
  if (pageCount === 0) {
    const root = joinPath(job.projectDirectory, tree.config.root) || "the repository's root"
    // What was skipped tells why (a SUMMARY.md listing files that are not there, a readme elsewhere).
    const why = tree.warnings.length === 0 ? "" : ` (${tree.warnings.slice(0, 3).join("; ")})`
    return yield* Effect.fail(new RunStopped("failed", `The documentation root (${root}) holds no pages${why}; nothing was imported and the space is unchanged`))
  }
  return { tree, includes }
})

export class SyncJobs extends Context.Service<SyncJobs, SyncJobsShape>()("@quire/gitsync/SyncJobs") {
  static readonly layer = Layer.effect(
    SyncJobs,
    Effect.gen(function*() {
      const repo = yield* GitSyncRepo
      const layouts = yield* ImportedLayoutRepo
      const box = yield* SecretBox
      const transport = yield* GitTransport
      const content = yield* SpaceContent
      const writer = yield* RevisionWriter
      const published = yield* PublishedContent
      const blobs = yield* BlobStore
      const ids = yield* Ids.Ids
      const authors = yield* GitAuthors
      const commitMessages = yield* CommitMessages
      const limits = yield* Effect.orDie(importLimitsConfig)
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const { run, setRun } = runRecords(repo, box)

      const runImport = (job: ImportJob) =>
        run("import", job, (record, url) =>
          Effect.gen(function*() {
            // The commit's message, where the transport tells it (a webhook tells it too).
            // Only the project directory is read, within the limits (checked before any file is read).
            const snapshot: GitSnapshot = yield* transport.fetch({ url, ref: job.ref }, { directory: normalizePath(job.projectDirectory), limits })
            if (job.trigger === "webhook" && snapshot.commit === record.exportedCommit) {
              return yield* Effect.fail(new RunStopped("skipped", `${snapshot.commit} is the commit of our own export`))
            }
            const { includes, tree } = yield* readTree(snapshot, job, limits)
            const current = yield* content.revision(job.spaceId)
            const organizationId = current.access.space.organizationId
            const stored: Array<FileNode> = []
            const assets: Array<{ readonly asset: RepoAsset; readonly file: FileNode }> = []
            return yield* Effect.gen(function*() {
              for (const asset of tree.files) {
                const kept = reusableFile(current.revision, asset)
                if (kept !== undefined) {
                  assets.push({ asset, file: kept })
                  continue
                }
                const node = yield* content.storeFile(organizationId, { name: asset.name, contentType: contentTypeOf(asset.name), bytes: asset.bytes })
                const file = { ...node, git: { oid: asset.oid, path: asset.path } }
                stored.push(file)
                assets.push({ asset, file })
              }
              const files = assets.map((a) => a.file)
              const main = content.mainHead(job.spaceId)
              const shownUrl = Redact.withoutCredentials(url)
              yield* writer.write(job.standalone ? beside(main) : main, (parent: Revision) =>
                Effect.gen(function*() {
                  const at = (yield* now).toISOString()
                  const inherited = new Set(flattenPages(parent.pages).flatMap(({ page }) => page.document === undefined ? [] : [page.document]))
                  const imported = yield* importPages(parent, inherited, tree, assets, ids, at)
                  const reusable = yield* importReusableContents(parent, includes, ids)
                  return {
                    pages: imported.pages,
                    files,
                    reusableContents: reusable.nodes,
                    documents: new Map([...imported.documents, ...reusable.documents]),
                    git: { oid: snapshot.commit, message: snapshot.message, createdByService: true, url: shownUrl, ref: job.ref }
                  }
                }), { system: true })
              // What the import read, for an export into a repository without the project.
              if (!job.standalone) {
                const files = layoutFilesOf(snapshot.files, tree, job.projectDirectory)
                yield* layouts.save(job.spaceId, { projectDirectory: normalizePath(job.projectDirectory), commit: snapshot.commit, files })
              }
              return { commit: snapshot.commit }
            }).pipe(Effect.onError(() => content.releaseFiles(organizationId, stored)))
          }))

      const runExport = (job: ExportJob) =>
        run("export", job, (record, url) =>
          Effect.gen(function*() {
            const ref = job.url === null ? record.ref : job.ref
            const projectDirectory = job.url === null ? record.projectDirectory : job.projectDirectory
            const current = yield* content.revision(job.spaceId)
            const revision = current.revision
            const hashes = [
              ...flattenPages(revision.pages).flatMap(({ page }) => page.document === undefined ? [] : [page.document]),
              ...reusableDocuments(revision.reusableContents)
            ]
            const documents = yield* published.documents(hashes)
            // The branch's project directory, within the same bounds as an import's (the fetch holds it in memory).
            const previous = yield* transport.fetch({ url, ref }, { directory: normalizePath(projectDirectory), limits }).pipe(
              Effect.map((snapshot): { readonly commit: string | undefined; readonly files: ReadonlyMap<string, GitBlob> } => snapshot),
              Effect.catchTag("GitBranchMissing", () => Effect.succeed({ commit: undefined, files: new Map<string, GitBlob>() }))
            )
            const changes = yield* exportChanges({
              revision,
              documents,
              previous: previous.files,
              projectDirectory,
              layout: layouts.find(job.spaceId),
              bytesOf: (file) => blobs.get(file.blob),
              besides: (files, config) => writeIncludes(exportIncludes(revision, documents), files, includeFolders(projectDirectory, config))
            }).pipe(Effect.mapError((stopped) => new RunStopped("failed", stopped.reason)))
            if (changes.size === 0 && previous.commit !== undefined) return { commit: previous.commit }
            const author = yield* authors.author(job.actorId)
            // An automatic export says what the revision was (a merged change request's subject) where that is known.
            const described = job.trigger === "auto" ? yield* commitMessages.forRevision(job.spaceId, revision.id) : Option.none()
            const pushed = yield* transport.push({ url, ref }, {
              parent: previous.commit,
              changes,
              message: Option.getOrElse(described, () => job.commitMessage),
              author,
              force: job.force,
              createBranch: previous.commit === undefined
            })
            return { commit: pushed.commit, exportedCommit: pushed.commit }
          }))

      const giveUp = (kind: "import" | "export", spaceId: string, reason: string) =>
        Effect.gen(function*() {
          const found = yield* repo.find(spaceId)
          if (Option.isNone(found)) return
          const last = kind === "import" ? found.value.lastImport : found.value.lastExport
          if (last === null || (last.status !== "running" && last.status !== "pending")) return
          const error = `The ${kind} stopped: ${reason}. Run it again to retry.`
          yield* setRun(spaceId, kind, { status: "failed", commit: null, error })
        })

      return SyncJobs.of({ runImport, runExport, giveUp })
    })
  )
}
