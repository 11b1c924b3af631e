/**
 * Two people in two browsers, each on a server of their own: two built servers (dist/server.mjs)
 * on one fresh PostgreSQL database, relaying live edits through the machine's Redis
 * (`QUIRE_REDIS_URL`). Each sees the other's text and caret; one goes offline, both type, it
 * comes back; every character each typed is in both editors and in the change request's markdown.
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
import { editor, saved, textOf, typeAfter } from "./live.ts"
import { api, setupAdmin, setupCode } from "./servers.ts"

const root = fileURLToPath(new URL("../../../../", import.meta.url))
const browser = sharedBrowser()
const scope = Effect.runSync(Scope.make())
const dataDir = mkdtempSync(join(tmpdir(), "quire-web-e2e-servers-"))

/** A built server on `databaseUrl`, relaying through Redis. */
const startBuilt = (databaseUrl: string) =>
  ProductionBuild.startServer(root, {
    DATABASE_URL: databaseUrl,
    QUIRE_REDIS_URL: "redis://127.0.0.1:6379",
    QUIRE_DATA_DIR: dataDir,
    QUIRE_ADMIN_TOKEN: setupCode,
    QUIRE_SIGN_UP_LIMIT: "1000"
  })

let first: ProductionBuild.BuiltServer | undefined
let second: ProductionBuild.BuiltServer | undefined

beforeAll(async () => {
  const databaseUrl = await Effect.runPromise(Scope.provide(scope)(Backends.postgresUrl))
  // One after the other: the first migrates the database.
  first = await startBuilt(databaseUrl)
  second = await startBuilt(databaseUrl)
  await setupAdmin(first.url)
})

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()])
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(dataDir, { recursive: true, force: true })
})




it("two people on two servers type in one page, one of them offline a while: both see everything, carets too, and the markdown holds it", async () => {
  const a = first!.url
  const b = second!.url
  const org = await api<{ id: string }>(a, "POST", "/orgs", { title: "Two servers" })
  const space = await api<{ id: string }>(a, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(a, "POST", `/spaces/${space.id}/change-requests`, { subject: "Together" })
  await api(a, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Notes", slug: "notes", document: { markdown: "Ada's paragraph.\n\nBea's paragraph.\n" } }]
  })
  const pages = `/spaces/${space.id}/change-requests/${cr.number}/content`
  const listed = await api<{ pages: ReadonlyArray<{ id: string }> }>(b, "GET", `${pages}/pages`)
  const read = async () => (await api<{ markdown?: string }>(b, "GET", `${pages}/page/${listed.pages[0]!.id}?format=markdown`)).markdown ?? ""
  await api(a, "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(a, "POST", `/orgs/${org.id}/link-invites`, { role: "edit" })

  const ada = await open(browser(), a, { expected: [/WebSocket|ERR_INTERNET_DISCONNECTED/] })
  const bea = await open(browser(), b)
  try {
    // Bea joins on the second server, Ada signs in on the first.
    const joined = await bea.context.request.post(`${b}/auth/invites/${org.id}.${link.id}/accept`, {
      data: { displayName: "Bea Writer", email: "bea.servers@quire.test", password: "a password long enough" },
      headers: { origin: b }
    })
    expect(joined.status()).toBe(200)
    await signInAsAdmin(ada, a)
    const path = `/s/${space.id}/~/changes/${cr.number}/notes`
    await Promise.all([ada.page.goto(path), bea.page.goto(path)])
    await Promise.all([saved(ada.page), saved(bea.page)])

    await typeAfter(ada.page, "Ada's paragraph.", " Typed on the first server.")
    await editor(bea.page).getByText("Ada's paragraph. Typed on the first server.").waitFor()
    await typeAfter(bea.page, "Bea's paragraph.", " Typed on the second server.")
    await editor(ada.page).getByText("Bea's paragraph. Typed on the second server.").waitFor()
    await ada.page.locator(".collab-caret-label").filter({ hasText: "Bea Writer" }).waitFor()
    await bea.page.locator(".collab-caret-label").filter({ hasText: "Ada Admin" }).waitFor()

    // Ada goes offline and both type; her status says what waits; back online, all meets.
    await ada.context.setOffline(true)
    await typeAfter(ada.page, "Typed on the first server.", " Then offline.")
    await ada.page.getByRole("status").filter({ hasText: /^Offline — \d+ changes? not yet on the server$/ }).waitFor()
    await typeAfter(bea.page, "Typed on the second server.", " Meanwhile online.")
    await ada.context.setOffline(false)

    const whole = "Ada's paragraph. Typed on the first server. Then offline.Bea's paragraph. Typed on the second server. Meanwhile online."
    await expect.poll(() => textOf(ada.page), { timeout: 20_000 }).toBe(whole)
    await expect.poll(() => textOf(bea.page), { timeout: 20_000 }).toBe(whole)
    await Promise.all([saved(ada.page), saved(bea.page)])
    await expect.poll(read, { timeout: 20_000 })
      .toBe("Ada's paragraph. Typed on the first server. Then offline.\n\nBea's paragraph. Typed on the second server. Meanwhile online.\n")
    expect([...ada.problems, ...bea.problems]).toEqual([])
  } finally {
    await Promise.all([ada.context.close(), bea.context.close()])
  }
})
