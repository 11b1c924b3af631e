/**
 * What is typed while the server restarts reaches it without a false refusal (issue 57, finding
 * 10): a built server (dist/server.mjs) on a fresh PostgreSQL database stops while Ada types a
 * sentence of 150 keys, and starts again on the same port. The provider used to queue one update a
 * key and send them all at once when the socket was back, over the server's 60 updates a second:
 * the server refused them and the page said "You are typing faster than the server accepts"
 * though nobody typed. Now the sync on reconnecting sends them as one update: no refusal is ever
 * shown, the status says "Saved", and the markdown read through /v1 holds every key.
 */
import { Effect, Exit, Scope } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Backends } from "@quire/testkit"
import * as ProductionBuild from "@quire/testkit/ProductionBuild"
import { open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { saved, typeAfter } from "./live.ts"
import { api, setupAdmin, setupCode } from "./servers.ts"

const root = fileURLToPath(new URL("../../../../", import.meta.url))
const browser = sharedBrowser()
const scope = Effect.runSync(Scope.make())
const dataDir = mkdtempSync(join(tmpdir(), "quire-web-e2e-restart-"))
let databaseUrl = ""
let server: ProductionBuild.BuiltServer | undefined

/** The built server on the test's database, at `port` when given (a restart keeps its address). */
const start = (port?: number) =>
  ProductionBuild.startServer(root, {
    DATABASE_URL: databaseUrl,
    QUIRE_DATA_DIR: dataDir,
    QUIRE_ADMIN_TOKEN: setupCode,
    QUIRE_SIGN_UP_LIMIT: "1000"
  }, port === undefined ? {} : { port })

beforeAll(async () => {
  databaseUrl = await Effect.runPromise(Scope.provide(scope)(Backends.postgresUrl))
  server = await start()
  await setupAdmin(server.url)
})

afterAll(async () => {
  await server?.stop()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(dataDir, { recursive: true, force: true })
})

it("what is typed while the server restarts is stored once it is back, without a refusal shown", async () => {
  const url = server!.url
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Restart" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Restart" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Notes", slug: "notes", document: { markdown: "Before the restart.\n" } }]
  })
  const pages = `/spaces/${space.id}/change-requests/${cr.number}/content`
  const listed = await api<{ pages: ReadonlyArray<{ id: string }> }>(url, "GET", `${pages}/pages`)
  const read = async () => (await api<{ markdown?: string }>(url, "GET", `${pages}/page/${listed.pages[0]!.id}?format=markdown`)).markdown ?? ""

  // The browser says so while the server is away: its socket and requests are refused.
  const session = await open(browser(), url, { expected: [/WebSocket|ERR_CONNECTION_REFUSED/] })
  const { page } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/notes`)
    await saved(page)
    // Every alert the page shows from now on, however briefly.
    await page.evaluate(() => {
      const seen: Array<string> = []
      ;(globalThis as unknown as { alertsSeen: Array<string> }).alertsSeen = seen
      new MutationObserver(() => {
        for (const alert of document.querySelectorAll("[role=alert]")) {
          const text = alert.textContent ?? ""
          if (text !== "" && !seen.includes(text)) seen.push(text)
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    })

    await server!.stop()
    const typed = " Typed while the server restarted, one key after another, well over sixty keys in all, so that a burst would be refused."
    expect(typed.length).toBeGreaterThan(100)
    await typeAfter(page, "Before the restart.", typed)
    await page.getByRole("status").filter({ hasText: /^Offline — \d+ changes not yet on the server$/ }).waitFor()
    server = await start(server!.port)

    // The provider tries again 1, 2, 4… s apart: it is back within half a minute.
    await page.getByRole("status").filter({ hasText: /^Saved$/ }).waitFor({ timeout: 90_000 })
    await expect.poll(read, { timeout: 30_000 }).toBe(`Before the restart.${typed}\n`)
    expect(await page.evaluate(() => (globalThis as unknown as { alertsSeen: Array<string> }).alertsSeen)).toEqual([])
    expect(session.problems).toEqual([])
  } finally {
    await session.context.close()
  }
})
