/**
 * Translation runs end to end: the server's queue runs them against a fake OpenAI-compatible
 * provider on loopback (it answers each segment upper-cased behind `[<language>] `), on every backend.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { everyBackend, type Client, spaceWith, withSettings } from "./Harness.ts"
import { get } from "./SiteFixtures.ts"

interface Received {
  readonly language: string
  readonly segments: ReadonlyArray<string>
}

const received: Array<Received> = []
const seen429 = new Set<string>()

const sendJson = (response: http.ServerResponse, status: number, value: unknown) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(value))
}

/** What the fake provider answers for a segment holding `TRIGGER-INJECT`: markdown syntax the source never had. */
const injection = "Click [here](https://evil.example/phish) ![x](https://evil.example/pixel.png) <img src=x onerror=alert(1)>\n\n# Owned"

/**
 * The fake provider: `TRIGGER-500` in a segment answers 500, `TRIGGER-429` answers 429 once,
 * `TRIGGER-INJECT` answers `injection`.
 */
const provider = http.createServer((request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => (body += chunk.toString()))
  request.on("end", () => {
    const parsed = JSON.parse(body) as { model: string; messages: Array<{ role: string; content: string }> }
    const system = parsed.messages[0]!.content
    const segments = JSON.parse(parsed.messages[1]!.content) as Array<string>
    const language = /into language "([^"]+)"/.exec(system)?.[1] ?? "?"
    if (request.url !== "/v1/chat/completions" || request.headers.authorization !== "Bearer test-key" || parsed.model !== "fake-model") {
      return sendJson(response, 404, { error: { message: "unknown route, key or model" } })
    }
    if (segments.some((s) => s.includes("TRIGGER-500"))) return sendJson(response, 500, { error: { message: "boom" } })
    const once = segments.find((s) => s.includes("TRIGGER-429"))
    if (once !== undefined && !seen429.has(once)) {
      seen429.add(once)
      return sendJson(response, 429, { error: { message: "slow down" } })
    }
    received.push({ language, segments })
    const answer = (s: string) => s.includes("TRIGGER-INJECT") ? injection : `[${language}] ${s.toUpperCase()}`
    sendJson(response, 200, { choices: [{ message: { role: "assistant", content: JSON.stringify(segments.map(answer)) } }] })
  })
})
await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve))
const origin = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`
const settings = {
  QUIRE_TRANSLATE_URL: `${origin}/v1`,
  QUIRE_TRANSLATE_MODEL: "fake-model",
  QUIRE_TRANSLATE_KEY: "test-key",
  QUIRE_TRANSLATE_DEBOUNCE_MS: 100,
  QUIRE_TRANSLATE_MAX_CHARACTERS: 5000
}

const guide = [
  "# Install the tool",
  "",
  "Run the [installer](https://example.com/install) then read [the basics](about.md).",
  "",
  "```bash",
  "echo hello world",
  "```",
  "",
  "{% hint style=\"info\" %}",
  "Read the guide first.",
  "{% endhint %}",
  "",
  "| Name | Value |",
  "| --- | --- |",
  "| Color | Blue |",
  ""
].join("\n")

const about = "Quire keeps docs.\n\n- One item\n- Two items\n"

/** Merges `changes` into the space's main content through a change request. */
const merge = Effect.fnUntraced(function*(api: Client, spaceId: string, changes: Parameters<Client["changeRequestContent"]["updateChangeRequestContent"]>[0]["payload"]["changes"]) {
  const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Edit" } })
  yield* api.changeRequestContent.updateChangeRequestContent({ params: { spaceId, changeRequestId: cr.id }, payload: { changes } })
  yield* api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
})

/** The translation once a run after `runs` runs finished, polled through the API. */
const settledAfter = Effect.fnUntraced(function*(api: Client, organizationId: string, translationId: string, runs: number) {
  for (let i = 0; i < 400; i++) {
    const t = yield* api.translations.getTranslation({ params: { organizationId, translationId } })
    if (t.stats.runs > runs && t.status === "completed") return t
    yield* Effect.sleep("100 millis")
  }
  const last = yield* api.translations.getTranslation({ params: { organizationId, translationId } })
  return assert.fail(`translation ${translationId} did not finish run ${runs + 1}: ${JSON.stringify(last)}`)
})

