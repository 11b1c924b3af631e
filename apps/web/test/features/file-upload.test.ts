/** What a person reads when the upload route refuses a file: each refusal in its own words. */
import { describe, expect, it } from "vitest"
import { uploadRefusal } from "../../src/features/editing/file-upload.ts"
import { describeSize, failureOf, UploadFailure } from "../../src/editor/uploads.ts"

const file = new File([new Uint8Array(10)], "manual.pdf", { type: "application/pdf" })
const envelope = (code: number, message: string) => JSON.stringify({ error: { code, message } })

describe("upload refusals", () => {
  it("names the limit in MB for a file too large, the quota for one that would pass it, and only a network failure may be retried", () => {
    const large = uploadRefusal(file, 413, envelope(413, "too large"), 100 * 1024 * 1024)
    expect([large.kind, large.message]).toEqual(["too-large", "“manual.pdf” is 10 bytes; files can be at most 100 MB."])
    const quota = uploadRefusal(file, 403, envelope(403, "The organization's storage quota of 10 bytes is used up"), undefined)
    expect(quota.kind).toBe("quota")
    expect(quota.message).toMatch(/^“manual\.pdf” would take the organization past its storage quota\./)
    const reader = uploadRefusal(file, 403, envelope(403, "You cannot edit this change request's content"), undefined)
    expect([reader.kind, reader.retryable]).toEqual(["refused", false])
    const proxy = uploadRefusal(file, 502, "<html>Bad gateway</html>", undefined)
    expect([proxy.kind, proxy.retryable, proxy.message]).toEqual(["network", true, "Could not upload “manual.pdf” (the server answered 502)."])
  })

  it("tells sizes in words and keeps an UploadFailure as it is", () => {
    expect([describeSize(12), describeSize(320 * 1024), describeSize(5 * 1024 * 1024)]).toEqual(["12 bytes", "320 KB", "5.0 MB"])
    const cancelled = new UploadFailure("cancelled", "cancelled")
    expect(failureOf(cancelled)).toBe(cancelled)
    expect([failureOf(new Error("boom")).kind, failureOf(new Error("boom")).message]).toEqual(["refused", "boom"])
  })
})
