/**
 * The block registry: every top-level block a page can hold, keyed by name, with its TipTap nodes (schema only,
 * no views) and its markdown. A name in `BlockName` without an entry (or an entry without markdown) is a type
 * error, and so is a name without each of its other forms, each kept by the package that draws it and keyed by
 * `BlockName` in the same way: its editor view (apps/web/src/editor/blocks/views.ts), its GitBook JSON document
 * form (`jsonForms` in packages/content/src/markdown/JsonDocument.ts) and its published HTML (`blockForms` in
 * packages/sites/src/render/TreeHtml.ts). A new block is a folder here plus one entry in each.
 */
import type { AnyExtension } from "@tiptap/core"
import type { BlockMarkdown } from "../codec/types.ts"
import { Blockquote } from "./blockquote/node.ts"
import { blockquote } from "./blockquote/markdown.ts"
import { Cards } from "./cards/node.ts"
import { cards } from "./cards/markdown.ts"
import { CodeBlock } from "./code/node.ts"
import { codeBlock } from "./code/markdown.ts"
import { Column, Columns } from "./columns/node.ts"
import { columns } from "./columns/markdown.ts"
import { ContentRef } from "./content-ref/node.ts"
import { contentRef } from "./content-ref/markdown.ts"
import { Embed } from "./embed/node.ts"
import { embed } from "./embed/markdown.ts"
import { Expandable } from "./expandable/node.ts"
import { expandable } from "./expandable/markdown.ts"
import { Figure } from "./figure/node.ts"
import { figure } from "./figure/markdown.ts"
import { File } from "./file/node.ts"
import { file } from "./file/markdown.ts"
import { Frontmatter } from "./frontmatter/node.ts"
import { frontmatter } from "./frontmatter/markdown.ts"
import { Heading } from "./heading/node.ts"
import { heading } from "./heading/markdown.ts"
import { Hint } from "./hint/node.ts"
import { hint } from "./hint/markdown.ts"
import { Include } from "./include/node.ts"
import { include } from "./include/markdown.ts"
import { BulletList, ListItem, OrderedList, TaskItem, TaskList } from "./list/node.ts"
import { list } from "./list/markdown.ts"
import { MathBlock } from "./math/node.ts"
import { mathBlock } from "./math/markdown.ts"
import { OpenapiOperation } from "./openapi/node.ts"
import { openapiOperation } from "./openapi/markdown.ts"
import { Paragraph } from "./paragraph/node.ts"
import { paragraph } from "./paragraph/markdown.ts"
import { Raw } from "./raw/node.ts"
import { raw } from "./raw/markdown.ts"
import { HorizontalRule } from "./rule/node.ts"
import { horizontalRule } from "./rule/markdown.ts"
import { Step, Stepper } from "./stepper/node.ts"
import { stepper } from "./stepper/markdown.ts"
import { Table, TableCell, TableHeader, TableRow } from "./table/node.ts"
import { table } from "./table/markdown.ts"
import { Tab, Tabs } from "./tabs/node.ts"
import { tabs } from "./tabs/markdown.ts"

export type BlockName =
  | "paragraph"
  | "heading"
  | "bulletList"
  | "orderedList"
  | "taskList"
  | "blockquote"
  | "table"
  | "codeBlock"
  | "mathBlock"
  | "figure"
  | "horizontalRule"
  | "hint"
  | "tabs"
  | "stepper"
  | "columns"
  | "expandable"
  | "cards"
  | "embed"
  | "contentRef"
  | "file"
  | "openapiOperation"
  | "include"
  | "frontmatter"
  | "raw"

export interface BlockEntry {
  /** The block's node and the nodes only it contains (list items, tabs' tab, table rows). */
  readonly extensions: ReadonlyArray<AnyExtension>
  readonly markdown: BlockMarkdown
}

const serializeOnly = (m: BlockMarkdown): BlockMarkdown => ({ parse: null, serialize: m.serialize })

export const blocks: Record<BlockName, BlockEntry> = {
  paragraph: { extensions: [Paragraph], markdown: paragraph },
  heading: { extensions: [Heading], markdown: heading },
  bulletList: { extensions: [BulletList, ListItem], markdown: list },
  orderedList: { extensions: [OrderedList], markdown: serializeOnly(list) },
  taskList: { extensions: [TaskList, TaskItem], markdown: serializeOnly(list) },
  blockquote: { extensions: [Blockquote], markdown: blockquote },
  table: { extensions: [Table, TableRow, TableHeader, TableCell], markdown: table },
  codeBlock: { extensions: [CodeBlock], markdown: codeBlock },
  mathBlock: { extensions: [MathBlock], markdown: mathBlock },
  figure: { extensions: [Figure], markdown: figure },
  horizontalRule: { extensions: [HorizontalRule], markdown: horizontalRule },
  hint: { extensions: [Hint], markdown: hint },
  tabs: { extensions: [Tabs, Tab], markdown: tabs },
  stepper: { extensions: [Stepper, Step], markdown: stepper },
  columns: { extensions: [Columns, Column], markdown: columns },
  expandable: { extensions: [Expandable], markdown: expandable },
  cards: { extensions: [Cards], markdown: cards },
  embed: { extensions: [Embed], markdown: embed },
  contentRef: { extensions: [ContentRef], markdown: contentRef },
  file: { extensions: [File], markdown: file },
  openapiOperation: { extensions: [OpenapiOperation], markdown: openapiOperation },
  include: { extensions: [Include], markdown: include },
  frontmatter: { extensions: [Frontmatter], markdown: frontmatter },
  raw: { extensions: [Raw], markdown: raw }
}

/** The order in which block parsers are tried at a line; the paragraph comes last, as the fallback. */
export const parseOrder: ReadonlyArray<BlockName> = [
  "frontmatter",
  "codeBlock",
  "mathBlock",
  "heading",
  "horizontalRule",
  "bulletList",
  "blockquote",
  "hint",
  "tabs",
  "stepper",
  "columns",
  "embed",
  "contentRef",
  "file",
  "openapiOperation",
  "include",
  "expandable",
  "figure",
  "cards",
  "table"
]

export const isBlockName = (name: string): name is BlockName => Object.hasOwn(blocks, name)
