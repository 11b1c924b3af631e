import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { insertMention, matchMembers, mentionMarkdown, mentionQueryAt, splitMentions } from "../../../src/features/review/mentions.ts"

const rita = { id: "u_rita", displayName: "Rita Reviewer", email: "rita@quire.test" }
const ada = { id: "u_ada", displayName: "Ada Admin", email: "ada@quire.test" }

describe("mentions", () => {
  it("finds the @word being typed, not an email address", () => {
    expect(mentionQueryAt("Hi @ri", 6)).toEqual({ start: 3, query: "ri" })
    expect(mentionQueryAt("@", 1)).toEqual({ start: 0, query: "" })
    expect(mentionQueryAt("line\n@ad", 8)).toEqual({ start: 5, query: "ad" })
    expect(mentionQueryAt("mail me at ada@quire.test", 25)).toBeUndefined()
    expect(mentionQueryAt("Hi @ri and more", 15)).toBeUndefined()
    expect(mentionQueryAt("Hi @ri", 5)).toEqual({ start: 3, query: "r" })
  })

  it("writes the chosen member in the fixed syntax where the @word was", () => {
    const typed = "Ask @ri about it"
    const out = insertMention(typed, 4, 7, rita)
    expect(out.text).toBe("Ask @[Rita Reviewer](user:u_rita) about it")
    expect(out.text.slice(0, out.cursor)).toBe("Ask @[Rita Reviewer](user:u_rita) ")
    expect(mentionMarkdown({ id: "u1", displayName: "A [weird]\nname" })).toBe("@[A weird name](user:u1)")
  })

  it("filters members by name (words first) and email", () => {
    expect(matchMembers([rita, ada], "").map((m) => m.id)).toEqual(["u_ada", "u_rita"])
    expect(matchMembers([rita, ada], "rev").map((m) => m.id)).toEqual(["u_rita"])
    expect(matchMembers([rita, ada], "ADA").map((m) => m.id)).toEqual(["u_ada"])
    expect(matchMembers([rita, ada], "min").map((m) => m.id)).toEqual(["u_ada"])
    expect(matchMembers([rita, ada], "zz")).toEqual([])
  })

  it("splits a body into text and mentions, and reads back what it wrote", () => {
    expect(splitMentions("Thanks @[Rita Reviewer](user:u_rita)!")).toEqual([
      { kind: "text", text: "Thanks " },
      { kind: "mention", name: "Rita Reviewer", userId: "u_rita" },
      { kind: "text", text: "!" }
    ])
    expect(splitMentions("a [link](https://x.test) stays text")).toEqual([{ kind: "text", text: "a [link](https://x.test) stays text" }])
    fc.assert(fc.property(fc.string(), fc.string({ minLength: 1 }), fc.string(), (before, name, after) => {
      const typed = `${before} @`
      const out = insertMention(`${typed}${after.startsWith(" ") ? after : ` ${after}`}`, typed.length - 1, typed.length, { id: "u_x", displayName: name })
      const mentions = splitMentions(out.text).filter((p) => p.kind === "mention")
      expect(mentions.some((p) => p.kind === "mention" && p.userId === "u_x")).toBe(true)
    }), { seed: 21 })
  })
})
