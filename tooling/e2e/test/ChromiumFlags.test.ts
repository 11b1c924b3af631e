/**
 * The flags Quire's tests launch Chromium with keep playwright-core's own: Chromium reads only the
 * last `--disable-features` of its command line, so Quire's list (`chromiumArgs`) must carry every
 * feature playwright-core turns off, or a Playwright upgrade that turns off one more would see it
 * quietly on again. Read from the browser process's command line, as Chromium reads it.
 */
import { afterEach, assert, describe, it } from "@effect/vitest"
import { chromium, type BrowserServer } from "playwright-core"
import { chromiumArgs, chromiumPath, quireDisabledFeatures } from "@quire/testkit/Chromium"
import { readFileSync } from "node:fs"

/** The features the last `--disable-features` of a browser started with `args` turns off. */
const disabledBy = async (args: ReadonlyArray<string>, servers: Array<BrowserServer>) => {
  const server = await chromium.launchServer({ executablePath: chromiumPath, args: [...args] })
  servers.push(server)
  const commandLine = readFileSync(`/proc/${server.process().pid}/cmdline`, "utf8").split("\0")
  const last = commandLine.filter((arg) => arg.startsWith("--disable-features=")).at(-1) ?? "--disable-features="
  return new Set(last.slice("--disable-features=".length).split(",").filter((feature) => feature !== ""))
}

describe("Chromium's flags", () => {
  const servers: Array<BrowserServer> = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })

  it("turn off every feature playwright-core turns off, and the omnibox popups besides", async () => {
    const playwrights = await disabledBy(["--no-sandbox"], servers)
    assert.isAbove(playwrights.size, 0, "playwright-core passes a --disable-features of its own")
    const ours = await disabledBy(chromiumArgs, servers)
    const dropped = [...playwrights].filter((feature) => !ours.has(feature))
    assert.deepStrictEqual(dropped, [], `add these to playwrightDisabledFeatures in tooling/testkit/src/Chromium.ts`)
    for (const feature of quireDisabledFeatures) assert.isTrue(ours.has(feature), feature)
  }, 60_000)
})
