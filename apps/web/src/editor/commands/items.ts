/**
 * What the slash menu (and the toolbar's Insert) offers: every block of the schema with the starter content it
 * is inserted with. Each template is ProseMirror JSON whose markdown is valid GitBook markdown that reads back
 * as the same block (test/editor/commands/items.test.ts). No DOM here, so the tests run in Node.
 */
import type { Node as PMNode, Schema } from "@tiptap/pm/model"
import type { LiquidParam } from "@quire/document"

export interface JsonNode {
  readonly type: string
  readonly attrs?: Record<string, unknown>
  readonly content?: ReadonlyArray<JsonNode>
  readonly text?: string
}

export interface InsertItem {
  readonly id: string
  readonly title: string
  readonly description: string
  /** More words the filter matches (synonyms, markdown shortcuts). */
  readonly keywords: ReadonlyArray<string>
  /** The inserted block; `undefined` for the image, which opens the file chooser. */
  readonly template: JsonNode | undefined
}

const q = (key: string | null, value: string): LiquidParam => ({ key, value, quote: key === null ? "" : "\"" })
const text = (t: string): JsonNode => ({ type: "text", text: t })
const para = (t: string): JsonNode => ({ type: "paragraph", content: [text(t)] })
const heading = (level: number, t: string): JsonNode => ({ type: "heading", attrs: { level }, content: [text(t)] })
const item = (type: "listItem" | "taskItem", t: string, attrs: Record<string, unknown> = {}): JsonNode => ({ type, attrs, content: [para(t)] })

const hint = (style: "info" | "success" | "warning" | "danger", label: string): InsertItem => ({
  id: `hint-${style}`,
  title: `Hint: ${label}`,
  description: `A ${style} callout`,
  keywords: ["hint", "callout", "alert", "note", style],
  template: { type: "hint", attrs: { params: [q("style", style)] }, content: [para(`${label} text`)] }
})

const cell = (type: "tableHeader" | "tableCell", t: string): JsonNode => ({ type, content: [t === "" ? { type: "paragraph" } : para(t)] })

