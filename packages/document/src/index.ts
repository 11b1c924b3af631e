/**
 * A page's document, browser-safe (no Node module, no DOM at load): what the editor and the server must agree
 * on byte for byte. `createSchema()` builds the ProseMirror schema of a page, and `createMarkdownCodec(schema)`
 * turns GitBook markdown into a document of that schema and back, writing every untouched block from the
 * source slice it keeps in its `source` attribute. A document's JSON (`doc.toJSON()`, what y-prosemirror
 * gives for a shared document) read back with `Node.fromJSON(schema, json)` serializes to the same bytes.
 * `Syntax` is GitBook's tag and frontmatter-fence grammar, also importable alone (without the editor's
 * libraries) as `@quire/document/syntax`.
 */
export * as Syntax from "./syntax/Syntax.ts"
export { createSchema, Doc, documentExtensions, type BlockExtensions } from "./Schema.ts"
export { attributeProblem } from "./Attributes.ts"
export { maxBlankLines, maxText } from "./blocks/shared/attrs.ts"
export { createMarkdownCodec, type MarkdownCodec } from "./codec/codec.ts"
export { checkFresh, checkRoundTrip, classify, meaning, sameDocument, withoutSources, type Fidelity } from "./codec/fidelity.ts"
export type { BlockMarkdown, BlockParse, MarkdownContext } from "./codec/types.ts"
export { blocks, isBlockName, parseOrder, type BlockEntry, type BlockName } from "./blocks/index.ts"
export { indentOf, splitSlice, stripIndent } from "./codec/lines.ts"
export { getParam, setParam, type LiquidParam } from "./syntax/Liquid.ts"
export { getHtmlAttr, setHtmlAttr, type HtmlAttr } from "./blocks/shared/html.ts"
export type { CardColumn } from "./blocks/cards/node.ts"
