/** Git sync's use cases and jobs over content's real write path and the in-process queue, for suites beyond GitSync.test.ts. */
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Ids, Transactor } from "@quire/kernel"
import { as, Backends, memberRoles } from "@quire/testkit"
import { migrations as auditMigrations } from "@quire/audit"
import { BlobStore, ContentLayers, Memberships, migrations as contentMigrations, ParsePool, SpaceContent, Spaces } from "@quire/content"
import { SqlTransactor } from "@quire/db"
import { OutboundFetch } from "@quire/outbound"
import { JobRunner, layerInProcessQueue, layerInProcessRunner } from "@quire/queue"
import * as AutoExport from "../src/AutoExport.ts"
import { CommitMessages } from "../src/CommitMessages.ts"
import { GitAuthors } from "../src/GitAuthors.ts"
import { GitSync } from "../src/GitSync.ts"
import * as GitSyncLayers from "../src/GitSyncLayers.ts"
import { GitTransport, type MemoryGitRemotes } from "../src/GitTransport.ts"
import { jobs } from "../src/Jobs.ts"
import { migrations } from "../src/migrations/index.ts"
import { SyncJobs } from "../src/SyncJobs.ts"

export const org = "org-1"
const roles = memberRoles({ [org]: { admin: "admin", editor: "edit", reader: "read" } })
const debounceMillis = 2000
export const main = "refs/heads/main"

type Ports = Layer.Success<typeof ContentLayers.layerReposMemory> | Layer.Success<typeof GitSyncLayers.layerReposMemory> | Transactor.Transactor

/** The use cases over the given ports, with the job queue running the sync jobs in this process. */
export const stackOver = <E, R>(transport: Layer.Layer<GitTransport>, ports: Layer.Layer<Ports, E, R>) => {
  const services = Layer.mergeAll(GitSync.layerWith({ debounceMillis }), SyncJobs.layer).pipe(
    Layer.provideMerge(
      SpaceContent.layer.pipe(Layer.provideMerge(ContentLayers.layerServices.pipe(Layer.provide(AutoExport.layerWith({ debounceMillis })))))
    ),
    Layer.provideMerge(GitSyncLayers.layerSpaceDependents),
    Layer.provideMerge(GitSyncLayers.layerInfrastructure),
    Layer.provideMerge(ports),
    Layer.provideMerge(BlobStore.layerMemory),
    // Exports authored by user id, with the export's own message: these tests have no users or change requests.
    Layer.provide([Memberships.layerTest(roles), GitAuthors.layerUserIds, CommitMessages.layerNone, Ids.Ids.layerTest, Layer.orDie(OutboundFetch.layerConfig), ParsePool.layerMainThread, transport])
  )
  return layerInProcessRunner(jobs).pipe(Layer.provideMerge(services), Layer.provideMerge(layerInProcessQueue(jobs)))
}

/** The stack on memory, and on copies of a PostgreSQL and a PGlite database migrated once. */
export const backendsOver = (transport: Layer.Layer<GitTransport>) =>
  Backends.make({
    memory: stackOver(transport, Layer.mergeAll(ContentLayers.layerReposMemory, GitSyncLayers.layerReposMemory, Transactor.Transactor.layerMemory)),
    sql: () => stackOver(transport, Layer.mergeAll(ContentLayers.layerReposSql, GitSyncLayers.layerReposSql, SqlTransactor.layer)),
    migrations: [auditMigrations, contentMigrations, migrations]
  })

/** Runs the queued jobs, lets debounced exports fire, and runs those. */
export const settle = Effect.gen(function*() {
  const runner = yield* JobRunner
  yield* runner.drain
  yield* TestClock.adjust(debounceMillis * 2)
  yield* runner.drain
})

export const newSpace = (title: string) =>
  Effect.map(Effect.flatMap(Effect.service(Spaces), (s) => s.create(org, { title })), (a) => a.space).pipe(as("admin"))

export const currentRevision = (spaceId: string) =>
  Effect.map(Effect.flatMap(Effect.service(SpaceContent), (c) => c.revision(spaceId)), (c) => c.revision).pipe(as("admin"))

/** A space that imported `files`, committed to a new repository at `url` of `remotes`: the space and the commit. */
export const importedFiles = (remotes: MemoryGitRemotes, url: string, files: Readonly<Record<string, string>>, title: string) =>
  Effect.gen(function*() {
    const space = yield* newSpace(title)
    const commit = remotes.commit(url, main, files)
    yield* (yield* GitSync).importRepository(space.id, { url, ref: main }).pipe(as("admin"))
    yield* settle
    return { space, url, commit }
  })

/** Exports the space to `url` and waits for it: the space's last export. */
export const exportTo = (spaceId: string, url: string, commitMessage: string) =>
  Effect.gen(function*() {
    const sync = yield* GitSync
    yield* sync.exportRepository(spaceId, { url, ref: main, commitMessage }).pipe(as("admin"))
    yield* settle
    return (yield* sync.info(spaceId).pipe(as("admin"))).lastExport
  })
