import { describe, expect, it } from "vitest"
import { formatTime } from "../../../src/ui/time.ts"

describe("formatTime", () => {
  const intl = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" })
  it("writes what Intl's en-US medium date and short time write, in the local time zone", () => {
    for (const iso of ["2026-11-24T04:15:00Z", "2026-01-01T00:00:00Z", "2026-06-30T12:00:00Z", "2026-12-31T23:59:59Z", "2025-03-09T11:05:00.123Z"]) {
      expect(formatTime(iso)).toBe(intl.format(new Date(iso)).replace(/\u202f/g, " "))
    }
  })
  it("gives back what is not a time unchanged", () => {
    expect(formatTime("yesterday")).toBe("yesterday")
  })
})
