/**
 * The autosave queue: debounced (one request for a burst of typing), nothing sent for an unedited
 * page, retries while offline and keeps the text in storage until the server acknowledges it, a
 * kept draft offered again after a reload, a 409 stops it without overwriting.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { type DraftStorage, SaveQueue, type SaveState, type SendOutcome } from "../../../src/features/editing/save-queue.ts"

class MemoryStorage implements DraftStorage {
  readonly items = new Map<string, string>()
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string) {
    this.items.set(key, value)
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
}

const key = "quire:draft:cr1:page1"

const setup = (outcomes: Array<SendOutcome> = []) => {
  const storage = new MemoryStorage()
  const sent: Array<string> = []
  const states: Array<SaveState["kind"]> = []
  const make = (acknowledged: string) =>
    new SaveQueue({
      key,
      acknowledged,
      storage,
      onState: (state) => states.push(state.kind),
      send: (markdown) => {
        sent.push(markdown)
        return Promise.resolve(outcomes.shift() ?? { kind: "ok" })
      }
    })
  return { storage, sent, states, make }
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe("SaveQueue", () => {
  it("stops saying Saved as typing starts, before the editor reports the text; an edit undone says Saved again", async () => {
    const { sent, states, make } = setup()
    const queue = make("Hello\n")
    queue.typing()
    expect(queue.state.kind).toBe("saving")
    queue.typing()
    expect(states).toEqual(["saving"])
    queue.edit("Hello\n")
    expect(queue.state.kind).toBe("saved")
    await vi.advanceTimersByTimeAsync(2000)
    expect(sent).toEqual([])
  })

  it("sends a burst of edits once, a second after the last, then says Saved", async () => {
    const { sent, states, storage, make } = setup()
    const queue = make("Hello\n")
    queue.edit("Hello w\n")
    await vi.advanceTimersByTimeAsync(600)
    queue.edit("Hello world\n")
    await vi.advanceTimersByTimeAsync(600)
    expect(sent).toEqual([])
    expect(queue.state.kind).toBe("saving")
    expect(storage.getItem(key)).toBe("Hello world\n")
    await vi.advanceTimersByTimeAsync(500)
    expect(sent).toEqual(["Hello world\n"])
    expect(queue.state.kind).toBe("saved")
    expect(states.at(-1)).toBe("saved")
    expect(storage.getItem(key)).toBeNull()
  })

  it("sends nothing for a page edited back to what the server holds", async () => {
    const { sent, storage, make } = setup()
    const queue = make("Same\n")
    queue.edit("Same\n")
    queue.edit("Samex\n")
    queue.edit("Same\n")
    await vi.advanceTimersByTimeAsync(5000)
    expect(sent).toEqual([])
    expect(queue.state.kind).toBe("saved")
    expect(storage.getItem(key)).toBeNull()
  })

  it("retries while offline, keeping the text in storage until the server has it", async () => {
    const { sent, storage, make } = setup([{ kind: "offline" }, { kind: "offline" }])
    const queue = make("A\n")
    queue.edit("B\n")
    await vi.advanceTimersByTimeAsync(1000)
    expect(queue.state.kind).toBe("offline")
    expect(storage.getItem(key)).toBe("B\n")
    await vi.advanceTimersByTimeAsync(2000)
    expect(sent).toEqual(["B\n", "B\n"])
    expect(queue.state.kind).toBe("offline")
    await vi.advanceTimersByTimeAsync(5000)
    expect(sent).toEqual(["B\n", "B\n", "B\n"])
    expect(queue.state.kind).toBe("saved")
    expect(storage.getItem(key)).toBeNull()
  })

  it("offers the kept draft after a reload when it differs from the server's", async () => {
    const { storage, make } = setup([{ kind: "offline" }])
    const first = make("Server\n")
    first.edit("Mine\n")
    await vi.advanceTimersByTimeAsync(1000)
    first.dispose()
    // The tab reloads: the server still has "Server".
    expect(make("Server\n").draft()).toBe("Mine\n")
    // The server already has it (saved before the connection dropped): nothing to offer.
    expect(make("Mine\n").draft()).toBeUndefined()
    const second = make("Server\n")
    second.discardDraft()
    expect(storage.getItem(key)).toBeNull()
    expect(second.draft()).toBeUndefined()
  })

  it("stops on a conflict, never sending again, and keeps the edits", async () => {
    const { sent, storage, make } = setup([{ kind: "conflict", reason: "line 3 changed" }])
    const queue = make("A\n")
    queue.edit("B\n")
    await vi.advanceTimersByTimeAsync(1000)
    expect(queue.state).toEqual({ kind: "conflict", reason: "line 3 changed" })
    queue.edit("C\n")
    await vi.advanceTimersByTimeAsync(10000)
    expect(sent).toEqual(["B\n"])
    expect(storage.getItem(key)).toBe("C\n")
  })

  it("says why a save failed and sends again on retry", async () => {
    const { sent, make } = setup([{ kind: "failed", reason: "the page is too long" }])
    const queue = make("A\n")
    queue.edit("B\n")
    await vi.advanceTimersByTimeAsync(1000)
    expect(queue.state).toEqual({ kind: "failed", reason: "the page is too long" })
    await queue.flush()
    expect(sent).toEqual(["B\n", "B\n"])
    expect(queue.state.kind).toBe("saved")
  })

  it("sends the text typed during a save right after it", async () => {
    let release: (() => void) | undefined
    const sent: Array<string> = []
    const queue = new SaveQueue({
      key,
      acknowledged: "A\n",
      send: (markdown) => {
        sent.push(markdown)
        return new Promise<SendOutcome>((resolve) => {
          release = () => resolve({ kind: "ok" })
        })
      }
    })
    queue.edit("B\n")
    await vi.advanceTimersByTimeAsync(1000)
    queue.edit("C\n")
    await vi.advanceTimersByTimeAsync(1000)
    expect(sent).toEqual(["B\n"])
    release?.()
    await vi.advanceTimersByTimeAsync(0)
    expect(sent).toEqual(["B\n", "C\n"])
    release?.()
    await vi.advanceTimersByTimeAsync(0)
    expect(queue.state.kind).toBe("saved")
  })
})
