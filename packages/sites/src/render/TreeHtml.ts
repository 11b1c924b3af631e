/**
 * A page's published HTML, drawn from the editor's block tree (`@quire/document`'s codec): the one
 * reading of a page's markdown, which the editor, live editing and the JSON document share. Each
 * block of the registry has its HTML form in `blockForms`, typed by the registry's names, so a block
 * without one does not compile. What a form draws is hast, which the site's own passes (links,
 * expandables, the sanitizer, the renderer's raw HTML) then take. `TreeHtml.test.ts` holds it to the
 * HTML the site drew over real GitBook pages before remark left its path.
 */
import { type BlockName, createMarkdownCodec, createSchema, indentOf, type MarkdownCodec, stripIndent, Syntax } from "@quire/document"
import { gitbookAnchorId, gitbookSlug, headingAnchors, headingSlugger, type HeadingSlugger, takeFreeId } from "@quire/markdown"
import type { Element, ElementContent, Root as HastRoot } from "hast"
import { cardGrid, type CardLinks, linksAsWritten } from "./Cards.ts"
import { emojiOf, replaceShortcodes } from "./Emoji.ts"
import { element, text } from "./Hast.ts"
import { gitbookProperties, propertiesOf, tokenize, voidElements } from "./HtmlFragment.ts"
import { iconSvg } from "./Icons.ts"

/** A node of the editor's block tree. */
type PMNode = ReturnType<MarkdownCodec["parse"]>
type Mark = PMNode["marks"][number]

/** What the forms need of the render: the site's services and the page's running state. */
export interface TreeContext {
  /** The code block as the site highlights it. */
  readonly code: (code: string, language: string | null) => Element
  /** A formula (KaTeX) as a placeholder the site fills in after sanitizing. */
  readonly math: (tex: string, display: boolean) => ElementContent
  /** HTML the renderer made itself (an icon's SVG), inserted after sanitizing. */
  readonly raw: (html: string) => Element
  /** Records that the page needs the site's script (tabs opened by a link's hash). */
  readonly needScript: () => void
  /** A GitBook tag block the site draws with its own services (embeds, files, content references, OpenAPI), `inner` its body. */
  readonly tag: (name: string, attributes: Readonly<Record<string, string>>, inner: () => Array<ElementContent>) => Array<ElementContent>
  /** A GitBook tag the codec keeps as raw text, drawn by the site (see `TagBlock`). */
  readonly rawTag: (tag: TagBlock) => Array<ElementContent>
  /** The page's footnotes by label, and the paragraphs that define them (not drawn where they stand). */
  readonly notes: ReadonlyMap<string, Footnote>
  readonly definitions: ReadonlySet<PMNode>
  footnotes: number
  /** Markdown inside a tag block (its body) as the block tree. */
  readonly parse: (markdown: string) => PMNode
  readonly slugger: HeadingSlugger
  /** The ids the page's elements have taken: its headings' first, then tabs' and expandables'. */
  readonly taken: Set<string>
  tabs: number
  /** The site's resolvers of a card grid's covers, targets and page titles; without them, its URLs as written for the site's link pass. */
  readonly links?: CardLinks
}

/** A block's HTML form: the hast it draws, its children through `blocks`. */
type BlockForm = (node: PMNode, context: TreeContext) => Array<Drawn>

/** A raw HTML piece between drawn nodes, joined into elements by `stitch`. */
interface HtmlPiece {
  readonly type: "html"
  readonly value: string
}
type Drawn = ElementContent | HtmlPiece

const childrenOf = (node: PMNode): Array<PMNode> => {
  const out: Array<PMNode> = []
  node.forEach((child) => void out.push(child))
  return out
}

const paramOf = (node: PMNode, key: string): string | undefined =>
  (node.attrs[node.type.name === "codeBlock" ? "wrapper" : "params"] as ReadonlyArray<{ readonly key: string | null; readonly value: string }> | null)?.find((p) => p.key === key)?.value

// Inline ------------------------------------------------------------------------------------------

/** Spaces and tabs around line endings dropped (CommonMark: they are not content). */
const trimLines = (value: string): string => value.replace(/[ \t]*(\r?\n|\r)[ \t]*/g, "$1")

/**
 * A URL written in markdown as CommonMark writes it to HTML (micromark's `normalizeUri`): every character
 * outside the URL-safe set percent-encoded as UTF-8, a `%` that starts no escape too.
 */
const normalizeUri = (url: string): string =>
  url.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9!#$&'()*+,\-./:;=?@_~%]+/g, (run) => (run === "%" ? "%25" : encodeURIComponent(run)))

