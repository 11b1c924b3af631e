/**
 * What a connection becomes after its access was checked again: a writer who may no longer write
 * is closed with a reason the editor shows; a watcher stays, read-only. (Connections closed this
 * way, end to end: apps/server's CollabClosed.test.ts.)
 */
import { assert, it } from "@effect/vitest"
import { afterCheck, closedBecause } from "@quire/live/extensions"

it("a writer who may no longer write is closed in words; a watcher stays, read-only", () => {
  assert.deepStrictEqual(afterCheck({ access: "none", because: "page-deleted" }, false, false), { close: closedBecause.pageDeleted })
  assert.deepStrictEqual(afterCheck({ access: "view", because: "merged" }, false, true), { close: closedBecause.merged })
  assert.deepStrictEqual(afterCheck({ access: "view", because: "archived" }, false, true), { close: closedBecause.archived })
  assert.deepStrictEqual(afterCheck({ access: "view", because: "role" }, false, true), { close: closedBecause.readOnly })
  assert.deepStrictEqual(afterCheck({ access: "view", because: "merged" }, false, false), { readOnly: true })
  assert.deepStrictEqual(afterCheck({ access: "view", because: "merged" }, true, false), { readOnly: true })
  assert.deepStrictEqual(afterCheck({ access: "edit" }, false, false), { readOnly: false })
  assert.match((afterCheck({ access: "none", because: "gone" }, true, false) as { close: string }).close, /^forbidden: /)
})
