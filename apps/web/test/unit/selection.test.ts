import { describe, expect, it } from "vitest"
import { nearestOccurrence } from "../../src/features/review/selection.ts"

describe("the words selected in a block, found in its text", () => {
  it("takes the occurrence nearest where they were selected", () => {
    const text = "the cable, the cable and the cable"
    expect(nearestOccurrence(text, "the cable", 0)).toBe(0)
    expect(nearestOccurrence(text, "the cable", 12)).toBe(11)
    expect(nearestOccurrence(text, "the cable", 40)).toBe(25)
  })

  it("finds nothing for words the text does not hold (a tab's drawn title) or for none", () => {
    expect(nearestOccurrence("Check the cables.", "Before you start", 0)).toBe(-1)
    expect(nearestOccurrence("Check the cables.", "", 0)).toBe(-1)
  })
})
