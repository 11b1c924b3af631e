/**
 * The editor's side of the block registry (the schema and markdown are in @quire/document): each block's node
 * views by node name, or "toDOM" when the node's own rendering is enough, and the editing keys that only the
 * editor needs. Keyed by `BlockName`, so a block without an entry here does not compile.
 */
import type { AnyExtension, NodeViewRenderer } from "@tiptap/core"
import type { BlockName } from "@quire/document"
import { cardsView } from "./cards/view.ts"
import { CodeBlockKeys } from "./code/keys.ts"
import { codeBlockView } from "./code/view.ts"
import { columnView } from "./columns/view.ts"
import { contentRefView } from "./content-ref/view.ts"
import { embedView } from "./embed/view.ts"
import { expandableView } from "./expandable/view.ts"
import { figureView } from "./figure/view.ts"
import { fileView } from "./file/view.ts"
import { frontmatterView } from "./frontmatter/view.ts"
import { hintView } from "./hint/view.ts"
import { includeView } from "./include/view.ts"
import { createOpenapiView } from "./openapi/view.ts"
import { rawView } from "./raw/view.ts"
import { TableEditing } from "./table/commands.ts"
import { tableView } from "./table/view.ts"
import { TabsFollowCursor, tabsView, tabView } from "./tabs/view.ts"

export interface BlockView {
  /** Plain DOM node views by node name, or "toDOM" when the node's own rendering is enough. */
  readonly view: Readonly<Record<string, NodeViewRenderer>> | "toDOM"
  /** Extensions that add editing keys and commands for the block, after its nodes. */
  readonly editing?: ReadonlyArray<AnyExtension>
}

export const blockViews: Record<BlockName, BlockView> = {
  paragraph: { view: "toDOM" },
  heading: { view: "toDOM" },
  bulletList: { view: "toDOM" },
  orderedList: { view: "toDOM" },
  taskList: { view: "toDOM" },
  blockquote: { view: "toDOM" },
  table: { view: { table: tableView }, editing: [TableEditing] },
  codeBlock: { view: { codeBlock: codeBlockView }, editing: [CodeBlockKeys] },
  mathBlock: { view: "toDOM" },
  figure: { view: { figure: figureView } },
  horizontalRule: { view: "toDOM" },
  hint: { view: { hint: hintView } },
  tabs: { view: { tabs: tabsView, tab: tabView }, editing: [TabsFollowCursor] },
  stepper: { view: "toDOM" },
  columns: { view: { column: columnView } },
  expandable: { view: { expandable: expandableView } },
  cards: { view: { cards: cardsView } },
  embed: { view: { embed: embedView } },
  contentRef: { view: { contentRef: contentRefView } },
  file: { view: { file: fileView } },
  openapiOperation: { view: { openapiOperation: createOpenapiView(() => undefined) } },
  include: { view: { include: includeView } },
  frontmatter: { view: { frontmatter: frontmatterView } },
  raw: { view: { raw: rawView } }
}
