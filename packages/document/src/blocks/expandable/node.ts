import { Node } from "@tiptap/core"
import type { TagParseRule } from "@tiptap/pm/model"
import { attr, is, isBlankLines, sourceAttr } from "../shared/attrs.ts"

/** An element as the parse rules see it (this module also runs where there is no DOM). */
interface Element {
  readonly textContent: string | null
  querySelector(selector: string): Element | null
}

/** Where the blocks of a `<details>` are: the body this node renders, else the element itself (a `<summary>` is skipped). */
const bodyOf = (dom: Element) => dom.querySelector(":scope > [data-expandable-body]") ?? dom

/**
 * `<details>` with its `<summary>` (kept as written) and blocks; `openTag` keeps `<details open>`.
 * Drawn as HTML (a diff, a copy) with its summary's words, as a reader sees it.
 */
export const Expandable = Node.create({
  name: "expandable",
  group: "block",
  content: "block+",
  defining: true,
  addAttributes: () => ({ ...sourceAttr, openTag: attr("<details>", is.string()), lead: attr(1, isBlankLines), summary: attr("", is.string()), endTag: attr("</details>", is.string()) }),
  parseHTML: (): ReadonlyArray<TagParseRule> => [
    {
      tag: "details",
      // The DOM's own types are not this package's (it runs where there is none): the rule's are.
      contentElement: bodyOf as unknown as NonNullable<TagParseRule["contentElement"]>,
      getAttrs: ((dom: Element) => ({ summary: dom.querySelector(":scope > summary")?.textContent ?? "" })) as unknown as NonNullable<TagParseRule["getAttrs"]>
    },
    // The summary is the expandable's attribute, not a block of its content.
    { tag: "summary", ignore: true }
  ],
  renderHTML: ({ node }) => [
    "details",
    /\sopen\b/.test(node.attrs.openTag as string) ? { open: "" } : {},
    ["summary", {}, node.attrs.summary as string],
    ["div", { "data-expandable-body": "" }, 0]
  ]
})
