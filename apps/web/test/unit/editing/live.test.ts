/**
 * Live editing's status and words: "Saved" only when the server acknowledged every change since
 * the provider synced and no block's field holds words not yet committed, "Saving…" while some
 * are on their way, offline with the count not yet on the server, and each close reason of the
 * collaboration server as a sentence a writer understands.
 */
import { describe, expect, it } from "vitest"
import { caretColourOf, caretColours, collabUrl, liveStatus, liveStatusText, refusalDropsKept, refusalSentence, refusalPasses, refusalStrands, tooLargeSentence, type LiveState } from "../../../src/features/editing/live.ts"

const state = (s: Partial<LiveState>): LiveState => ({ connected: true, synced: true, unsynced: 0, refusal: undefined, restored: false, readOnly: false, ...s })
const text = (s: Partial<LiveState>) => liveStatusText(liveStatus(state(s)))

describe("live editing's status", () => {
  it("says Read only, never Saved, when the server lets one only read", () => {
    expect(text({ readOnly: true })).toBe("Read only")
    expect(text({ readOnly: true, unsynced: 2 })).toBe("Read only")
    expect(text({ readOnly: true, synced: false })).toBe("Connecting…")
  })

  it("says in words what changed under the writer, keeps their kept edits and offers their text", () => {
    for (const [reason, words] of [
      ["page-deleted: this page was deleted", "This page was deleted from the change request while you had it open. What you typed in it is not kept there."],
      ["merged: this change request was merged", "This change request was merged. What you typed after that is not in it."],
      ["archived: this change request was archived", "This change request was archived. What you typed after that is not saved."],
      ["read-only: you may now only read", "You may now only read this change request. What you typed after that is not saved."]
    ] as const) {
      expect(refusalSentence(reason)).toBe(words)
      expect(refusalStrands(reason)).toBe(true)
      expect(refusalPasses(reason)).toBe(false)
      expect(refusalDropsKept(reason)).toBe(false)
      expect(text({ refusal: reason })).toBe(words)
    }
    expect(refusalStrands("forbidden: removed")).toBe(false)
    expect(refusalStrands("rate-limited")).toBe(false)
  })

  it("says Saved only once synced with nothing unacknowledged", () => {
    expect(text({})).toBe("Saved")
    expect(text({ synced: false })).toBe("Connecting…")
    expect(text({ unsynced: 1 })).toBe("Saving…")
    expect(text({ unsynced: 3 })).toBe("Saving…")
  })

  it("never says Saved while a field that commits when left holds words not yet in the document", () => {
    const field = (s: Partial<LiveState>) => liveStatusText(liveStatus(state(s), true))
    expect(field({})).toBe("Not saved until you leave the field")
    expect(field({ unsynced: 2 })).toBe("Not saved until you leave the field")
    // Offline and refusals still say what they say: they concern the rest of the page too.
    expect(field({ connected: false, unsynced: 2 })).toBe("Offline — 2 changes not yet on the server")
    expect(liveStatus(state({ refusal: "rate-limited" }), true).kind).toBe("refused")
  })

  it("counts what is not yet on the server while offline", () => {
    expect(text({ connected: false, unsynced: 4 })).toBe("Offline — 4 changes not yet on the server")
    expect(text({ connected: false, unsynced: 1 })).toBe("Offline — 1 change not yet on the server")
    expect(text({ connected: false, unsynced: 0 })).toBe("Offline — everything you typed is on the server")
    expect(text({ connected: false, synced: false, unsynced: 0 })).toBe("Connecting…")
  })

  it("never says Saved while edits kept in this browser are not acknowledged, and says they are being sent", () => {
    expect(text({ restored: true })).toBe("Sending the changes kept in this browser, not yet on the server…")
    expect(text({ restored: true, synced: false })).toBe("Sending the changes kept in this browser, not yet on the server…")
    expect(text({ restored: true, connected: false, synced: false })).toBe("Offline — changes kept in this browser, not yet on the server")
    expect(liveStatus(state({ restored: true })).kind).not.toBe("saved")
  })

  it("drops the kept edits only when the server refused them for good, or the page is gone", () => {
    for (const reason of ["update-too-large: 1 MiB", "document-too-large", "invalid-update", "forbidden: removed", "not-found"]) expect(refusalDropsKept(reason)).toBe(true)
    for (const reason of ["unauthenticated", "rate-limited: 60", "unavailable", ""]) expect(refusalDropsKept(reason)).toBe(false)
  })

  it("puts a refusal first, with what it left unsent", () => {
    const refused = liveStatus(state({ connected: false, unsynced: 2, refusal: "document-too-large" }))
    expect(refused.kind).toBe("refused")
    expect(liveStatusText(refused)).toMatch(/^This page is too large to edit live.* 2 changes not yet on the server\.$/)
  })
})

