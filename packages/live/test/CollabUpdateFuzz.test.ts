/**
 * A seeded fuzz of live updates: random trees of blocks and inline content with random attributes
 * and marks (names of the schema and others, values of every type and far out of range), inserted
 * into a page's shared document or set on its blocks, each sent through the server's check
 * (CollabUpdateCheck) as an update. Whatever the check lets through, the codec writes as markdown
 * without throwing, in bounded time, leaving out nothing the document holds, and the merge's reading
 * of the stored document (StoredLiveMarkdown) reads it too; after each update, the copy the check
 * tries the next one on reads as the document.
 */
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { Effect, Option } from "effect"
import * as Y from "yjs"
import { createSchema } from "@quire/document"
import { StoredLiveMarkdown } from "@quire/reviews"
import { CollabCodec } from "@quire/live/CollabCodec"
import * as CollabStoredMarkdown from "@quire/live/CollabStoredMarkdown"
import * as CollabUpdateCheck from "@quire/live/CollabUpdateCheck"

const codec = CollabCodec.editor()
const schema = createSchema()

const page = [
  "# Guide",
  "",
  "A paragraph with **bold** and `code`.",
  "",
  "1. one",
  "2. two",
  "",
  "{% hint style=\"info\" %}",
  "A hint.",
  "{% endhint %}",
  "",
  "| a | b |",
  "|---|---|",
  "| 1 | 2 |",
  ""
].join("\n")
const base = codec.fromMarkdown(page)

const nodeNames = Object.keys(schema.nodes).filter((name) => name !== "text")
const markNames = Object.keys(schema.marks)
const attrsOf = (name: string): Array<string> => Object.keys(schema.nodes[name]?.spec.attrs ?? schema.marks[name]?.spec.attrs ?? {})

/** Attribute values of every kind: small and huge numbers, strings, lists, records (a liquid parameter's shape among them). */
const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -3, max: 8 }),
  fc.constantFrom(200_000_000, 500_000_000, 1e9, -1, 0.5, Number.MAX_SAFE_INTEGER),
  fc.string({ maxLength: 6 }),
  fc.constantFrom("", "```", "-", "*", ".", "x", "\"", "<details>", "{% endhint %}"),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
  fc.array(fc.record({ key: fc.option(fc.string({ maxLength: 3 })), value: fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), quote: fc.constantFrom("\"", "'", "", "`") }, { noNullPrototype: true }), { maxLength: 2 }),
  fc.record({ name: fc.string({ maxLength: 3 }), value: fc.option(fc.string({ maxLength: 3 })), quote: fc.constantFrom("\"", "") }, { noNullPrototype: true })
)

/** Attributes for a node or mark `name`: mostly its own names, sometimes another's. */
const attrsFor = (name: string) =>
  fc.dictionary(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...attrsOf(name), "source") }, { weight: 1, arbitrary: fc.constantFrom("junk", "level", "lead", "ticks") }), value, { maxKeys: 3, noNullPrototype: true })

interface TextSpec {
  readonly text: string
  readonly marks: ReadonlyArray<readonly [string, Record<string, unknown>]>
}
interface NodeSpec {
  readonly name: string
  readonly attrs: Record<string, unknown>
  readonly children: ReadonlyArray<NodeSpec | TextSpec>
}

const markName = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...markNames) }, { weight: 1, arbitrary: fc.constantFrom("blink", "link--abcdefgh") })
const text: fc.Arbitrary<TextSpec> = fc.record({
  text: fc.string({ minLength: 1, maxLength: 6 }),
  marks: fc.array(markName.chain((name) => fc.tuple(fc.constant(name), attrsFor(name.replace(/--.*/, "")))), { maxLength: 2 })
})
const tree = fc.letrec<{ node: NodeSpec }>((tie) => ({
  node: fc
    .oneof({ weight: 8, arbitrary: fc.constantFrom(...nodeNames) }, { weight: 1, arbitrary: fc.constantFrom("marquee", "doc") })
    .chain((name) =>
      fc.record({
        name: fc.constant(name),
        attrs: attrsFor(name),
        children: fc.array(fc.oneof({ depthSize: "small", withCrossShrink: true }, text, tie("node")), { maxLength: 3 })
      })
    )
})).node

/** One edit of the page: a tree inserted somewhere, an attribute set on a block, or a mark on some text. */
type Edit =
  | { readonly kind: "insert"; readonly at: number; readonly path: number; readonly tree: NodeSpec | TextSpec }
  | { readonly kind: "attribute"; readonly path: number; readonly name: string; readonly value: unknown }
  | { readonly kind: "mark"; readonly path: number; readonly mark: readonly [string, Record<string, unknown>] }

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), path: fc.nat(), tree: fc.oneof({ weight: 4, arbitrary: tree }, { weight: 1, arbitrary: text }) }),
  fc.record({ kind: fc.constant("attribute" as const), path: fc.nat(), name: fc.constantFrom(...new Set(nodeNames.flatMap(attrsOf)), "junk"), value }),
  fc.record({ kind: fc.constant("mark" as const), path: fc.nat(), mark: markName.chain((name) => fc.tuple(fc.constant(name), attrsFor(name))) })
)

