/**
 * The block registry: every top-level block the editor knows, keyed by name, with its TipTap extensions and its
 * markdown. A name in `BlockName` without an entry (or an entry without markdown) is a type error.
 */
import type { AnyExtension, NodeViewRenderer } from "@tiptap/core"
import type { BlockMarkdown } from "../markdown/types.ts"
import { Blockquote } from "./blockquote/node.ts"
import { blockquote } from "./blockquote/markdown.ts"
import { Cards } from "./cards/node.ts"
import { cards } from "./cards/markdown.ts"
import { CodeBlock } from "./code/node.ts"
import { codeBlock } from "./code/markdown.ts"
import { codeBlockView } from "./code/view.ts"
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
import { TableEditing } from "./table/commands.ts"
import { tableView } from "./table/view.ts"
import { Tab, Tabs } from "./tabs/node.ts"
import { tabs } from "./tabs/markdown.ts"
import { cardsView } from "./cards/view.ts"
import { columnView } from "./columns/view.ts"
import { contentRefView } from "./content-ref/view.ts"
import { embedView } from "./embed/view.ts"
import { expandableView } from "./expandable/view.ts"
import { figureView } from "./figure/view.ts"
import { fileView } from "./file/view.ts"
import { frontmatterView } from "./frontmatter/view.ts"
import { hintView } from "./hint/view.ts"
import { includeView } from "./include/view.ts"
import { openapiView } from "./openapi/view.ts"
import { rawView } from "./raw/view.ts"
import { tabView } from "./tabs/view.ts"

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
  /** The block's node and the nodes only it contains (list items, tabs' tab, table rows), and its editing keys. */
  readonly extensions: ReadonlyArray<AnyExtension>
  readonly markdown: BlockMarkdown
  /** Plain DOM node views by node name, or "toDOM" when the node's own rendering is enough. */
  readonly view: Readonly<Record<string, NodeViewRenderer>> | "toDOM"
}

const serializeOnly = (m: BlockMarkdown): BlockMarkdown => ({ parse: null, serialize: m.serialize })

export const blocks: Record<BlockName, BlockEntry> = {
  paragraph: { extensions: [Paragraph], markdown: paragraph, view: "toDOM" },
  heading: { extensions: [Heading], markdown: heading, view: "toDOM" },
  bulletList: { extensions: [BulletList, ListItem], markdown: list, view: "toDOM" },
  orderedList: { extensions: [OrderedList], markdown: serializeOnly(list), view: "toDOM" },
  taskList: { extensions: [TaskList, TaskItem], markdown: serializeOnly(list), view: "toDOM" },
  blockquote: { extensions: [Blockquote], markdown: blockquote, view: "toDOM" },
  table: { extensions: [Table, TableRow, TableHeader, TableCell, TableEditing], markdown: table, view: { table: tableView } },
  codeBlock: { extensions: [CodeBlock], markdown: codeBlock, view: { codeBlock: codeBlockView } },
  mathBlock: { extensions: [MathBlock], markdown: mathBlock, view: "toDOM" },
  figure: { extensions: [Figure], markdown: figure, view: { figure: figureView } },
  horizontalRule: { extensions: [HorizontalRule], markdown: horizontalRule, view: "toDOM" },
  hint: { extensions: [Hint], markdown: hint, view: { hint: hintView } },
  tabs: { extensions: [Tabs, Tab], markdown: tabs, view: { tab: tabView } },
  stepper: { extensions: [Stepper, Step], markdown: stepper, view: "toDOM" },
  columns: { extensions: [Columns, Column], markdown: columns, view: { column: columnView } },
  expandable: { extensions: [Expandable], markdown: expandable, view: { expandable: expandableView } },
  cards: { extensions: [Cards], markdown: cards, view: { cards: cardsView } },
  embed: { extensions: [Embed], markdown: embed, view: { embed: embedView } },
  contentRef: { extensions: [ContentRef], markdown: contentRef, view: { contentRef: contentRefView } },
  file: { extensions: [File], markdown: file, view: { file: fileView } },
  openapiOperation: { extensions: [OpenapiOperation], markdown: openapiOperation, view: { openapiOperation: openapiView } },
  include: { extensions: [Include], markdown: include, view: { include: includeView } },
  frontmatter: { extensions: [Frontmatter], markdown: frontmatter, view: { frontmatter: frontmatterView } },
  raw: { extensions: [Raw], markdown: raw, view: { raw: rawView } }
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
