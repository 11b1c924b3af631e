/**
 * The specs use cases over the memory adapters, with a queue that records what is enqueued and
 * runs started by the test (as the `specs.process` job would): versions only on change, failures
 * recorded (permanently for the document's own), sealed credentials, roles, publishing, giving up
 * and polling on the TestClock.
 */
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { Ids } from "@quire/kernel"
import { as, errorMessage, errorTag, memberRoles, OpenApiSources } from "@quire/testkit"
import { OutboundFetch } from "@quire/outbound"
import { ContentLayers, ContentAccess, Memberships } from "@quire/content"
import { JobQueue, PermanentJobFailure } from "@quire/queue"
import * as SourceCredentials from "../src/SourceCredentials.ts"
import { processTask, Specs } from "../src/Specs.ts"
import { SpecsRepo } from "../src/SpecsRepo.ts"

const org = "org-1"

const roles = memberRoles({ [org]: { alice: "admin", cora: "create", rhea: "read", guest: null } })

interface Job {
  readonly task: string
  readonly payload: unknown
  readonly jobKey: string | undefined
  readonly maxAttempts: number | undefined
}

/** Every job enqueued, in order; the test runs them itself. */
class Enqueued extends Context.Service<Enqueued, Array<Job>>()("@quire/specs/test/Enqueued") {}

const layerQueue = Layer.effect(JobQueue, Effect.map(Effect.service(Enqueued), (jobs) =>
  JobQueue.of({
    enqueue: (task, payload, options) => Effect.sync(() => void jobs.push({ task, payload, jobKey: options?.jobKey, maxAttempts: options?.maxAttempts }))
  }))).pipe(Layer.provideMerge(Layer.sync(Enqueued, () => [])))

/** Sealing that a test can read: the plain URL in base64 behind a prefix. */
const layerSecrets = Layer.succeed(SourceCredentials.SpecSecrets, SourceCredentials.SpecSecrets.of({
  seal: (plain) => `sealed:${Buffer.from(plain).toString("base64")}`,
  open: (sealed) => sealed.startsWith("sealed:") ? Option.some(Buffer.from(sealed.slice(7), "base64").toString()) : Option.none()
}))

const layer = Specs.layer.pipe(
  Layer.provideMerge(SpecsRepo.layerMemory),
  Layer.provide(ContentAccess.layer.pipe(Layer.provide([ContentLayers.layerReposMemory, Memberships.layerTest(roles)]))),
  Layer.provideMerge(layerQueue),
  Layer.provide([Ids.Ids.layerTest, layerSecrets, OutboundFetch.layer({ allow: ["127.0.0.1"] })])
)

const { doc31, sources, swagger2 } = OpenApiSources