const markElement = (mark: Mark, drawn: Array<Drawn>, context: TreeContext): Array<Drawn> => {
  // An element's raw HTML (`**a&#x20;**`, `*<kbd>x</kbd>*`) joins inside it; a highlight's tags join around it, outside.
  const children = () => stitch(drawn, context)
  switch (mark.type.name) {
    case "bold":
      return [element("strong", {}, children())]
    case "italic":
      return [element("em", {}, children())]
    case "strike":
      return [element("del", {}, children())]
    case "link": {
      const title = mark.attrs["title"] as string | null
      return [element("a", { href: normalizeUri(String(mark.attrs["href"] ?? "")), ...(title === null ? {} : { title }) }, children())]
    }
    case "highlight":
      return [{ type: "html", value: `<mark${String(mark.attrs["attrs"] ?? "")}>` }, ...drawn, { type: "html", value: String(mark.attrs["close"] ?? "</mark>") }]
    default:
      return drawn
  }
}

/**
 * GFM's autolink literals in text outside links: `https://…` and `http://…` after anything but a
 * letter, `www.…` (linked as `http://www.…`) starting a word or after `*`, `_`, `~`, a bracket or
 * a parenthesis, and e-mail addresses (`mailto:`); without the punctuation that ends a sentence
 * or an unbalanced closing parenthesis.
 */