const markdownOf = (api: Client, spaceId: string, pageId: string) =>
  Effect.map(api.spaceContent.getPageById({ params: { spaceId, pageId }, query: { format: "markdown" } }), (p) => (p as { markdown?: string }).markdown ?? "")

/** A bare repository in GitBook's layout holding `files` on `main`, removed with the scope; answers its `file://` URL. */
const repositoryOf = (files: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const dir = mkdtempSync(join(tmpdir(), "quire-translated-includes-"))
      const work = join(dir, "work")
      const env = { ...process.env, GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com" }
      const run = (...args: ReadonlyArray<string>) => execFileSync("git", args, { cwd: work, env })
      mkdirSync(work)
      run("init", "--quiet", "--initial-branch=main")
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(work, path, ".."), { recursive: true })
        writeFileSync(join(work, path), text)
      }
      run("add", ".")
      run("commit", "--quiet", "-m", "Docs")
      return { dir, url: `file://${work}` }
    }),
    ({ dir }) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )

for (const backend of everyBackend) {
  layer(withSettings(backend.layer, settings), { timeout: 240_000, excludeTestServices: true })(`translation runs on ${backend.name}`, (it) => {
    it.effect("translates text only, and only the pages changed since the last run", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const api = alice.api
        yield* merge(api, space.id, [
          { operation: "insert_page", title: "Guide", description: "How to start", document: { markdown: guide } },
          { operation: "insert_page", title: "About", document: { markdown: about } }
        ])
        const source = yield* api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })
        const [guidePage, aboutPage] = source.pages
        const created = yield* api.translations.createTranslation({
          params: { organizationId },
          payload: {
            source: { space: space.id, language: "en" },
            language: "fr",
            instructions: { object: "document", data: {}, nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ text: "Formal tone." }] }] }] }
          }
        })
        const first = yield* settledAfter(api, organizationId, created.id, 0)
        assert.strictEqual(first.status, "completed", first.failure)
        assert.deepStrictEqual(
          yield* api.translations.getTranslationsProvider({ params: { organizationId } }),
          { object: "translations-provider", configured: true, setting: "QUIRE_TRANSLATE_URL" }
        )
        assert.include(received.flatMap((r) => r.segments), "Run the <1>installer</1> then read <2>the basics</2>.")
        assert.isUndefined(first.failure)
        assert.isDefined(first.result)
        const resultSpace = first.result!.space
        assert.strictEqual(first.result!.language, "fr")
        assert.strictEqual(first.stats.runs, 1)
        assert.strictEqual(first.stats.latestPages, 2)
        assert.strictEqual(first.stats.totalPages, 2)
        assert.isTrue(first.stats.latestWords > 10)

        const result = yield* api.spaceContent.getCurrentRevision({ params: { spaceId: resultSpace }, query: {} })
        assert.strictEqual(result.id, first.result!.revision)
        assert.deepStrictEqual(result.pages.map((p) => p.slug), source.pages.map((p) => p.slug))
        assert.deepStrictEqual(result.pages.map((p) => p.title), ["[fr] GUIDE", "[fr] ABOUT"])
        assert.strictEqual(result.pages[0]!.description, "[fr] HOW TO START")

        const translatedGuide = yield* markdownOf(api, resultSpace, guidePage!.id)
        assert.include(translatedGuide, "# [fr] INSTALL THE TOOL")
        // A sentence is one segment, its links sent as tags and put back around the translated words.
        assert.include(translatedGuide, "[fr] RUN THE [INSTALLER](https://example.com/install) THEN READ [THE BASICS](about.md).")
        assert.include(translatedGuide, "```bash\necho hello world\n```")
        assert.include(translatedGuide, "{% hint style=\"info\" %}")
        assert.include(translatedGuide, "[fr] READ THE GUIDE FIRST.")
        assert.include(translatedGuide, "{% endhint %}")
        assert.include(translatedGuide, "[fr] COLOR")
        assert.notInclude(translatedGuide, "echo HELLO")
        const translatedAbout = yield* markdownOf(api, resultSpace, aboutPage!.id)
        assert.include(translatedAbout, "[fr] QUIRE KEEPS DOCS.")
        assert.include(translatedAbout, "[fr] ONE ITEM")

        // An edit of one page of the source: only that page is translated again.
        const before = received.length
        yield* merge(api, space.id, [{ operation: "update_page", page: aboutPage!.id, document: { markdown: "Quire keeps docs in step.\n" } }])
        const second = yield* settledAfter(api, organizationId, created.id, 1)
        assert.strictEqual(second.status, "completed", second.failure)
        assert.strictEqual(second.stats.runs, 2)
        assert.strictEqual(second.stats.latestPages, 1)
        assert.strictEqual(second.stats.totalPages, 3)
        const sent = received.slice(before).flatMap((r) => r.segments)
        assert.deepStrictEqual(sent, ["About", "Quire keeps docs in step."])
        assert.include(yield* markdownOf(api, resultSpace, aboutPage!.id), "[fr] QUIRE KEEPS DOCS IN STEP.")
        assert.strictEqual(yield* markdownOf(api, resultSpace, guidePage!.id), translatedGuide)

        // A run asked for with nothing changed translates nothing and keeps the result.
        yield* api.translations.runTranslation({ params: { organizationId, translationId: created.id } })
        const idle = yield* settledAfter(api, organizationId, created.id, 2)
        assert.strictEqual(idle.status, "completed", idle.failure)
        assert.strictEqual(idle.stats.latestPages, 0)
        assert.strictEqual(idle.stats.totalPages, 3)
        assert.strictEqual(yield* markdownOf(api, resultSpace, guidePage!.id), translatedGuide)

        // New instructions translate every page again.
        const third = yield* api.translations.updateTranslation({
          params: { organizationId, translationId: created.id },
          payload: { instructions: { object: "document", data: {}, nodes: [] } }
        })
        assert.strictEqual(third.status === "pending" || third.status === "running" || third.status === "completed", true)
        const rerun = yield* settledAfter(api, organizationId, created.id, 3)
        assert.strictEqual(rerun.status, "completed")
        assert.strictEqual(rerun.stats.latestPages, 2)
      }))

    it.effect("provider errors and budget exhaustion fail the run with the reason; a 429 is retried", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const api = alice.api
        yield* merge(api, space.id, [{ operation: "insert_page", title: "Broken", document: { markdown: "This says TRIGGER-500.\n" } }])
        const failing = yield* api.translations.createTranslation({
          params: { organizationId },
          payload: { source: { space: space.id, language: "en" }, language: "de" }
        })
        const failed = yield* settledAfter(api, organizationId, failing.id, 0)
        assert.strictEqual(failed.status, "completed")
        assert.include(failed.failure ?? "", "The translation provider failed")
        assert.include(failed.failure ?? "", "500")
        assert.isUndefined(failed.result)
        assert.strictEqual(failed.stats.latestPages, 0)

        const big = yield* spaceWith()
        yield* merge(big.alice.api, big.space.id, [{ operation: "insert_page", title: "Long", document: { markdown: `${"Many words here. ".repeat(400)}\n` } }])
        const costly = yield* big.alice.api.translations.createTranslation({
          params: { organizationId: big.organizationId },
          payload: { source: { space: big.space.id, language: "en" }, language: "it" }
        })
        const exhausted = yield* settledAfter(big.alice.api, big.organizationId, costly.id, 0)
        assert.strictEqual(exhausted.status, "completed")
        assert.include(exhausted.failure ?? "", "budget")
        assert.include(exhausted.failure ?? "", "5000 characters")

        const slow = yield* spaceWith()
        yield* merge(slow.alice.api, slow.space.id, [{ operation: "insert_page", title: "Slow", document: { markdown: `Retry TRIGGER-429 ${slow.space.id}.\n` } }])
        const retried = yield* slow.alice.api.translations.createTranslation({
          params: { organizationId: slow.organizationId },
          payload: { source: { space: slow.space.id, language: "en" }, language: "nl" }
        })
        const done = yield* settledAfter(slow.alice.api, slow.organizationId, retried.id, 0)
        assert.strictEqual(done.status, "completed", done.failure)
      }))

    // How a provider's answer is escaped, and how a translated site shows an include, are the
    // same whatever the database: on PostgreSQL only (the runs, their jobs and their failures run on both).
    if (backend.name === "postgres") {
      it.effect("a provider's answer is inserted as text: links, images, HTML and blocks it adds are escaped", () =>
        Effect.gen(function*() {
          const { alice, organizationId, space } = yield* spaceWith()
          const api = alice.api
          const markdown = "Plain TRIGGER-INJECT words.\n\nSee [the guide](https://example.com/guide) and TRIGGER-INJECT more.\n"
          yield* merge(api, space.id, [{ operation: "insert_page", title: "Injected", document: { markdown } }])
          const source = yield* api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })
          const created = yield* api.translations.createTranslation({
            params: { organizationId },
            payload: { source: { space: space.id, language: "en" }, language: "es" }
          })
          const done = yield* settledAfter(api, organizationId, created.id, 0)
          assert.strictEqual(done.status, "completed", done.failure)
          const translated = yield* markdownOf(api, done.result!.space, source.pages[0]!.id)
          // The source's own link stays; none of the provider's becomes one.
          assert.include(translated, "](https://example.com/guide)")
          assert.notInclude(translated, "](https://evil.example")
          assert.notMatch(translated, /(?<!\\)<img/)
          assert.notMatch(translated, /^#/m)
          assert.notMatch(translated, /(?<!\\)!\[/)
          // The provider's words are there, escaped.
          assert.include(translated, "\\[here\\]")
          assert.include(translated, "\\<img src\\=x")
        }))

      it.effect("a translated site's page shows its include translated", () =>
        Effect.scoped(Effect.gen(function*() {
          const { alice, organizationId, space } = yield* spaceWith()
          const api = alice.api
          const repo = yield* repositoryOf({
            "README.md": "# Welcome\n\nStart here.\n",
            "SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Upgrade](guides/upgrade.md)\n",
            "guides/upgrade.md": "# Upgrade\n\nBefore you start:\n\n{% include \"../.gitbook/includes/upgrade-warning.md\" %}\n",
            ".gitbook/includes/upgrade-warning.md": "---\ntitle: Upgrade warning\n---\n\nBack up your narwhal data first.\n"
          })
          yield* api.git.importGitRepository({ params: { spaceId: space.id }, payload: { url: repo.url, ref: "refs/heads/main" } })
          yield* api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} }).pipe(
            Effect.filterOrFail((revision) => revision.reusableContents.length > 0, () => new Error("import still running")),
            Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 300 }),
            Effect.orDie
          )
          const created = yield* api.translations.createTranslation({
            params: { organizationId },
            payload: { source: { space: space.id, language: "en" }, language: "fr" }
          })
          const done = yield* settledAfter(api, organizationId, created.id, 0)
          assert.strictEqual(done.status, "completed", done.failure)
          const site = yield* api.sites.createSite({ params: { organizationId }, payload: { title: "Manuel", visibility: "public" } })
          const siteParams = { organizationId, siteId: site.id }
          yield* api.siteSections.addSectionToSite({ params: siteParams, payload: { spaceId: done.result!.space } })
          yield* api.sites.publishSite({ params: siteParams })
          const upgrade = yield* get(`/~sites/${site.id}/upgrade`)
          assert.strictEqual(upgrade.status, 200)
          assert.include(upgrade.text, "[fr] BACK UP YOUR NARWHAL DATA FIRST.")
          assert.notInclude(upgrade.text, "Back up your narwhal")
          assert.notInclude(upgrade.text, "{% include")
        })))
    }
  })
}