describe("a page the server holds read-only as too large to edit live", () => {
  const told = "document-too-large: this page would take at least 12288 KiB live, over the 8192 KiB limit: read-only, split it to edit it"

  it("says Read only, never Saved nor Connecting…, once the server said why", () => {
    expect(text({ tooLarge: told })).toBe("Read only")
    expect(text({ tooLarge: told, synced: false })).toBe("Read only")
    expect(text({ tooLarge: told, restored: true })).toBe("Read only")
    expect(text({ tooLarge: told, refusal: told })).toBe("Read only")
    expect(liveStatus(state({ tooLarge: told, refusal: "page-deleted" })).kind).toBe("refused")
  })

  it("says why in a person's words, with the server's figures", () => {
    expect(tooLargeSentence(told)).toBe(
      "This page is too large to edit live (it would take at least 12 MB live; the limit is 8 MB). You can read it below. To edit it, split it into smaller pages, or change its markdown through Git sync or the API."
    )
    expect(tooLargeSentence("document-too-large: this page would take 9000 KiB live, over the 8192 KiB limit: read-only, split it to edit it")).toMatch(
      /^This page is too large to edit live \(it would take 8\.8 MB live; the limit is 8 MB\)\./
    )
    expect(tooLargeSentence("document-too-large: this page would take 300 KiB live, over the 256 KiB limit: read-only")).toMatch(/\(it would take 300 KB live; the limit is 256 KB\)/)
    expect(tooLargeSentence("document-too-large")).toMatch(/^This page is too large to edit live\. You can read it below\./)
  })

  it("does not tell a writer of such a page that the server refused their last change", () => {
    // An update that reaches the page anyway closes the connection with the same words.
    expect(refusalSentence(told)).toBe(tooLargeSentence(told))
    expect(refusalSentence(told)).not.toContain("refused")
    // A page grown over the limit by the last change: that change was refused.
    expect(refusalSentence("document-too-large: a page may hold at most 8192 KiB while edited live; your last edit is not saved, split the page")).toMatch(
      /^This page is too large to edit live: the server refused your last change, so it was not saved\./
    )
  })
})

describe("the server's close reasons in words", () => {
  it("has a sentence for each reason, none of them the bare code", () => {
    for (const code of ["update-too-large", "document-too-large", "rate-limited", "invalid-update", "unauthenticated", "not-found", "unavailable", "awareness-too-large"]) {
      const sentence = refusalSentence(code)
      expect(sentence).not.toContain(code)
      expect(sentence).toMatch(/^[A-Z].*\.$/)
    }
  })

  it("keeps the server's own words of a removed access", () => {
    expect(refusalSentence("forbidden: your role on the space is now reader")).toBe(
      "You can no longer edit this page (your role on the space is now reader). What you type now is not saved."
    )
    expect(refusalSentence("forbidden")).toBe("You can no longer edit this page. What you type now is not saved.")
  })

  it("says why the server refused a change that does not fit the page", () => {
    expect(refusalSentence("invalid-update: not saved, heading's level must be an integer from 1 to 6, not 200000000")).toBe(
      "The server refused your last change, so it was not saved: heading's level must be an integer from 1 to 6, not 200000000. Reload the page to continue from what the server has."
    )
    expect(refusalSentence("invalid-update: the server could not read your last edit, which is not saved; reload the page")).toMatch(/^The server could not read your last change/)
  })

  it("goes on after a refusal that passes by itself, and stops the editor after any other", () => {
    expect(["rate-limited", "unavailable"].map(refusalPasses)).toEqual([true, true])
    expect(["forbidden: removed from the space", "unauthenticated", "not-found", "update-too-large", "document-too-large", "invalid-update"].map(refusalPasses))
      .toEqual([false, false, false, false, false, false])
  })

  it("shows an unknown reason as the server said it", () => {
    expect(refusalSentence("shutting-down")).toBe("The server closed the connection: shutting-down")
  })
})

describe("carets and the address", () => {
  it("gives one person always the same colour, and spreads people over the palette", () => {
    expect(caretColourOf("user_1")).toBe(caretColourOf("user_1"))
    const colours = new Set(Array.from({ length: 40 }, (_, i) => caretColourOf(`user_${i}`)))
    expect(colours.size).toBe(caretColours)
  })

  it("connects to /collab of the app's own origin", () => {
    expect(collabUrl({ protocol: "https:", host: "docs.example.com" })).toBe("wss://docs.example.com/collab")
    expect(collabUrl({ protocol: "http:", host: "127.0.0.1:8080" })).toBe("ws://127.0.0.1:8080/collab")
  })
})
