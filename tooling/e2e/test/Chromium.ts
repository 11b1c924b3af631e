/**
 * Debian's Chromium (`/usr/bin/chromium`) for the browser tests, driven by playwright-core: started
 * once per test file and closed after it. Without the binary the file fails with the advice to
 * install it, never skips, and nothing is ever downloaded.
 */
import { afterAll, beforeAll } from "@effect/vitest"
import { chromium, type Browser } from "playwright-core"
import { chromiumArgs, chromiumPath } from "@quire/testkit/Chromium"
import { existsSync, mkdirSync } from "node:fs"
import { join } from "node:path"

/** Where the browser tests save their screenshots. */
export const screenshots = join(import.meta.dirname, "..", "test-output", "screenshots")

/** Starts Chromium before the file's tests and closes it after them; `browser()` is it, once started. */
export const useChromium = (): { readonly browser: () => Browser } => {
  let browser: Browser | undefined
  beforeAll(async () => {
    if (!existsSync(chromiumPath)) {
      throw new Error(`${chromiumPath} is missing: install Debian's chromium package (apt-get install chromium); the browser tests never download one`)
    }
    browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] })
    mkdirSync(screenshots, { recursive: true })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
  })
  return {
    browser: () => {
      if (browser === undefined) throw new Error("Chromium did not start")
      return browser
    }
  }
}