const build = (spec: NodeSpec | TextSpec): Y.XmlElement | Y.XmlText => {
  if ("text" in spec) {
    const node = new Y.XmlText()
    node.insert(0, spec.text, Object.fromEntries(spec.marks))
    return node
  }
  const element = new Y.XmlElement(spec.name)
  for (const [key, attribute] of Object.entries(spec.attrs)) element.setAttribute(key, attribute as string)
  element.insert(0, spec.children.map(build))
  return element
}

/** Every element and text of the page, in document order. */
const nodesOf = (fragment: Y.XmlFragment): Array<Y.XmlElement | Y.XmlText> => {
  const all: Array<Y.XmlElement | Y.XmlText> = []
  const walk = (parent: Y.XmlFragment | Y.XmlElement) => {
    for (const child of parent.toArray()) {
      if (child instanceof Y.XmlElement) {
        all.push(child)
        walk(child)
      } else if (child instanceof Y.XmlText) all.push(child)
    }
  }
  walk(fragment)
  return all
}

const apply = (doc: Y.Doc, change: Edit) => {
  const fragment = doc.getXmlFragment("default")
  const nodes = nodesOf(fragment)
  const elements = nodes.filter((node): node is Y.XmlElement => node instanceof Y.XmlElement)
  const texts = nodes.filter((node): node is Y.XmlText => node instanceof Y.XmlText)
  if (change.kind === "insert") {
    const parents: Array<Y.XmlFragment | Y.XmlElement> = [fragment, ...elements]
    const parent = parents[change.path % parents.length]!
    parent.insert(change.at % (parent.length + 1), [build(change.tree)])
  } else if (change.kind === "attribute") {
    elements[change.path % elements.length]!.setAttribute(change.name, change.value as string)
  } else {
    const target = texts[change.path % texts.length]!
    target.format(0, Math.max(1, target.length), Object.fromEntries([change.mark]))
  }
}

describe("a fuzz of live updates (seeded fast-check)", () => {
  it.effect("each is refused by the check, or the codec and the merge's reading write it, in bounded time, leaving nothing out", () =>
    Effect.gen(function*() {
      const stored = yield* StoredLiveMarkdown
      let refused = 0
      let passed = 0
      const runs: Array<{ readonly updates: Array<Uint8Array>; readonly markdown: string }> = []
      fc.assert(
        fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
          const live = new Y.Doc()
          Y.applyUpdate(live, base)
          const mirrors = CollabUpdateCheck.makeMirrors(codec.check)
          const updates = [base]
          for (const change of edits) {
            const editor = new Y.Doc()
            Y.applyUpdate(editor, Y.encodeStateAsUpdate(live))
            const before = Y.encodeStateVector(editor)
            apply(editor, change)
            const update = Y.encodeStateAsUpdate(editor, before)
            editor.destroy()
            const problem = mirrors.tryUpdate("cr/page", live, update)
            if (problem !== undefined) refused++
            else {
              passed++
              Y.applyUpdate(live, update)
              updates.push(update)
            }
            // The copy the next update is tried on reads as the page the server holds (taken back after a refusal, or made anew).
            const copy = mirrors.copyOf("cr/page")
            if (copy !== undefined) assert.strictEqual(copy.getXmlFragment("default").toString(), live.getXmlFragment("default").toString())
          }
          const copy = new Y.Doc()
          Y.applyUpdate(copy, Y.encodeStateAsUpdate(live))
          const held = copy.getXmlFragment("default").toString()
          const started = performance.now()
          const markdown = codec.toMarkdown(copy)
          assert.isBelow(performance.now() - started, 2_000)
          // y-prosemirror drops what does not fit the schema: nothing was let through that it drops.
          assert.strictEqual(copy.getXmlFragment("default").toString(), held)
          codec.fromMarkdown(markdown)
          runs.push({ updates, markdown })
          mirrors.forget("cr/page")
          live.destroy()
          copy.destroy()
        }),
        { seed: 57, numRuns: 250 }
      )
      // The merge reads the stored state and updates the same way.
      for (const run of runs.slice(0, 50)) assert.deepStrictEqual(yield* stored.of(run.updates), Option.some(run.markdown))
      assert.isAbove(refused, 50, "the fuzz reaches what the check refuses")
      assert.isAbove(passed, 50, "the fuzz reaches what the check lets through")
    }).pipe(Effect.provide(CollabStoredMarkdown.layer)), { timeout: 60_000 })
})
