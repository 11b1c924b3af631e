/**
 * What a user sees when the queue gives a run up (its process died on the last attempt, see
 * packages/queue's tests and EmbeddedCrash.test.ts): a translation run or a Git import that was
 * `running` is recorded `failed` with the reason, through the job definition's give-up hook,
 * instead of staying `running` for good. The runs here hang on a provider and a remote that
 * never answer, as a run whose worker was killed would; then the hook is called as the queue
 * calls it.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { importRepository } from "@quire/gitsync/Jobs"
import { runTranslation } from "@quire/translations/Jobs"
import { everyBackend, type Client, mergeIntoMain, spaceWith, withSettings } from "./Harness.ts"

/** Holds every request: a translation provider and a Git remote that never answer. */
let requests = 0
const silent = http.createServer(() => void requests++)
await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
silent.unref()
const origin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
const settings = { QUIRE_TRANSLATE_URL: `${origin}/v1`, QUIRE_TRANSLATE_MODEL: "silent-model", QUIRE_TRANSLATE_KEY: "silent-key" }

const reason = "The process running it stopped (killed, out of memory or crashed) on its last attempt"

/** Polls (real time) until `check` holds on what `poll` answers. */
const until = <A, E, R>(poll: Effect.Effect<A, E, R>, check: (a: A) => boolean) =>
  Effect.gen(function*() {
    while (true) {
      const value = yield* poll
      if (check(value)) return value
      yield* Effect.sleep("50 millis")
    }
  }).pipe(Effect.timeout("30 seconds"), Effect.orDie)

const seen = (before: number) => until(Effect.sync(() => requests), (n) => n > before)

const withPage = Effect.fnUntraced(function*() {
  const setup = yield* spaceWith()
  yield* mergeIntoMain(setup.alice.api, setup.space.id, [
    { operation: "insert_page", title: "Guide", document: { markdown: "# Guide\n\nRead this first.\n" } }
  ])
  return setup
})

const translation = (api: Client, organizationId: string, translationId: string) =>
  api.translations.getTranslation({ params: { organizationId, translationId } })

for (const backend of everyBackend) {
  layer(withSettings(backend.layer, settings), { timeout: 120_000, excludeTestServices: true })(`give-up hooks on ${backend.name}`, (it) => {
    it.effect("a translation run given up is failed with the reason, not running", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* withPage()
        const before = requests
        const created = yield* alice.api.translations.createTranslation({
          params: { organizationId },
          payload: { source: { space: space.id, language: "en" }, language: "fr" }
        })
        yield* seen(before)
        const running = yield* translation(alice.api, organizationId, created.id)
        assert.strictEqual(running.status, "running")

        yield* runTranslation.onGiveUp!({ translationId: created.id, actorId: alice.user.id }, reason)
        const failed = yield* translation(alice.api, organizationId, created.id)
        // GitBook's statuses: a run that failed is completed, with why in `failure`.
        assert.strictEqual(failed.status, "completed")
        assert.match(failed.failure ?? "", /^The run stopped: The process running it stopped .*It runs again when/)
      }))

    it.effect("a Git import given up is failed with the reason, not running", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const spaceId = space.id
        const url = `${origin}/acme/docs.git`
        yield* alice.api.git.connectSpaceGitRepository({ params: { spaceId }, payload: { url, ref: "refs/heads/main" } })
        const before = requests
        const timestamp = new Date().toISOString()
        yield* alice.api.git.importGitRepository({ params: { spaceId }, payload: { url, ref: "refs/heads/main", timestamp } })
        yield* seen(before)
        const running = yield* alice.api.git.getSpaceGitInfo({ params: { spaceId } })
        assert.strictEqual(running.lastImport?.status, "running")

        yield* importRepository.onGiveUp!({
          spaceId,
          actorId: alice.user.id,
          url: null,
          ref: "refs/heads/main",
          projectDirectory: "",
          standalone: false,
          force: false,
          timestamp,
          trigger: "api"
        }, reason)
        const failed = yield* alice.api.git.getSpaceGitInfo({ params: { spaceId } })
        assert.strictEqual(failed.lastImport?.status, "failed")
        assert.match(failed.lastImport?.error ?? "", /^The import stopped: The process running it stopped .*Run it again/)
      }))
  })
}
