/** The palette's reading of an Ask answer: text, bold, code, citations and safe links only. */
import { describe, expect, it } from "vitest"
import { paragraphsOf, piecesOf } from "../src/features/palette/answer.ts"

describe("an Ask answer in the palette", () => {
  it("reads bold, code, citations and links, and leaves the rest as text", () => {
    expect(piecesOf("Install the **VPN** client with `vpn up` [1, 2], see [the guide](/s/sp/guide).")).toEqual([
      { kind: "text", text: "Install the " },
      { kind: "strong", text: "VPN" },
      { kind: "text", text: " client with " },
      { kind: "code", text: "vpn up" },
      { kind: "text", text: " " },
      { kind: "cite", n: 1 },
      { kind: "cite", n: 2 },
      { kind: "text", text: ", see " },
      { kind: "link", text: "the guide", href: "/s/sp/guide" },
      { kind: "text", text: "." }
    ])
  })

  it("never makes a link of a script, another origin's protocol-relative address or HTML", () => {
    const text = "[x](javascript:alert(1)) [y](//evil.test) <b>hi</b>"
    const pieces = piecesOf(text)
    expect(pieces.filter((piece) => piece.kind !== "text")).toEqual([])
    expect(pieces.map((piece) => (piece.kind === "text" ? piece.text : "")).join("")).toBe(text)
  })

  it("splits paragraphs at blank lines", () => {
    expect(paragraphsOf("One.\n\n\nTwo [3].\n").map((p) => p.length)).toEqual([1, 3])
  })
})
