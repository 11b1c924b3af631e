/**
 * Who else is in a change request, read from the presence document's awareness: only well-formed
 * states of other people, one mark per person and page, their initials, and the words a screen
 * reader says beside a page.
 */
import { describe, expect, it } from "vitest"
import { editingLabel, initialsOf, othersOf, peopleOf, presenceName } from "../../../src/features/editing/presence.ts"

const state = (id: string, name: string, pageId: string | null, colour = 1) => ({ user: { id, name, colour }, pageId })

describe("presence in a change request", () => {
  it("lists the others once per page, in name order, without oneself or what is not a presence", () => {
    const states = new Map<number, Record<string, unknown>>([
      [1, state("me", "Me Myself", "p1")],
      [2, state("bea", "Bea Writer", "p2", 3)],
      [3, state("bea", "Bea Writer", "p2", 3)],
      [4, state("ada", "Ada Admin", "p1", 11)],
      [5, state("ada", "Ada Admin", null)],
      [6, { user: { name: "No id" }, pageId: "p1" }],
      [7, { cursor: { anchor: 1 } }],
      [8, { user: { id: "x", name: "   " }, pageId: "p1" }]
    ])
    const others = othersOf(states, "me", 8)
    expect(others.map((p) => [p.name, p.pageId])).toEqual([["Ada Admin", "p1"], ["Ada Admin", null], ["Bea Writer", "p2"]])
    expect(others[0]!.colour).toBe(3)
    expect(peopleOf(others).map((p) => p.name)).toEqual(["Ada Admin", "Bea Writer"])
  })

  it("shows initials and says who is editing in words", () => {
    expect(initialsOf("Ada Lovelace")).toBe("AL")
    expect(initialsOf("bea")).toBe("B")
    expect(initialsOf("Jean Paul Sartre")).toBe("JS")
    expect(initialsOf("Émile Zola")).toBe("ÉZ")
    expect(editingLabel(["Ada"])).toBe("Ada is editing")
    expect(editingLabel(["Ada", "Bea"])).toBe("Ada and Bea are editing")
    expect(editingLabel(["Ada", "Bea", "Cy"])).toBe("Ada, Bea and Cy are editing")
  })

  it("names the presence document so that it is never a page's", () => {
    expect(presenceName("cr1")).toBe("cr1/~presence")
  })
})