it.layer(layer, { timeout: "60 seconds" })("Specs", (it) => {
  describe("writing and processing", () => {
    it.effect("creates a spec from text, queues its run, and versions it only when the document changes", () =>
      Effect.gen(function*() {
        const specs = yield* Specs
        const created = yield* specs.create(org, "legacy", { text: swagger2 }).pipe(as("cora"))
        assert.deepStrictEqual([created.spec.processingState, created.spec.visibility, created.spec.lastVersionId], ["pending", "private", null])
        assert.deepStrictEqual(created.permissions, { view: true, edit: true })
        assert.deepStrictEqual((yield* Enqueued).at(-1), { task: processTask, payload: { specId: created.spec.id }, jobKey: `${processTask}:${created.spec.id}`, maxAttempts: 3 })

        yield* specs.process(created.spec.id)
        const done = yield* specs.get(org, "legacy").pipe(as("rhea"))
        assert.deepStrictEqual([done.spec.processingState, done.spec.lastProcessErrorCode, done.spec.lastProcessedErrors], ["complete", null, []])
        assert.deepStrictEqual(done.permissions, { view: true, edit: false })
        const first = yield* specs.version(org, "legacy", "latest").pipe(as("rhea"))
        assert.strictEqual(first.version.id, done.spec.lastVersionId)
        assert.strictEqual((first.version.filesystem[0]!.specification as { swagger: string }).swagger, "2.0")

        // The same source again: processed, no new version.
        const again = yield* specs.put(org, "legacy", { text: swagger2 }).pipe(as("cora"))
        assert.deepStrictEqual([again.created, again.access.spec.processingState], [false, "pending"])
        yield* specs.process(created.spec.id)
        assert.strictEqual((yield* specs.get(org, "legacy").pipe(as("rhea"))).spec.lastVersionId, first.version.id)
        // Another document: a new version, the older one kept.
        yield* specs.put(org, "legacy", { text: JSON.stringify({ ...doc31("Inline"), paths: {} }) }).pipe(as("cora"))
        yield* specs.process(created.spec.id)
        const versions = yield* specs.versions(org, "legacy", {}).pipe(as("rhea"))
        const latest = (yield* specs.get(org, "legacy").pipe(as("rhea"))).spec.lastVersionId
        assert.deepStrictEqual(versions.items.map((v) => v.id), [latest, first.version.id])
        assert.strictEqual((yield* specs.version(org, "legacy", { id: first.version.id }).pipe(as("rhea"))).version.hash, first.version.hash)
        assert.strictEqual(yield* errorTag(specs.version(org, "legacy", { id: "nope" }).pipe(as("rhea"))), "NotFound")

        const put = yield* specs.put(org, "fresh", { text: swagger2 }).pipe(as("cora"))
        assert.isTrue(put.created)
        assert.strictEqual(yield* errorTag(specs.create(org, "fresh", { text: swagger2 }).pipe(as("cora"))), "Conflict")
        // A spec not processed yet has no version.
        assert.strictEqual(yield* errorTag(specs.version(org, "fresh", "latest").pipe(as("rhea"))), "NotFound")
      }))

    it.effect("fetches a URL source with its references; a change at the URL makes a new version", () =>
      Effect.gen(function*() {
        const specs = yield* Specs
        const { state, origin } = yield* sources
        const created = yield* specs.create(org, "pets", { url: `${origin}/openapi.json` }).pipe(as("alice"))
        yield* specs.process(created.spec.id)
        const first = yield* specs.version(org, "pets", "latest").pipe(as("alice"))
        assert.deepStrictEqual(first.version.filesystem.map((f) => f.filename).toSorted(), ["openapi", "schemas/pet.json", "tag.json"])
        assert.strictEqual(first.version.url, `${origin}/openapi.json`)
        yield* specs.process(created.spec.id)
        assert.strictEqual((yield* specs.version(org, "pets", "latest").pipe(as("alice"))).version.id, first.version.id)
        state.title = "Pets v2"
        yield* specs.process(created.spec.id)
        const second = yield* specs.version(org, "pets", "latest").pipe(as("alice"))
        assert.notStrictEqual(second.version.id, first.version.id)
        assert.deepStrictEqual((second.version.filesystem.find((f) => f.filename === "openapi")!.specification as { info: unknown }).info, doc31("Pets v2").info)
      }))

    it.effect("records why a run failed: the document's own failure is permanent, an unreachable source is not", () =>
      Effect.gen(function*() {
        const specs = yield* Specs
        const { origin } = yield* sources
        const garbage = yield* specs.create(org, "garbage", { text: "{ this is: not [ json or yaml" }).pipe(as("alice"))
        const failure = yield* Effect.flip(specs.process(garbage.spec.id))
        assert.instanceOf(failure, PermanentJobFailure)
        const failed = (yield* specs.get(org, "garbage").pipe(as("alice"))).spec
        assert.deepStrictEqual([failed.processingState, failed.lastProcessErrorCode, failed.lastProcessedErrors[0]?.code, failed.lastVersionId], [
          "complete",
          "PARSE_ERROR",
          "UNPARSABLE",
          null
        ])
        const broken = yield* specs.create(org, "broken", { url: `${origin}/broken` }).pipe(as("alice"))
        yield* specs.process(broken.spec.id)
        const unreachable = (yield* specs.get(org, "broken").pipe(as("alice"))).spec
        assert.deepStrictEqual([unreachable.processingState, unreachable.lastProcessErrorCode, unreachable.lastProcessedErrors[0]?.code], ["complete", "FETCH_ERROR", "HTTP_ERROR"])
        // A run of a spec that is gone does nothing.
        yield* specs.remove(org, "broken").pipe(as("alice"))
        yield* specs.process(broken.spec.id)
      }))

    it.effect("keeps a source URL's credentials sealed, fetches with them, and shows them nowhere", () =>
      Effect.gen(function*() {
        const specs = yield* Specs
        const repo = yield* SpecsRepo
        const { origin } = yield* sources
        const created = yield* specs.create(org, "token", { url: `${origin}/token.json?token=tok-abc123` }).pipe(as("alice"))
        assert.deepStrictEqual(created.spec.source, {
          url: `${origin}/token.json?token=***`,
          sealedUrl: `sealed:${Buffer.from(`${origin}/token.json?token=tok-abc123`).toString("base64")}`
        })
        yield* specs.process(created.spec.id)
        const version = yield* specs.version(org, "token", "latest").pipe(as("alice"))
        assert.strictEqual(version.version.url, `${origin}/token.json?token=***`)
        // A wrong token: the error names the URL without it.
        const wrong = yield* specs.create(org, "wrong", { url: `${origin}/token.json?token=tok-wrong99` }).pipe(as("alice"))
        yield* specs.process(wrong.spec.id)
        const failed = (yield* specs.get(org, "wrong").pipe(as("alice"))).spec
        assert.strictEqual(failed.lastProcessErrorCode, "FETCH_ERROR")
        assert.notInclude(JSON.stringify(failed.lastProcessedErrors), "tok-wrong99")
        // A key that no longer opens the sealed URL: the run says to give it again.
        yield* repo.update(created.spec.id, { source: { url: `${origin}/token.json?token=***`, sealedUrl: "from another key" } })
        yield* specs.process(created.spec.id)
        assert.strictEqual((yield* specs.get(org, "token").pipe(as("alice"))).spec.lastProcessedErrors[0]?.code, "SEALED")
      }))
  })

  describe("access and publishing", () => {
    it.effect("members read, the create role and up change, guests and outsiders learn nothing; fields are checked", () =>
      Effect.gen(function*() {
        const specs = yield* Specs
        yield* specs.create(org, "guarded", { text: swagger2 }).pipe(as("alice"))
        assert.deepStrictEqual((yield* specs.list(org, {}).pipe(as("rhea"))).items.map((s) => s.spec.slug).includes("guarded"), true)
        assert.strictEqual(yield* errorTag(specs.create(org, "mine", { text: swagger2 }).pipe(as("rhea"))), "Forbidden")
        assert.strictEqual(yield* errorTag(specs.update(org, "guarded", "public").pipe(as("rhea"))), "Forbidden")
        assert.strictEqual(yield* errorTag(specs.remove(org, "guarded").pipe(as("rhea"))), "Forbidden")
        for (const user of ["guest", "outsider"]) {
          assert.strictEqual(yield* errorTag(specs.get(org, "guarded").pipe(as(user))), "NotFound")
          assert.strictEqual(yield* errorTag(specs.list(org, {}).pipe(as(user))), "NotFound")
          assert.strictEqual(yield* errorTag(specs.create(org, "theirs", { text: swagger2 }).pipe(as(user))), "NotFound")
          // Deleting what one cannot see answers as if it were not there.
          yield* specs.remove(org, "guarded").pipe(as(user))
        }
        assert.strictEqual((yield* specs.get(org, "guarded").pipe(as("alice"))).spec.slug, "guarded")
        assert.include(yield* errorMessage(specs.create(org, "Not a slug!", { text: swagger2 }).pipe(as("alice"))), "slug: must be 1 to 100 characters")
        assert.strictEqual(yield* errorMessage(specs.create(org, "ftp", { url: "ftp://example.com/a.json" }).pipe(as("alice"))), "source.url: must be an http or https URL")
        assert.strictEqual(yield* errorMessage(specs.create(org, "relative", { url: "/a.json" }).pipe(as("alice"))), "source.url: must be an absolute URL")
        assert.strictEqual(yield* errorMessage(specs.create(org, "empty", { text: "" }).pipe(as("alice"))), "source.text: must not be empty")
        const deep = `{"openapi":"3.1.0","x":${"[".repeat(1000)}${"]".repeat(1000)}}`
        assert.include(yield* errorMessage(specs.put(org, "deep", { text: deep }).pipe(as("alice"))), "source.text")
        assert.strictEqual(yield* errorTag(specs.get(org, "deep").pipe(as("alice"))), "NotFound")
      }))

    it.effect("publishes only public specs' latest versions, to anyone; deleting takes the versions", () =>
      Effect.gen(function*() {
        const specs = yield* Specs
        const created = yield* specs.create(org, "shown", { text: swagger2 }).pipe(as("alice"))
        yield* specs.process(created.spec.id)
        assert.strictEqual(yield* errorTag(specs.published(org, "shown")), "NotFound")
        const made = yield* specs.update(org, "shown", "public").pipe(as("cora"))
        assert.strictEqual(made.spec.visibility, "public")
        assert.strictEqual((yield* specs.published(org, "shown")).version.id, made.spec.lastVersionId)
        yield* specs.update(org, "shown", "private").pipe(as("alice"))
        assert.strictEqual(yield* errorTag(specs.published(org, "shown")), "NotFound")
        yield* specs.remove(org, "shown").pipe(as("cora"))
        yield* specs.remove(org, "shown").pipe(as("cora"))
        assert.strictEqual(yield* errorTag(specs.get(org, "shown").pipe(as("alice"))), "NotFound")
        assert.strictEqual(yield* errorTag(specs.versions(org, "shown", {}).pipe(as("alice"))), "NotFound")
      }))
  })

  describe("the queue's side", () => {
    it.effect("a run the queue gave up is recorded as failed; a finished one is left as it is", () =>
      Effect.gen(function*() {
        const specs = yield* Specs
        const pending = yield* specs.create(org, "stuck", { text: swagger2 }).pipe(as("alice"))
        yield* specs.giveUp(pending.spec.id, "the worker died")
        const stuck = (yield* specs.get(org, "stuck").pipe(as("alice"))).spec
        assert.deepStrictEqual([stuck.processingState, stuck.lastProcessErrorCode, stuck.lastProcessedErrors], [
          "complete",
          "PARSE_ERROR",
          [{ message: "Processing stopped: the worker died. Save the spec again to process it again.", code: "PROCESSING_STOPPED" }]
        ])
        const fine = yield* specs.create(org, "fine", { text: swagger2 }).pipe(as("alice"))
        yield* specs.process(fine.spec.id)
        yield* specs.giveUp(fine.spec.id, "late")
        assert.deepStrictEqual((yield* specs.get(org, "fine").pipe(as("alice"))).spec.lastProcessedErrors, [])
      }))

    it.effect("polls URL specs once their interval (an hour) has passed, and runs that were lost", () =>
      Effect.gen(function*() {
        const specs = yield* Specs
        const repo = yield* SpecsRepo
        const { state, origin } = yield* sources
        const polled = yield* specs.create(org, "polled", { url: `${origin}/openapi.json` }).pipe(as("alice"))
        yield* specs.process(polled.spec.id)
        const first = (yield* specs.get(org, "polled").pipe(as("alice"))).spec
        const due = () => Effect.map(repo.withUrl, (all) => all.filter((s) => s.id === polled.spec.id))
        yield* TestClock.adjust("30 minutes")
        yield* specs.pollDue
        assert.deepStrictEqual((yield* due())[0]!.lastProcessedAt, first.lastProcessedAt)
        state.title = "Polled v2"
        yield* TestClock.adjust("31 minutes")
        assert.isAtLeast(yield* specs.pollDue, 1)
        const second = (yield* specs.get(org, "polled").pipe(as("alice"))).spec
        assert.isAbove(second.lastProcessedAt!.getTime(), first.lastProcessedAt!.getTime())
        assert.notStrictEqual(second.lastVersionId, first.lastVersionId)

        // A run asked for and never finished is run again once it is older than the interval.
        yield* specs.put(org, "polled", { url: `${origin}/openapi.json` }).pipe(as("alice"))
        yield* TestClock.adjust("59 minutes")
        yield* specs.pollDue
        assert.strictEqual((yield* specs.get(org, "polled").pipe(as("alice"))).spec.processingState, "pending")
        yield* TestClock.adjust("2 minutes")
        yield* specs.pollDue
        assert.strictEqual((yield* specs.get(org, "polled").pipe(as("alice"))).spec.processingState, "complete")
      }))
  })
})
