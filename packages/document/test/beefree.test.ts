import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { expectExact } from "./support.ts"

const dir = join(import.meta.dirname, "fixtures")

describe("Beefree SDK pages (Apache-2.0) round-trip byte for byte", () => {
  const pages = readdirSync(join(dir, "beefree")).filter((f) => f.endsWith(".md"))
  it("has the committed selection", () => expect(pages.length).toBeGreaterThanOrEqual(8))
  for (const page of pages) it(page, () => expectExact(readFileSync(join(dir, "beefree", page), "utf8")))
})