export const insertItems: ReadonlyArray<InsertItem> = [
  { id: "paragraph", title: "Text", description: "A plain paragraph", keywords: ["paragraph", "plain"], template: { type: "paragraph" } },
  { id: "heading-1", title: "Heading 1", description: "A page section", keywords: ["h1", "title", "#"], template: heading(1, "Heading") },
  { id: "heading-2", title: "Heading 2", description: "A subsection", keywords: ["h2", "##"], template: heading(2, "Heading") },
  { id: "heading-3", title: "Heading 3", description: "A smaller subsection", keywords: ["h3", "###"], template: heading(3, "Heading") },
  { id: "bullet-list", title: "Bulleted list", description: "A list with bullets", keywords: ["ul", "unordered", "-"], template: { type: "bulletList", content: [item("listItem", "Item")] } },
  { id: "numbered-list", title: "Numbered list", description: "A list with numbers", keywords: ["ol", "ordered", "1."], template: { type: "orderedList", content: [item("listItem", "Item")] } },
  { id: "task-list", title: "Task list", description: "A checklist", keywords: ["todo", "checkbox", "[ ]"], template: { type: "taskList", content: [item("taskItem", "Task", { checked: false })] } },
  { id: "quote", title: "Quote", description: "Quoted words", keywords: ["blockquote", ">"], template: { type: "blockquote", content: [para("Quote")] } },
  { id: "code", title: "Code block", description: "Code with a language", keywords: ["pre", "snippet", "```"], template: { type: "codeBlock" } },
  {
    id: "code-titled",
    title: "Code block with title",
    description: "Code with a file name",
    keywords: ["pre", "snippet", "file", "filename"],
    template: { type: "codeBlock", attrs: { wrapper: [q("title", "")] } }
  },
  {
    id: "table",
    title: "Table",
    description: "Rows and columns",
    keywords: ["grid", "|"],
    template: {
      type: "table",
      attrs: { delimiters: ["---", "---"] },
      content: [
        { type: "tableRow", content: [cell("tableHeader", "Column 1"), cell("tableHeader", "Column 2")] },
        { type: "tableRow", content: [cell("tableCell", "Cell"), cell("tableCell", "Cell")] }
      ]
    }
  },
  { id: "image", title: "Image", description: "Upload a picture", keywords: ["figure", "picture", "photo", "upload"], template: undefined },
  hint("info", "Info"),
  hint("success", "Success"),
  hint("warning", "Warning"),
  hint("danger", "Danger"),
  {
    id: "tabs",
    title: "Tabs",
    description: "Content in tabs",
    keywords: ["tab", "switch"],
    template: {
      type: "tabs",
      content: [
        { type: "tab", attrs: { params: [q("title", "First tab")] }, content: [para("First tab text")] },
        { type: "tab", attrs: { params: [q("title", "Second tab")], lead: 1 }, content: [para("Second tab text")] }
      ]
    }
  },
  {
    id: "expandable",
    title: "Expandable",
    description: "Details shown on click",
    keywords: ["details", "collapse", "accordion", "toggle"],
    template: { type: "expandable", attrs: { lead: 1, summary: "Summary" }, content: [para("Hidden text")] }
  },
  {
    id: "stepper",
    title: "Stepper",
    description: "Numbered steps",
    keywords: ["steps", "guide", "walkthrough"],
    template: {
      type: "stepper",
      content: [
        { type: "step", content: [heading(3, "First step"), para("What to do")] },
        { type: "step", attrs: { lead: 1 }, content: [heading(3, "Second step"), para("What to do next")] }
      ]
    }
  },
  {
    id: "columns",
    title: "Columns",
    description: "Two columns side by side",
    keywords: ["layout", "side", "split"],
    template: {
      type: "columns",
      content: [
        { type: "column", attrs: { params: [q("width", "50%")] }, content: [para("Left column")] },
        { type: "column", attrs: { params: [q("width", "50%")], lead: 1 }, content: [para("Right column")] }
      ]
    }
  },
  {
    id: "cards",
    title: "Cards",
    description: "A grid of link cards",
    keywords: ["grid", "gallery", "links"],
    template: {
      type: "cards",
      attrs: {
        columns: [{ attrs: "", label: "" }, { attrs: "", label: "" }, { attrs: " data-hidden data-card-target data-type=\"content-ref\"", label: "" }],
        rows: [["<strong>Card title</strong>", "Card text", ""], ["<strong>Card title</strong>", "Card text", ""]]
      }
    }
  },
  { id: "embed", title: "Embed", description: "A video, tweet or page by URL", keywords: ["url", "video", "youtube", "iframe"], template: { type: "embed", attrs: { params: [q("url", "https://")] } } },
  {
    id: "content-ref",
    title: "Page link card",
    description: "A card linking to a page",
    keywords: ["content-ref", "reference", "page"],
    template: { type: "contentRef", attrs: { params: [q("url", "page.md")], body: "[page.md](page.md)", endTag: "{% endcontent-ref %}" } }
  },
  { id: "file", title: "File", description: "A file to download", keywords: ["attachment", "download"], template: { type: "file", attrs: { params: [q("src", "")] } } },
  {
    id: "openapi",
    title: "OpenAPI operation",
    description: "An API endpoint from a spec",
    keywords: ["api", "swagger", "endpoint", "rest"],
    template: {
      type: "openapiOperation",
      // No operation yet: the block's pickers choose the spec and the operation (blocks/openapi/view.ts).
      attrs: { endTag: "{% endopenapi-operation %}" }
    }
  },
  { id: "math", title: "Math block", description: "A TeX formula", keywords: ["tex", "latex", "formula", "equation", "$$"], template: { type: "mathBlock", content: [text("E = mc^2")] } },
  { id: "divider", title: "Divider", description: "A horizontal line", keywords: ["rule", "hr", "line", "separator", "---"], template: { type: "horizontalRule" } }
]

/** Words of the item that a query matches: title, id and keywords, lower-cased. */
const haystack = (item: InsertItem): string => [item.title, item.id, ...item.keywords].join(" ").toLowerCase()

/**
 * The items matching what was typed after `/`: every word of the query must start a word of the item (or be a
 * keyword's prefix); items whose title starts with the query come first.
 */
export const filterItems = (query: string, items: ReadonlyArray<InsertItem> = insertItems): ReadonlyArray<InsertItem> => {
  const words = query.toLowerCase().trim().split(/\s+/).filter((w) => w !== "")
  if (words.length === 0) return items
  const matches = items.filter((item) => {
    const tokens = haystack(item).split(/[\s:-]+/)
    return words.every((w) => tokens.some((t) => t.startsWith(w)) || haystack(item).includes(w))
  })
  const first = words.join(" ")
  return [...matches.filter((i) => i.title.toLowerCase().startsWith(first)), ...matches.filter((i) => !i.title.toLowerCase().startsWith(first))]
}

/** The block an item inserts, built with `schema` (throws when the template does not fit it). */
export const buildBlock = (schema: Schema, item: InsertItem): PMNode | undefined => {
  if (item.template === undefined) return undefined
  const node = schema.nodeFromJSON(item.template)
  node.check()
  return node
}
