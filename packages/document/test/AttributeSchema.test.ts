/**
 * Every attribute of the page's schema declares the type and range of its values, and a value out of
 * them is refused when a node is made (the codec, the editor, a shared document read), so the
 * markdown never runs away on one: a heading of level 200,000,000 once wrote that many `#`.
 */
import { describe, expect, it } from "vitest"
import { attributeProblem, createSchema } from "../src/index.ts"
import { codec } from "./support.ts"

const schema = createSchema()

describe("the attribute schema", () => {
  it("every attribute of every node and mark declares the type and range of its values", () => {
    const missing: Array<string> = []
    for (const type of [...Object.values(schema.nodes), ...Object.values(schema.marks)]) {
      for (const [name, spec] of Object.entries(type.spec.attrs ?? {})) {
        if (typeof spec.validate !== "function") missing.push(`${type.name}.${name}`)
        // The default is a value of its own type.
        else expect(() => (spec.validate as (value: unknown) => void)(spec.default), `${type.name}.${name}`).not.toThrow()
      }
    }
    expect(missing).toEqual([])
  })

  it("refuses a value out of range or of the wrong type, naming the node and the attribute", () => {
    expect(attributeProblem(schema.nodes.heading!, { level: 200_000_000 })).toBe("heading's level must be an integer from 1 to 6, not 200000000")
    expect(attributeProblem(schema.nodes.paragraph!, { source: 42 })).toMatch(/^paragraph's source must be a string/)
    expect(attributeProblem(schema.nodes.tabs!, { lead: 500_000_000 })).toMatch(/^tabs's lead must be an integer from 0 to 1000/)
    expect(attributeProblem(schema.nodes.bulletList!, { indent: 1e9 })).toMatch(/^bulletList's indent must be an integer from 0 to 3/)
    expect(attributeProblem(schema.nodes.hint!, { params: [{ key: 1, value: "x", quote: "\"" }] })).toMatch(/^hint's params entry 0: key/)
    expect(attributeProblem(schema.marks.code!, { ticks: 1e9 })).toMatch(/^code's ticks must be an integer from 1 to 1000/)
    expect(attributeProblem(schema.nodes.paragraph!, { sneaky: "x" })).toBe("paragraph has no attribute \"sneaky\"")
    expect(attributeProblem(schema.nodes.heading!, { level: 3, anchor: "a", source: "### x\n" })).toBeUndefined()
    expect(() => schema.nodes.heading!.create({ level: 200_000_000 })).toThrow(RangeError)
  })

  it("markdown whose counts exceed an attribute's range is read as text, not refused", () => {
    const ticks = "`".repeat(1_001)
    const code = `Some ${ticks}code${ticks} here.\n`
    expect(codec.serialize(codec.parse(code))).toBe(code)
    const tabs = `{% tabs %}\n${"\n".repeat(1_001)}{% tab title="A" %}\nA\n{% endtab %}\n{% endtabs %}\n`
    const doc = codec.parse(tabs)
    expect(doc.firstChild!.type.name).not.toBe("tabs")
    expect(codec.serialize(doc)).toBe(tabs)
  })
})