const autolinkLiteral = /(?<![A-Za-z])https?:\/\/[^\s<]*|(?<=^|[\s*_~()[\]])www\.[^\s<]*|(?<![\w+./-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[\w-]*[A-Za-z0-9]/g

const count = (value: string, character: string): number => value.split(character).length - 1

const trimAutolink = (url: string): string => {
  let end = url.length
  for (;;) {
    const last = url[end - 1]
    if (last !== undefined && "?!.,:*_~'\"".includes(last)) end--
    else if (last === ")" && count(url.slice(0, end), "(") < count(url.slice(0, end), ")")) end--
    else if (last === ";" && /&[A-Za-z0-9]+;$/.test(url.slice(0, end))) end = url.slice(0, end).lastIndexOf("&")
    else return url.slice(0, end)
  }
}

const linkified = (value: string): Array<ElementContent> => {
  if (!/[:@.]/.test(value)) return [text(value)]
  const out: Array<ElementContent> = []
  let at = 0
  for (const match of value.matchAll(autolinkLiteral)) {
    const found = trimAutolink(match[0])
    const domain = /^(?:https?:\/\/)?([^/?#]*)/.exec(found)?.[1] ?? ""
    // A `www.` address needs a domain with a dot, its last two labels without `_`; a protocol's any domain.
    const www = found.startsWith("www.")
    if (!found.includes("@") && (domain === "" || (www && !/\.[^._]*[^.]$/.test(domain)) || /_[^.]*\.[^.]*$/.test(domain))) continue
    if (match.index > at) out.push(text(value.slice(at, match.index)))
    const href = found.includes("@") && !/^https?:|^www\./.test(found) ? `mailto:${found}` : found.startsWith("www.") ? `http://${found}` : found
    out.push(element("a", { href }, [text(found)]))
    at = match.index + found.length
  }
  if (at < value.length) out.push(text(value.slice(at)))
  return out
}

/** The tags that stand alone: one written among words (`see {% embed url="…" %} here`) is drawn as its block there. */
const inlineBlockTags: ReadonlySet<string> = new Set(["embed", "file"])

/** Words with the GitBook tags among them drawn: a standalone block tag as its block, any other block tag left out. */
const withInlineTags = (value: string, context: TreeContext): Array<ElementContent> => {
  const tags = value.includes("{%") ? Syntax.tagsIn(value).filter((tag) => Syntax.blockTagNames.has((tag.closes ?? tag.name).toLowerCase())) : []
  if (tags.length === 0) return withFootnotes(value, context)
  const out: Array<ElementContent> = []
  let at = 0
  for (const tag of tags) {
    const before = value.slice(at, tag.start)
    at = tag.end
    const name = tag.name.toLowerCase()
    if (tag.closes !== undefined || !inlineBlockTags.has(name)) {
      // Left out with the space that set it off at the end of its line.
      out.push(...withFootnotes(value.slice(at).trim() === "" ? before.trimEnd() : before, context))
      continue
    }
    if (before.trim() !== "") out.push(...withFootnotes(before.trimEnd(), context), text("\n"))
    out.push(...context.tag(name, Syntax.tagAttributes(tag), () => []))
    if (value.slice(at).trim() !== "") out.push(text("\n"))
    at += value.slice(at).length - value.slice(at).trimStart().length
  }
  out.push(...withFootnotes(value.slice(at), context))
  return out
}

const leafOf = (node: PMNode, context: TreeContext, inLink: boolean): Array<Drawn> => {
  switch (node.type.name) {
    case "text": {
      const code = node.marks.find((m) => m.type.name === "code")
      if (code !== undefined) return [element("code", {}, [text((node.text ?? "").replace(/\r?\n|\r/g, " "))])]
      const value = replaceShortcodes(trimLines(node.text ?? ""))
      return inLink ? [text(value)] : withInlineTags(value, context)
    }
    case "hardBreak":
      // `<br>` written as HTML is the element alone; a break of two spaces or a backslash ends its line too.
      return node.attrs["style"] === "html" ? [{ type: "html", value: String(node.attrs["text"] ?? "<br>") }] : [element("br", {}, []), text("\n")]
    case "rawInline":
      return [{ type: "html", value: String(node.attrs["text"] ?? "") }]
    case "inlineMath":
      return [context.math(String(node.attrs["tex"] ?? ""), false)]
    case "image": {
      const title = node.attrs["title"] as string | null
      return [element("img", { src: normalizeUri(String(node.attrs["src"] ?? "")), alt: replaceShortcodes(String(node.attrs["alt"] ?? "")), ...(title === null ? {} : { title }) }, [])]
    }
    default:
      return []
  }
}

/**
 * A run of inline nodes as nested elements: consecutive nodes that share their outermost mark are
 * drawn inside one element of it, as the markdown wrote them.
 */
const inlineRun = (nodes: ReadonlyArray<PMNode>, open: ReadonlyArray<Mark>, context: TreeContext): Array<Drawn> => {
  const out: Array<Drawn> = []
  let i = 0
  while (i < nodes.length) {
    const node = nodes[i]!
    const marks = node.marks.filter((m) => m.type.name !== "code" && !open.some((o) => o.eq(m)))
    if (marks.length === 0) {
      out.push(...leafOf(node, context, open.some((m) => m.type.name === "link")))
      i++
      continue
    }
    // The mark over the most nodes from here is the outer one (`***x***`: emphasis around strong, as CommonMark reads it).
    const reach = (mark: Mark) => {
      let end = i + 1
      while (end < nodes.length && nodes[end]!.marks.some((m) => m.eq(mark))) end++
      return end
    }
    const rank = (mark: Mark) => reach(mark) * 4 + (mark.type.name === "highlight" ? 3 : mark.type.name === "link" ? 2 : mark.type.name === "italic" ? 1 : 0)
    const mark = marks.reduce((best, m) => (rank(m) > rank(best) ? m : best))
    const end = reach(mark)
    const inner = inlineRun(nodes.slice(i, end), [...open, mark], context)
    // GitBook's export of an annotation over words, `[words](#user-content-fn-1)[^1]`: the words annotated, not a link.
    const annotated = mark.type.name === "link" ? /^#user-content-fn-(.+)$/i.exec(String(mark.attrs["href"] ?? ""))?.[1] : undefined
    const after = nodes[end]
    if (annotated !== undefined && after?.isText === true && context.notes.has(annotated.toUpperCase()) && (after.text ?? "").toUpperCase().startsWith(`[^${annotated.toUpperCase()}]`)) {
      out.push(element("span", { className: ["annotated"] }, stitch(inner, context)))
    } else out.push(...markElement(mark, inner, context))
    i = end
  }
  return out
}

const inline = (node: PMNode, context: TreeContext): Array<ElementContent> => stitch(inlineRun(childrenOf(node), [], context), context)

// Footnotes -------------------------------------------------------------------------------------

/**
 * A footnote reference as GitBook's annotation: a button that opens the note in a popover (the
 * browser's: keyboard and Escape included), the note's paragraphs read inline. `number` counts the
 * page's references in order, as GitBook numbers its annotations.
 */
export const footnoteElements = (number: number, note: ReadonlyArray<ElementContent>): Array<ElementContent> => {
  const label = String(number)
  const id = `quire-note-${label}`
  const content = note.map((child): ElementContent =>
    child.type === "element" && child.tagName === "p" ? { ...child, tagName: "span", properties: { className: ["footnote-paragraph"] } } : child)
  return [
    element("sup", { className: ["footnote"] }, [
      element("button", { type: "button", className: ["footnote-ref"], popoverTarget: id, ariaLabel: `Note ${label}`, ariaDescribedBy: [id] }, [text(label)])
    ]),
    element("span", { id, popover: "auto", role: "note", className: ["footnote-popover"] }, content)
  ]
}

const footnoteDefinition = /^\[\^([^\]\s]+)\]:[ \t]*/
const footnoteReference = /\[\^([^\]\s]+)\]/g

const definitionLine = /(?:^|\n)\[\^([^\]\s]+)\]:[ \t]*/g

/**
 * The page's footnote definitions (`[^1]: The note.` paragraphs, several to a paragraph when
 * written on consecutive lines), by label as references match them, each its note's paragraph.
 */
const footnotesOf = (doc: PMNode): Map<string, Footnote> => {
  const notes = new Map<string, Footnote>()
  const children = childrenOf(doc)
  children.forEach((child, index) => {
    const first = child.firstChild
    if (child.type.name !== "paragraph" || first === null || !first.isText || first.marks.length > 0 || !footnoteDefinition.test(first.text ?? "")) return
    // Where each definition's label starts and its note begins, in the paragraph's content.
    const starts: Array<{ readonly label: string; readonly at: number; readonly body: number }> = []
    child.forEach((node, offset) => {
      if (!node.isText || node.marks.length > 0) return
      for (const match of (node.text ?? "").matchAll(definitionLine)) {
        const at = offset + match.index + (match[0].startsWith("\n") ? 1 : 0)
        starts.push({ label: match[1]!.toUpperCase(), at, body: offset + match.index + match[0].length })
      }
    })
    // The last note goes on in the indented blocks after its paragraph (`[^1]: A note.`, a blank line, `    More of it.`).
    const more: Array<PMNode> = []
    for (let k = index + 1; k < children.length && isIndentedCode(children[k]!); k++) more.push(children[k]!)
    starts.forEach((start, i) => {
      const last = i + 1 === starts.length
      const end = last ? child.content.size : starts[i + 1]!.at - 1
      if (!notes.has(start.label)) notes.set(start.label, { paragraph: child.copy(child.content.cut(start.body, Math.max(start.body, end))), more: last ? more : [], definedIn: child })
    })
  })
  return notes
}

/** A footnote's first paragraph, and the indented blocks that go on with it. */
interface Footnote {
  readonly paragraph: PMNode
  readonly more: ReadonlyArray<PMNode>
  /** The page's paragraph that defines it (not drawn where it stands). */
  readonly definedIn: PMNode
}

/** Markdown the codec keeps as indented code: lines indented four columns or more. */
const isIndentedCode = (node: PMNode): boolean => node.type.name === "raw" && indentOf(String(node.attrs["text"] ?? "")) >= 4

/** A footnote's content: its paragraph's words, then its indented blocks read as blocks. */
const noteContent = (note: Footnote, context: TreeContext): Array<ElementContent> => [
  element("p", {}, inline(note.paragraph, context)),
  ...note.more.flatMap((block) => packed(context.parse(String(block.attrs["text"] ?? "").split("\n").map((line) => stripIndent(line, 4)).join("\n")), context))
]

/** Text with its footnote references (to notes the page defines) drawn as annotations. */
const withFootnotes = (value: string, context: TreeContext): Array<ElementContent> => {
  if (context.notes.size === 0 || !value.includes("[^")) return linkified(value)
  const out: Array<ElementContent> = []
  let at = 0
  for (const match of value.matchAll(footnoteReference)) {
    const note = context.notes.get(match[1]!.toUpperCase())
    if (note === undefined) continue
    if (match.index > at) out.push(...linkified(value.slice(at, match.index)))
    out.push(...footnoteElements(++context.footnotes, noteContent(note, context)))
    at = match.index + match[0].length
  }
  if (at < value.length) out.push(...linkified(value.slice(at)))
  return out
}

// Raw HTML ----------------------------------------------------------------------------------------

/** HTML the author wrote, as the site draws it: GitBook's buttons and icons drawn, other buttons as text. */
export const htmlElementOf = (raw: (html: string) => Element, tagName: string, properties: Record<string, unknown>, children: Array<ElementContent>): Element => {
  const { icon, ...rest } = properties
  const svg = typeof icon === "string" ? iconSvg(icon) : undefined
  if (tagName === "i" && typeof icon === "string") {
    // Its text is the icon's name for editors (`:rocket:`), not for readers; an icon outside the
    // free set is the emoji of its name when there is one (`sparkles` ✨), else nothing.
    const emoji = svg === undefined ? emojiOf(icon.replaceAll("-", "_")) : undefined
    return element("span", { className: ["gb-icon"], ariaHidden: "true" }, svg !== undefined ? [raw(svg)] : emoji === undefined ? [] : [text(emoji)])
  }
  const drawn = svg === undefined ? [] : [element("span", { className: ["gb-icon"], ariaHidden: "true" }, [raw(svg)])]
  return element(tagName === "button" ? "span" : tagName, rest as Element["properties"], [...drawn, ...children])
}

/**
 * Raw HTML pieces joined into elements around what lies between them (`<details>`, blocks,
 * `</details>`): a closing tag without its opening one is dropped, an element left open ends with
 * its parent. Structure only: the sanitizer decides what may stay.
 */
const stitch = (drawn: ReadonlyArray<Drawn>, context: TreeContext): Array<ElementContent> => {
  if (!drawn.some((d) => d.type === "html")) return drawn as Array<ElementContent>
  type Open = { readonly name?: string; readonly tagName: string; readonly properties: Record<string, unknown>; readonly children: Array<ElementContent> }
  const base: Open = { tagName: "", properties: {}, children: [] }
  const stack: Array<Open> = [base]
  const close = (to: number) => {
    while (stack.length > to) {
      const open = stack.pop()!
      stack.at(-1)!.children.push(htmlElementOf(context.raw, open.tagName, open.properties, open.children))
    }
  }
  for (const piece of drawn) {
    if (piece.type !== "html") {
      stack.at(-1)!.children.push(piece)
      continue
    }
    for (const token of tokenize(piece.value)) {
      const top = stack.at(-1)!
      switch (token.kind) {
        case "text":
          top.children.push(text(token.value))
          break
        case "open": {
          const properties = { ...propertiesOf(token.attributes), ...gitbookProperties(token) }
          if (token.selfClosing || voidElements.has(token.name)) top.children.push(htmlElementOf(context.raw, token.name, properties, []))
          else stack.push({ name: token.name, tagName: token.name, properties, children: [] })
          break
        }
        case "close": {
          const index = stack.findLastIndex((open) => open.name === token.name)
          if (index > 0) close(index)
          break
        }
      }
    }
  }
  close(1)
  return base.children
}

// Blocks ------------------------------------------------------------------------------------------

/** Elements one to a line, as the site has always written a container's children (`loose`: a line break at both ends too). */
const wrap = (nodes: ReadonlyArray<ElementContent>, loose = false): Array<ElementContent> => {
  const out: Array<ElementContent> = loose ? [text("\n")] : []
  nodes.forEach((node, i) => {
    if (i > 0) out.push(text("\n"))
    out.push(node)
  })
  if (loose && nodes.length > 0) out.push(text("\n"))
  return out
}

const drawChildren = (node: PMNode, context: TreeContext): Array<Drawn> => childrenOf(node).flatMap((child) => drawBlock(child, context))

/** A container's blocks, its raw HTML joined around them. */
const blocks = (node: PMNode, context: TreeContext, loose = false): Array<ElementContent> =>
  wrap(stitch(drawChildren(node, context), context), loose)

/** A GitBook block's blocks (a hint's, a tab's, a step's), side by side as the site draws them. */
const packed = (node: PMNode, context: TreeContext): Array<ElementContent> => stitch(drawChildren(node, context), context)

const drawBlock = (node: PMNode, context: TreeContext): Array<Drawn> => {
  const form = blockForms[node.type.name as BlockName] ?? nested[node.type.name]
  return form === undefined ? [] : form(node, context)
}

const hintLabels: Record<string, string> = { info: "Info", success: "Success", warning: "Warning", danger: "Danger" }

const listItem = (item: PMNode, loose: boolean, context: TreeContext): Element => {
  const results = stitch(drawChildren(item, context), context)
  const properties: Element["properties"] = {}
  if (item.type.name === "taskItem") {
    const head = results[0]
    let paragraph: Element
    if (head !== undefined && head.type === "element" && head.tagName === "p") paragraph = head
    else {
      paragraph = element("p", {}, [])
      results.unshift(paragraph)
    }
    if (paragraph.children.length > 0) paragraph.children.unshift(text(" "))
    paragraph.children.unshift(element("input", { type: "checkbox", checked: item.attrs["checked"] === true, disabled: true }, []))
    properties["className"] = ["task-list-item"]
  }
  const children: Array<ElementContent> = []
  results.forEach((child, index) => {
    const paragraph = child.type === "element" && child.tagName === "p"
    if (loose || index !== 0 || !paragraph) children.push(text("\n"))
    if (paragraph && !loose) children.push(...(child as Element).children)
    else children.push(child)
  })
  const tail = results.at(-1)
  if (tail !== undefined && (loose || tail.type !== "element" || tail.tagName !== "p")) children.push(text("\n"))
  return element("li", properties, children)
}

/** An item with a blank line between two of its blocks (its paragraphs are drawn as paragraphs). */
const spread = (item: PMNode): boolean => childrenOf(item).slice(0, -1).some((child) => /\n[ \t]*\n$/.test(String(child.attrs["source"] ?? "")))

const list = (node: PMNode, context: TreeContext): Array<Drawn> => {
  const loose = node.attrs["tight"] === false || childrenOf(node).some(spread)
  const items = childrenOf(node).map((item) => listItem(item, loose, context))
  if (node.type.name === "orderedList") {
    const start = node.attrs["start"] as number | null
    return [element("ol", typeof start === "number" && start !== 1 ? { start } : {}, wrap(items, true))]
  }
  return [element("ul", node.type.name === "taskList" ? { className: ["contains-task-list"] } : {}, wrap(items, true))]
}

/** A heading's words as its id is made of: its text, code and image descriptions, no HTML. */
const headingText = (nodes: ReadonlyArray<PMNode>): string =>
  nodes.map((child) => (child.type.name === "text" ? child.text ?? "" : child.type.name === "image" ? String(child.attrs["alt"] ?? "") : "")).join("").replace(/\s+/g, " ").trim()

/** GitBook's empty anchor ending a heading (`## Title <a href="#x" id="x"></a>`): the nodes before it, and the id it gives. */
const withoutAnchor = (nodes: ReadonlyArray<PMNode>): { readonly nodes: ReadonlyArray<PMNode>; readonly id?: string } => {
  const [open, close] = nodes.slice(-2)
  if (open?.type.name !== "rawInline" || close?.type.name !== "rawInline" || !/^<\/a\s*>$/i.test(String(close.attrs["text"]))) return { nodes }
  const id = gitbookAnchorId(`${String(open.attrs["text"])}</a>`)
  const kept = nodes.slice(0, -2)
  const last = kept.at(-1)
  const trimmed = last?.type.name === "text" && last.marks.length === 0 ? [...kept.slice(0, -1), ...((last.text ?? "").trimEnd() === "" ? [] : [last.type.schema.text((last.text ?? "").trimEnd())])] : kept
  return id === undefined ? { nodes: trimmed } : { nodes: trimmed, id }
}

const heading = (node: PMNode, context: TreeContext): Array<Drawn> => {
  const level = Number(node.attrs["level"] ?? 1)
  const { nodes, id: written } = withoutAnchor(childrenOf(node))
  const explicit = written ?? ((node.attrs["anchor"] as string | null) ?? undefined)
  const anchors = headingAnchors(headingText(nodes), context.slugger, explicit)
  context.taken.add(anchors.id)
  if (anchors.legacy !== undefined) context.taken.add(anchors.legacy)
  const children: Array<ElementContent> = stitch(inlineRun(nodes, [], context), context)
  if (anchors.legacy !== undefined) children.unshift(element("span", { id: anchors.legacy, className: ["legacy-anchor"] }, []))
  children.push(text(" "), element("a", { href: `#${anchors.id}`, className: ["heading-anchor"], ariaLabel: "Link to this section" }, [text("#")]))
  return [element(`h${level}`, { id: anchors.id }, children)]
}

const table = (node: PMNode, context: TreeContext): Array<Drawn> => {
  const rows = childrenOf(node)
  const aligns = (node.attrs["delimiters"] as ReadonlyArray<string> | null ?? []).map((d) =>
    d.startsWith(":") && d.endsWith(":") ? "center" : d.endsWith(":") ? "right" : d.startsWith(":") ? "left" : undefined)
  const row = (r: PMNode, header: boolean) =>
    element("tr", {}, wrap(childrenOf(r).map((cell, i) => {
      const align = aligns[i]
      const paragraph = cell.firstChild
      return element(header ? "th" : "td", align === undefined ? {} : { align }, paragraph === null ? [] : inline(paragraph, context))
    }), true))
  const [head, ...body] = rows
  const parts: Array<ElementContent> = []
  if (head !== undefined) parts.push(element("thead", {}, wrap([row(head, true)], true)))
  if (body.length > 0) parts.push(element("tbody", {}, wrap(body.map((r) => row(r, false)), true)))
  return [element("table", {}, wrap(parts, true))]
}

const containerTag = (name: string) => (node: PMNode, context: TreeContext): Array<Drawn> =>
  [element("div", { className: [name] }, packed(node, context))]

const tagNames: Readonly<Record<string, string>> = { embed: "embed", contentRef: "content-ref", file: "file", openapiOperation: "openapi-operation" }

/** A tag block drawn by the site: its name as written, its parameters, its body. */
const tagOf = (node: PMNode, context: TreeContext): Array<Drawn> => {
  const params = (node.attrs["params"] as ReadonlyArray<{ readonly key: string | null; readonly value: string }> | null) ?? []
  const attributes: Record<string, string> = {}
  for (const p of params) if (p.key !== null) attributes[p.key] = p.value
  return context.tag(tagNames[node.type.name] ?? node.type.name, attributes, () => bodyBlocks(node, context))
}

/** What a tag block holds between its tags (an embed's caption, a content reference's link), as blocks. */
const bodyBlocks = (node: PMNode, context: TreeContext): Array<ElementContent> => {
  const body = node.attrs["body"] as string | null
  if (body === null || body.trim() === "") return []
  return blocks(context.parse(body), context)
}

/**
 * A GitBook tag the codec keeps as raw text (`{% updates %}`, `{% prompt %}`, `{% if %}`,
 * `{% swagger %}`, `{% openapi %}`, integrations): its tags on lines of their own, paired by name,
 * around the markdown between, which is read as blocks. A closing tag without its opening one is
 * dropped, one without its closing one holds nothing.
 */
export interface TagBlock {
  readonly type: "tag"
  readonly name: string
  readonly attributes: Readonly<Record<string, string>>
  /** The opening tag as written (`{% if visitor.claims.beta %}`: its condition follows the name). */
  readonly source: string
  readonly children: ReadonlyArray<TagChild>
}

/** Blocks between tags: their tree, and each code block's language and text (what a form reads of it). */
export type TagChild = TagBlock | { readonly type: "blocks"; readonly draw: () => Array<ElementContent>; readonly text: string; readonly code?: { readonly lang: string | null; readonly value: string } }

/** The tags the codec reads as blocks of its own (see the registry). */
const codecTags: ReadonlySet<string> = new Set(["hint", "tabs", "tab", "code", "stepper", "step", "columns", "column", "content-ref", "embed", "file", "openapi-operation", "include"])

const tagChildren = (lines: ReadonlyArray<string>, context: TreeContext, raw = false): Array<TagChild> => {
  const out: Array<TagChild> = []
  let pending: Array<string> = []
  const flush = () => {
    if (pending.join("").trim() !== "") {
      // Runs of blocks drawn together (raw HTML joins across them: `<details>` … `</details>`); each code block alone, as forms read it.
      let run: Array<PMNode> = []
      const drawRun = () => {
        if (run.length === 0) return
        const doc = run[0]!.type.schema.topNodeType.create(null, run)
        out.push({ type: "blocks", draw: () => blocks(doc, context), text: doc.textBetween(0, doc.content.size, "\n\n") })
        run = []
      }
      context.parse(pending.join("\n") + "\n").forEach((child) => {
        if (child.type.name !== "codeBlock") {
          run.push(child)
          return
        }
        drawRun()
        const language = String(child.attrs["language"] ?? "").trim().split(/\s+/)[0] ?? ""
        const doc = child.type.schema.topNodeType.create(null, child)
        out.push({ type: "blocks", draw: () => blocks(doc, context), text: child.textContent, code: { lang: language === "" ? null : language, value: child.textContent } })
      })
      drawRun()
    }
    pending = []
  }
  for (let i = 0; i < lines.length; i++) {
    const tag = Syntax.readTag(lines[i]!.trim())
    // The codec's own tags stay in the markdown it reads (a hint inside `<details>` inside an update),
    // but for the tag a raw block starts with: the codec has read it already and left it raw.
    if (tag === undefined || (codecTags.has((tag.closes ?? tag.name).toLowerCase()) && !(raw && i === 0))) {
      pending.push(lines[i]!)
      continue
    }
    flush()
    if (tag.closes !== undefined) continue
    const name = tag.name.toLowerCase()
    let depth = 0
    let close = -1
    for (let j = i + 1; j < lines.length && close === -1; j++) {
      const other = Syntax.readTag(lines[j]!.trim())
      if (other?.name.toLowerCase() === name) depth++
      else if (other?.closes?.toLowerCase() === name) {
        if (depth === 0) close = j
        else depth--
      }
    }
    out.push({ type: "tag", name, attributes: Syntax.tagAttributes(tag), source: tag.source, children: close === -1 ? [] : tagChildren(lines.slice(i + 1, close), context) })
    if (close !== -1) i = close
  }
  flush()
  return out
}

/** The forms of the nodes only a block holds (list items, tabs' tab): drawn by their block. */
const nested: Readonly<Record<string, BlockForm>> = {
  tab: containerTag("tab"),
  step: containerTag("step"),
  column: containerTag("column")
}

/** Every block's HTML form: a name of the registry without one is a type error. */
const blockForms: { readonly [K in BlockName]: BlockForm } = {
  paragraph: (node, context) => {
    if (context.definitions.has(node)) return []
    // A formula alone in its paragraph is shown as a block.
    const shown = childrenOf(node).filter((child) => !(child.type.name === "text" && (child.text ?? "").trim() === ""))
    if (shown.length === 1 && shown[0]!.type.name === "inlineMath") return [context.math(String(shown[0]!.attrs["tex"] ?? ""), true)]
    return [element("p", {}, inline(node, context))]
  },
  heading,
  bulletList: list,
  orderedList: list,
  taskList: list,
  blockquote: (node, context) => [element("blockquote", {}, blocks(node, context, true))],
  table,
  codeBlock: (node, context) => {
    const language = String(node.attrs["language"] ?? "").trim().split(/\s+/)[0] ?? ""
    const code = context.code(node.textContent, language === "" ? null : language)
    if (node.attrs["wrapper"] === null) return [code]
    // `{% code title="x.js" overflow="wrap" lineNumbers="true" %}` around the fence.
    const className = ["code-block"]
    if (paramOf(node, "overflow") === "wrap") className.push("code-wrap")
    if (paramOf(node, "lineNumbers") === "true") className.push("line-numbers")
    const title = paramOf(node, "title")
    return [element("div", { className }, [...(title === undefined || title === "" ? [] : [element("div", { className: ["code-title"] }, [text(title)])]), code])]
  },
  mathBlock: (node, context) => [context.math(node.textContent, true)],
  figure: (node) => {
    const img = (node.attrs["img"] as ReadonlyArray<{ readonly name: string; readonly value: string | null }> | null) ?? []
    const attributes = img.map((a) => `${a.name}${a.value === null ? "" : `="${a.value.replace(/"/g, "&quot;")}"`}`).join(" ")
    const caption = node.attrs["caption"] as string | null
    return [{ type: "html", value: `<figure><img ${attributes}>${caption === null ? "" : `<figcaption>${caption}</figcaption>`}</figure>` }]
  },
  horizontalRule: () => [element("hr", {}, [])],
  hint: (node, context) => {
    const requested = paramOf(node, "style") ?? ""
    const style = Object.hasOwn(hintLabels, requested) ? requested : "info"
    return [element("div", { className: ["hint", `hint-${style}`], role: "note", ariaLabel: hintLabels[style]! }, packed(node, context))]
  },
  tabs: (node, context) => {
    const group = `quire-tabs-${++context.tabs}`
    const children: Array<ElementContent> = []
    // GitBook's id of a tab is its title's, so a link to `page#title` selects it (blocks.js).
    if (node.childCount > 0) context.needScript()
    childrenOf(node).forEach((tab, index) => {
      const title = paramOf(tab, "title") ?? `Tab ${index + 1}`
      const slug = gitbookSlug(title.replace(/\s+/g, " ").trim())
      const id = takeFreeId(slug === "" ? `${group}-${index + 1}` : slug, context.taken)
      children.push(
        element("input", { type: "radio", name: group, id, className: ["tab-input"], checked: index === 0 }, []),
        element("label", { htmlFor: [id], className: ["tab-label"] }, [text(title)]),
        element("div", { className: ["tab-panel"], role: "group", ariaLabel: title }, packed(tab, context))
      )
    })
    return [element("div", { className: ["tabs"] }, children)]
  },
  stepper: (node, context) => [element("ol", { className: ["stepper"] }, childrenOf(node).map((step) => element("li", { className: ["step"] }, packed(step, context))))],
  columns: (node, context) => [element("div", { className: ["columns"] }, childrenOf(node).map((column) => element("div", { className: ["column"] }, packed(column, context))))],
  expandable: (node, context) => {
    const summary = String(node.attrs["summary"] ?? "")
    return [{ type: "html", value: String(node.attrs["openTag"] ?? "<details>") }, { type: "html", value: `<summary>${summary}</summary>` }, ...drawChildren(node, context), { type: "html", value: String(node.attrs["endTag"] ?? "</details>") }]
  },
  // GitBook's card grid (`<table data-view="cards">`): a card a row, its cover on top (Cards.ts).
  cards: (node, context) => cardGrid(String(node.attrs["source"] ?? "").trim(), { ...(context.links ?? linksAsWritten), html: (value) => stitch([{ type: "html", value }], context) }),
  embed: (node, context) => tagOf(node, context),
  contentRef: (node, context) => tagOf(node, context),
  file: (node, context) => tagOf(node, context),
  openapiOperation: (node, context) => tagOf(node, context),
  include: () => [],
  frontmatter: () => [],
  raw: (node, context) => {
    if (context.definitions.has(node)) return []
    const value = String(node.attrs["text"] ?? "")
    // Indented code: its lines less four columns, as code without a language.
    if (indentOf(value) >= 4) return [context.code(value.split("\n").map((line) => stripIndent(line, 4)).join("\n").replace(/\n+$/, ""), null)]
    // A tag written over several lines (`{% @mermaid/diagram content="graph TD` …): the tag, and what it holds up to its end tag.
    const first = value.trimStart().startsWith("{%") ? Syntax.tagsIn(value)[0] : undefined
    if (first !== undefined && first.source.includes("\n") && value.slice(0, first.start).trim() === "") {
      const name = first.name.toLowerCase()
      const after = value.slice(first.end).split("\n").slice(1)
      const close = after.findLastIndex((line) => Syntax.readTag(line.trim())?.closes?.toLowerCase() === name)
      const children = close < 0 ? [] : tagChildren(after.slice(0, close), context)
      return context.rawTag({ type: "tag", name, attributes: Syntax.tagAttributes(first), source: first.source, children })
    }
    // Not a tag alone on its first line (`{% broken`): its text, as the codec kept it (read again, it would be raw again).
    if (Syntax.readTag((value.split("\n")[0] ?? "").trim()) === undefined) return [{ type: "html", value }]
    return tagChildren(value.split("\n"), context, true).flatMap((child) => (child.type === "tag" ? context.rawTag(child) : child.draw()))
  }
}

/** The page codec, made once: its schema and grammar are the same for every page. */
const pageCodec = createMarkdownCodec(createSchema())

/** The page's block tree as the site's hast, before its passes (links, sanitizer). */
export const treeHast = (markdown: string, context: Omit<TreeContext, "parse" | "slugger" | "tabs" | "notes" | "definitions" | "footnotes">): HastRoot => {
  const doc = pageCodec.parse(markdown)
  const notes = footnotesOf(doc)
  const definitions = new Set<PMNode>()
  for (const note of notes.values()) {
    definitions.add(note.definedIn)
    for (const block of note.more) definitions.add(block)
  }
  const full: TreeContext = { ...context, parse: (body) => pageCodec.parse(body), slugger: headingSlugger(), tabs: 0, notes, definitions, footnotes: 0 }
  return { type: "root", children: blocks(doc, full) }
}
