/**
 * A shared document's page as markdown in the browser, with the codec the server writes pages with
 * (`@quire/document` over the `default` fragment, y-tiptap's binding): what a person typed that the
 * server will not keep (the page deleted, the change request merged) is offered to them as text.
 * Loaded with `import()` when needed, as the editor is.
 */
import { createMarkdownCodec, createSchema } from "@quire/document"
import { yXmlFragmentToProseMirrorRootNode } from "@tiptap/y-tiptap"
import * as Y from "yjs"
import { collabField } from "./index.ts"

/** The markdown of a shared document given as its encoded state (a Yjs update). */
export const markdownOfState = (state: Uint8Array): string => {
  const doc = new Y.Doc()
  try {
    Y.applyUpdate(doc, state)
    const schema = createSchema()
    return createMarkdownCodec(schema).serialize(yXmlFragmentToProseMirrorRootNode(doc.getXmlFragment(collabField), schema))
  } finally {
    doc.destroy()
  }
}
