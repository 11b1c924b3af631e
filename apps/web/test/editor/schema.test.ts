/** The editor mounts the page schema the server reads shared documents with: its node views and editing keys add no node, mark or attribute. */
import { createSchema } from "@quire/document"
import { getSchema } from "@tiptap/core"
import type { Schema } from "@tiptap/pm/model"
import { expect, it } from "vitest"
import { editorExtensions } from "../../src/editor/schema.ts"

const shape = (schema: Schema) => ({
  nodes: Object.values(schema.nodes).map((t) => [t.name, t.spec.content, t.spec.group, t.isInline, t.isAtom, Object.entries(t.spec.attrs ?? {}).map(([k, a]) => [k, a.default])]),
  marks: Object.values(schema.marks).map((t) => [t.name, Object.entries(t.spec.attrs ?? {}).map(([k, a]) => [k, a.default])])
})

it("builds the same nodes, marks and attributes as @quire/document's schema", () => {
  const editor = getSchema(editorExtensions())
  expect(shape(editor)).toEqual(shape(createSchema()))
  expect(Object.keys(editor.nodes)).toContain("openapiOperation")
})
