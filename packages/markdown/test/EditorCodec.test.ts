/**
 * The differential test of the editor's codec against the server's parser (see
 * support/CodecReadings.ts), over the fixtures of every package, generated pages and, when this
 * machine has it, GitBook's own documentation; EditorCodecMirrors.test.ts reads the other
 * repositories (two files, so that two workers share the work).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { document as generatedPage } from "../../document/test/generate.ts"
import { fixturePages, MIRRORS, type Page } from "../../document/test/pages.ts"
import { compare, mirrorTest, packageFixtures, report } from "./support/CodecReadings.ts"

const [repo, dir] = MIRRORS[0]

describe("the editor's codec and the server's parser read every page alike", () => {
  it("the fixtures of every package, each difference left named", () => {
    const pages = [...fixturePages(), ...packageFixtures()]
    const outcome = compare(pages)
    report("fixtures", outcome)
    expect(pages.length).toBeGreaterThan(40)
    expect(outcome.unexplained).toEqual([])
    expect(Object.fromEntries(outcome.byException)).toEqual({ "kept verbatim": 10, "pipe in a table cell's math": 1, "tag in a line of text": 1 })
  })

  it("generated pages", () => {
    const pages = fc.sample(generatedPage, { numRuns: 400, seed: 36 }).map((text, i): Page => [`generated #${i}`, text])
    const outcome = compare(pages)
    report("generated", outcome)
    expect(outcome.unexplained).toEqual([])
  })

  mirrorTest(repo, dir)
})
