/**
 * GitBook's JSON document written as the GitBook markdown Git sync writes: each block through the
 * editor's codec of `@quire/document` (the grammar `JsonDocument.ts` reads with). Given the page's
 * current markdown, a block that reads the same as one of it is written as that block's text, so a
 * document read and written back with one block changed changes only that block's lines.
 */
import type { ContentRef } from "../domain/Revision.ts"
import { type DocumentRef, type Fragment, htmlMarkTags, type Inline, type JsonBlock, type JsonDocument, type Leaf, type Mark, markAttrs, pageCodec, type PageNode, type Text } from "./GitbookModel.ts"
import { blocksHtmlOf, buttonHtml, escapeAttribute, escapeHtml, htmlAlign, inlineHtmlOf, inlineImageHtml, tableHtmlOf } from "./GitbookHtml.ts"
import { defaultIncludes, defaultRefs, footnoteFragment, type FootnoteDefinition, FOOTNOTES, type IncludeResolver, pageBlocks, plainPage, type RefResolver, resolvedBlocks } from "./JsonDocument.ts"

/** The URL a reference is written as (a page's relative path, a file's). */
export type RefWriter = (ref: DocumentRef) => string

/** URLs as they are, files as `/files/<id>`, pages as `/pages/<id>`, anchors as `#anchor`, reusable contents as `/reusable-content/<id>`. */
export const defaultWriter: RefWriter = (ref) => {
  switch (ref.kind) {
    case "url":
      return ref.url
    case "file":
      return `/files/${encodeURIComponent(ref.file)}`
    case "page":
      return `/pages/${encodeURIComponent(ref.page)}${ref.anchor === undefined ? "" : `#${ref.anchor}`}`
    case "anchor":
      return `${ref.page === undefined ? "" : `/pages/${encodeURIComponent(ref.page)}`}#${ref.anchor}`
    case "openapi":
      return ref.spec
    case "reusable-content":
      return `/reusable-content/${ref.reusableContent}`
  }
}

/** The page's current markdown and how its references resolve, so that unchanged blocks keep their text. */
export interface BaseMarkdown {
  readonly markdown: string
  readonly refs?: RefResolver
  readonly includes?: IncludeResolver
}

export interface WriteOptions {
  readonly refs?: RefWriter
  /** The page's markdown before: its frontmatter is kept, and blocks that read the same keep their text. */
  readonly base?: BaseMarkdown
}

type Attrs = Record<string, unknown>
type PMMark = PageNode["marks"][number]
const dq = (key: string | null, value: string) => ({ key, value, quote: "\"" as const })

const TABLE_KEYS = new Set(["view", "records", "definition"])
const VIEW_KEYS = new Set(["type", "columns", "hideHeader"])
const COLUMN_KEYS = new Set(["id", "title", "type", "textAlignment"])

/**
 * Whether a grid table is one a markdown table holds: every column shown, of text, with no width
 * or vertical alignment, a header, and each cell one paragraph; else it is written as GitBook's
 * HTML table (`tableHtmlOf`).
 */
const markdownHolds = (block: JsonBlock): boolean => {
  const data = block.data ?? {}
  const view = (data["view"] ?? {}) as Attrs
  const definition = (data["definition"] ?? {}) as Record<string, Attrs>
  const ids = Object.keys(definition)
  const columns = (view["columns"] as ReadonlyArray<string> | undefined) ?? ids
  if (Object.keys(data).some((key) => !TABLE_KEYS.has(key)) || Object.keys(view).some((key) => !VIEW_KEYS.has(key)) || view["hideHeader"] === true) return false
  if (columns.length !== ids.length || ids.some((id) => !columns.includes(id))) return false
  if (ids.some((id) => definition[id]!["type"] !== "text" || Object.keys(definition[id]!).some((key) => !COLUMN_KEYS.has(key)))) return false
  // (Code over several lines has no markdown form in a cell: a code span is one line.)
  const codeLines = (nodes: ReadonlyArray<JsonBlock | Text | Inline>): boolean =>
    nodes.some((node) => node.object === "text" ? node.leaves.some((leaf) => leaf.text.includes("\n") && leaf.marks.some((m) => m.type === "code")) : codeLines(node.nodes ?? []))
  return (block.fragments ?? []).every((f) => f.nodes.length === 1 && f.nodes[0]!.type === "paragraph" && htmlAlign(f.nodes[0]!.data?.["align"]) === undefined && !codeLines(f.nodes))
}

/** Text outside code and links, whose space at a block's end is written `&#x20;` (a link's brackets keep a space inside them). */
const bare = (node: PageNode) => !node.marks.some((m) => m.type.name === "code" || m.type.name === "link")

/**
 * A block's identity for reuse: its JSON without GitBook's node keys, heading ids and annotations'
 * bodies (which depend on the page: a footnote's definition is elsewhere on it, and written apart).
 */
const sameness = (block: JsonBlock): string =>
  JSON.stringify(block, function(this: Record<string, unknown>, key, value: unknown) {
    return key === "key" || key === "meta" || key === "explicitId" || (key === "nodes" && this["type"] === "annotation-body") ? undefined : value
  })

/** The identity of a run of blocks from each one's `sameness`. */
const runKey = (identities: ReadonlyArray<string>): string => `${identities.length}:${identities.join("\u0000")}`

const fragment = (block: JsonBlock, name: string): Fragment | undefined => block.fragments?.find((f) => f.fragment === name)

/** An annotation's body: its `annotation-body` fragment. */
const bodyOf = (note: Inline): Fragment | undefined => note.fragments?.find((f) => f.type === "annotation-body") ?? note.fragments?.[0]

/**
 * The annotations of a document in order, each with the label of the footnote it is written as:
 * the one it was read from (its fragment's name), else the next number free.
 */
const footnoteLabels = (nodes: ReadonlyArray<JsonBlock | Text | Inline>): Map<Inline, { readonly label: string; readonly body: ReadonlyArray<JsonBlock> }> => {
  const found: Array<Inline> = []
  const walk = (list: ReadonlyArray<JsonBlock | Text | Inline>) => {
    for (const node of list) {
      if (node.object === "text") continue
      if (node.object === "inline" && node.type === "annotation") found.push(node)
      if (node.nodes !== undefined) walk(node.nodes)
      for (const f of node.fragments ?? []) walk(f.nodes)
    }
  }
  walk(nodes)
  const prefix = footnoteFragment("")
  const named = new Set(found.map((note) => bodyOf(note)?.fragment).filter((name) => name?.startsWith(prefix) === true).map((name) => name!.slice(prefix.length)))
  let next = 0
  const out = new Map<Inline, { label: string; body: ReadonlyArray<JsonBlock> }>()
  for (const note of found) {
    const name = bodyOf(note)?.fragment
    let label = name?.startsWith(prefix) === true ? name.slice(prefix.length) : undefined
    if (label === undefined) {
      do label = String(++next)
      while (named.has(label))
      named.add(label)
    }
    out.set(note, { label, body: bodyOf(note)?.nodes ?? [] })
  }
  return out
}

/** Footnote `label`'s definition of `words` (its first paragraph, then its further blocks after a blank line). */
const definition = (label: string, words: string) => (words.startsWith("\n") ? `[^${label}]:${words}` : `[^${label}]: ${words}`)

/** A tag line with its parameters double-quoted, those without a value left out. */
const tagLine = (name: string, params: ReadonlyArray<readonly [string, string | undefined]>): string =>
  `{% ${[name, ...params.filter(([, v]) => v !== undefined).map(([k, v]) => `${k}="${v}"`)].join(" ")} %}`

/** HTML's `align` of GitBook's text alignment (start, center, end). */


/** Whether a code block's lines carry marks (GitBook's bold lines), which only its HTML form holds. */
const codeHasMarks = (block: JsonBlock): boolean =>
  (block.nodes ?? []).some((line) => line.object === "block" && (line.nodes ?? []).some((node) => node.object === "text" && node.leaves.some((leaf) => leaf.marks.length > 0)))

const CODE_MARK_TAGS: Readonly<Partial<Record<Mark["type"], string>>> = { bold: "strong", italic: "em", strikethrough: "s" }

/** A code block as GitBook's `<pre class="language-…"><code class="lang-…">`, each line ending in a newline. */
const preHtml = (block: JsonBlock): string => {
  const data = block.data ?? {}
  const syntax = typeof data["syntax"] === "string" ? data["syntax"] : ""
  let attrs = syntax === "" ? "" : ` class="language-${syntax}"`
  if (typeof data["title"] === "string") attrs += ` data-title="${escapeAttribute(data["title"])}"`
  if (data["overflow"] === "wrap") attrs += ` data-overflow="wrap"`
  if (data["lineNumbers"] === true) attrs += " data-line-numbers"
  if (data["fullWidth"] === true) attrs += ` data-full-width="true"`
  // A line that ends in a mark ends with its newline inside the mark's tag, as GitBook writes it.
  const lines = (block.nodes ?? []).map((line) => {
    const leaves = line.object !== "block" ? [] : (line.nodes ?? []).flatMap((node) => (node.object === "text" ? node.leaves : []))
    const last = leaves.at(-1)
    const endsMarked = last !== undefined && last.marks.some((m) => CODE_MARK_TAGS[m.type] !== undefined)
    return leaves.map((leaf) =>
      leaf.marks.reduceRight((inner, m) => {
        const tag = CODE_MARK_TAGS[m.type]
        return tag === undefined ? inner : `<${tag}>${inner}</${tag}>`
      }, escapeHtml(leaf.text) + (leaf === last && endsMarked ? "\n" : ""))
    ).join("") + (endsMarked ? "" : "\n")
  })
  return `<pre${attrs}><code${syntax === "" ? "" : ` class="lang-${syntax}"`}>${lines.join("")}</code></pre>`
}

/** Writes a document as markdown. */
// oxlint-disable-next-line max-lines-per-function -- one writer per GitBook block type, sharing the codec and the reference writer
export const documentMarkdown = (document: Pick<JsonDocument, "nodes">, options: WriteOptions = {}): string => {
  const codec = pageCodec()
  const schema = codec.schema
  const write = options.refs ?? defaultWriter
  const footnotes = footnoteLabels(document.nodes)

  // Inline content ------------------------------------------------------------------------------
  const pmMarks = (marks: ReadonlyArray<Mark>) =>
    marks.flatMap((m) => {
      switch (m.type) {
        case "bold":
          return [schema.marks.bold!.create()]
        case "italic":
          // GitBook writes italics with underscores.
          return [schema.marks.italic!.create({ delim: "_" })]
        case "strikethrough":
          return [schema.marks.strike!.create()]
        case "code":
          return [schema.marks.code!.create()]
        case "color":
          return [schema.marks.highlight!.create({ attrs: markAttrs(m.data) })]
        default:
          return []
      }
    })
  const htmlTags = Object.entries(htmlMarkTags)
  const leafNodes = (leaf: Leaf, extra: ReadonlyArray<PMMark> = []): Array<PageNode> => {
    const marks = [...pmMarks(leaf.marks), ...extra]
    const out: Array<PageNode> = []
    const parts = leaf.marks.some((m) => m.type === "code") ? [leaf.text] : leaf.text.split("\n")
    parts.forEach((part, i) => {
      if (i > 0) out.push(schema.nodes.hardBreak!.create())
      if (part !== "") out.push(schema.text(part, marks))
    })
    // Keyboard keys, superscripts and subscripts are inline HTML around the text.
    const tags = htmlTags.filter(([, type]) => leaf.marks.some((m) => m.type === type)).map(([tag]) => tag)
    return tags.length === 0
      ? out
      : [...tags.map((tag) => schema.nodes.rawInline!.create({ text: `<${tag}>` })), ...out, ...tags.toReversed().map((tag) => schema.nodes.rawInline!.create({ text: `</${tag}>` }))]
  }
  const inline = (nodes: ReadonlyArray<Text | Inline | JsonBlock> | undefined, extra: ReadonlyArray<PMMark> = []): Array<PageNode> => {
    const out: Array<PageNode> = []
    for (const node of nodes ?? []) {
      if (node.object === "text") {
        for (const leaf of node.leaves) out.push(...leafNodes(leaf, extra))
        continue
      }
      if (node.object !== "inline") continue
      const data = node.data
      switch (node.type) {
        case "link":
          out.push(...inline(node.nodes, [...extra, schema.marks.link!.create({ href: write(data["ref"] as DocumentRef) })]))
          break
        case "mention": {
          // GitBook names a mentioned page by its file (or folder) name, which the link's target ends with.
          const href = write(data["ref"] as DocumentRef)
          const name = href.split(/[?#]/)[0]!.split("/").filter((segment) => segment !== "").at(-1) ?? href
          out.push(schema.text(name, [...extra, schema.marks.link!.create({ href, title: "mention", titleQuote: "\"" })]))
          break
        }
        case "button":
          out.push(schema.nodes.rawInline!.create({ text: buttonHtml(data, write) }))
          break
        case "inline-image":
          // At the text's height or with a dark variant: GitBook's `<img data-size>` or `<picture>`.
          if (data["refDark"] !== undefined || data["size"] === "line") {
            out.push(schema.nodes.rawInline!.create({ text: inlineImageHtml(data, write) }))
            break
          }
          out.push(schema.nodes.image!.create({ src: write(data["ref"] as DocumentRef), alt: (data["alt"] as string | undefined) ?? "", title: (data["caption"] as string | undefined) ?? null }, null, extra))
          break
        case "inline-math":
          out.push(schema.nodes.inlineMath!.create({ tex: data["formula"] as string }))
          break
        case "icon": {
          const icon = data["icon"] as string
          out.push(schema.nodes.rawInline!.create({ text: `<i class="fa-${icon}">` }), schema.text(`:${icon}:`), schema.nodes.rawInline!.create({ text: "</i>" }))
          break
        }
        case "annotation": {
          // As GitBook writes an annotation: a link to its footnote, then the footnote's reference
          // (its definition is written at the end of the page).
          const label = footnotes.get(node)?.label ?? ""
          out.push(...inline(node.nodes, [...extra, schema.marks.link!.create({ href: `#user-content-fn-${label}` })]), schema.nodes.rawInline!.create({ text: `[^${label}]` }))
          break
        }
        case "emoji":
          out.push(schema.text(String.fromCodePoint(...String(data["code"]).split("-").map((c) => Number.parseInt(c, 16))), extra))
          break
        default:
          out.push(...inline(node.nodes, extra))
      }
    }
    return out
  }
  /** A text block's inline content, a space that starts or ends it written `&#x20;` as GitBook does (a bare one would be dropped). */
  const blockInline = (nodes: ReadonlyArray<Text | Inline | JsonBlock> | undefined): Array<PageNode> => {
    const out = inline(nodes)
    // Line breaks that end the block are `<br>` (markdown's `\` at a block's end is the character).
    for (let i = out.length - 1; i >= 0 && out[i]!.type.name === "hardBreak"; i--) out[i] = schema.nodes.rawInline!.create({ text: "<br>" })
    const first = out[0]
    if (first?.isText === true && (first.text ?? "").startsWith(" ") && bare(first)) {
      const rest = first.text!.slice(1)
      out.splice(0, 1, schema.nodes.rawInline!.create({ text: "&#x20;" }), ...(rest === "" ? [] : [schema.text(rest, first.marks)]))
    }
    const last = out.at(-1)
    if (last?.isText === true && (last.text ?? "").endsWith(" ") && bare(last)) {
      const rest = last.text!.slice(0, -1)
      out.splice(out.length - 1, 1, ...(rest === "" ? [] : [schema.text(rest, last.marks)]), schema.nodes.rawInline!.create({ text: "&#x20;" }))
    }
    return out
  }

  /** Inline content as GitBook writes it inside HTML (a caption, a card). */
  const inlineHtml = (nodes: ReadonlyArray<Text | Inline | JsonBlock> | undefined): string => inlineHtmlOf(nodes, write)
  const paragraphsHtml = (blocks: ReadonlyArray<JsonBlock>): string => blocks.map((b) => `<p>${inlineHtml(b.nodes)}</p>`).join("")
  const inlineMarkdown = (nodes: ReadonlyArray<Text | Inline | JsonBlock> | undefined): string =>
    codec.serialize(schema.nodes.doc!.create(null, [schema.nodes.paragraph!.create(null, inline(nodes))])).replace(/\n$/, "")

  // Blocks --------------------------------------------------------------------------------------
  const text = (node: JsonBlock | Text | Inline): string =>
    node.object === "text" ? node.leaves.map((l) => l.text).join("") : (node.nodes ?? []).map(text).join("")
  const children = (nodes: ReadonlyArray<JsonBlock | Text | Inline> | undefined): Array<PageNode> => {
    const out = separateLists((nodes ?? []).flatMap((n) => (n.object === "block" ? blockNodes(n) : [])))
    return out.length === 0 ? [schema.nodes.paragraph!.create()] : out
  }
  /** Lists one after another with another marker each (`*` then `-`), as GitBook writes them: with the same one they would be one list. */
  const separateLists = (nodes: Array<PageNode>): Array<PageNode> => {
    nodes.forEach((node, i) => {
      const before = nodes[i - 1]
      if (before === undefined || before.type !== node.type) return
      const key = "delimiter" in node.attrs ? "delimiter" : "marker" in node.attrs ? "marker" : undefined
      if (key === undefined || before.attrs[key] !== node.attrs[key]) return
      const other = key === "delimiter" ? (node.attrs[key] === ")" ? "." : ")") : node.attrs[key] === "-" ? "*" : "-"
      nodes[i] = node.type.create({ ...node.attrs, [key]: other }, node.content)
    })
    return nodes
  }
  const rawNode = (raw: string) => schema.nodes.raw!.create({ text: raw })
  const innerMarkdown = (nodes: ReadonlyArray<JsonBlock | Text | Inline> | undefined): string =>
    codec.serialize(schema.nodes.doc!.create(null, children(nodes)))

  /**
   * A list item's blocks with a paragraph followed by a list written without a blank line between
   * them, as GitBook writes nested lists (its text is kept as the paragraph's source slice, which
   * the codec writes as it is once it reads back the same).
   */
  const tightItem = (blocks: Array<PageNode>): Array<PageNode> =>
    blocks.map((block, i) => {
      const next = blocks[i + 1]
      if (block.type.name !== "paragraph" || next === undefined || !next.type.name.endsWith("List")) return block
      const text = codec.serialize(schema.nodes.doc!.create(null, [block]))
      return block.type.create({ ...block.attrs, source: text.endsWith("\n") ? text : `${text}\n` }, block.content)
    })

  /** An embed's or a file's caption fragment as the body of its tag, up to `{% end<tag> %}`. */
  const captionBody = (block: JsonBlock, tag: string): { body?: string; endTag?: string } => {
    const caption = fragment(block, "caption")?.nodes[0]
    const body = caption === undefined ? "" : inlineMarkdown(caption.nodes)
    return body === "" ? {} : { body, endTag: `{% end${tag} %}` }
  }

  const imageNode = (image: JsonBlock): PageNode => {
    const data = image.data ?? {}
    const src = write(data["ref"] as DocumentRef)
    const alt = (data["alt"] as string | undefined) ?? ""
    const width = data["width"] as number | { unit: string; value: number } | undefined
    const caption = fragment(image, "caption")
    // As HTML's attributes: `&` and `"` as references (GitBook's `&#x26;`), which the figure's read decodes.
    const img = [{ name: "src", value: escapeAttribute(src), quote: "\"" }, { name: "alt", value: escapeAttribute(alt), quote: "\"" }]
    if (width !== undefined) img.push({ name: "width", value: typeof width === "number" ? String(width) : `${width.value}${width.unit}`, quote: "\"" })
    const captionHtml = caption === undefined ? "" : paragraphsHtml(caption.nodes)
    // With an image for dark mode: GitBook's `<picture>` in the figure.
    if (data["refDark"] !== undefined) {
      const source = `<source srcset="${escapeAttribute(write(data["refDark"] as DocumentRef))}" media="(prefers-color-scheme: dark)">`
      return rawNode(`<figure><picture>${source}<img${img.map((a) => ` ${a.name}="${a.value}"`).join("")}></picture><figcaption>${captionHtml}</figcaption></figure>`)
    }
    return schema.nodes.figure!.create({ img, caption: captionHtml })
  }

  const tableNode = (block: JsonBlock): PageNode => {
    const data = block.data ?? {}
    const view = data["view"] as Attrs
    const definition = data["definition"] as Record<string, Attrs>
    const records = Object.values(data["records"] as Record<string, { orderIndex: string; values: Attrs }>).toSorted((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0))
    const fragmentNodes = (id: unknown): ReadonlyArray<JsonBlock> => (typeof id === "string" ? block.fragments?.find((f) => f.fragment === id)?.nodes ?? [] : [])
    if (view["type"] === "cards") {
      const visible = new Set(view["columns"] as ReadonlyArray<string>)
      const ids = Object.keys(definition)
      const columns = ids.map((id) => {
        const def = definition[id]!
        let attrs = visible.has(id) ? "" : " data-hidden"
        if (view["targetDefinition"] === id) attrs += " data-card-target"
        if (view["coverDefinition"] === id) attrs += " data-card-cover"
        if (view["coverDefinitionDark"] === id) attrs += " data-card-cover-dark"
        if (def["type"] === "select") {
          // GitBook's tags column: its options in the header's `<select>`, no title.
          const options = (def["options"] as ReadonlyArray<{ readonly value: string; readonly label: string; readonly color: string }> | undefined) ?? []
          const html = options.map((o) => `<option value="${escapeAttribute(o.value)}" label="${escapeAttribute(o.label)}" color="${escapeAttribute(o.color)}"></option>`).join("")
          return { attrs, label: `<select${def["multiple"] === true ? " multiple" : ""}>${html}</select>` }
        }
        if (def["type"] !== "text") attrs += ` data-type="${def["type"] as string}"`
        return { attrs, label: def["title"] as string }
      })
      const rows = records.map((record) =>
        ids.map((id) => {
          const value = record.values[id]
          const type = definition[id]!["type"]
          if (type === "content-ref" && typeof value === "object" && value !== null && !Array.isArray(value)) {
            const href = write(value as DocumentRef)
            return `<a href="${href}">${href}</a>`
          }
          if (type === "files" && Array.isArray(value)) {
            return value.map((file) => {
              const href = write({ kind: "file", file: String(file) } as ContentRef)
              return `<a href="${href}">${String(file)}</a>`
            }).join("")
          }
          if (type === "files" && typeof value === "object" && value !== null) {
            const ref = ("ref" in value ? value.ref : value) as DocumentRef
            const href = write(ref)
            return `<a href="${href}">${href.split("/").at(-1) ?? href}</a>`
          }
          // An image (a card's cover) as GitBook writes it: a link to the image named by its file name.
          if (type === "image" && typeof value === "object" && value !== null && !Array.isArray(value)) {
            const href = write(("ref" in value ? value.ref : value) as DocumentRef)
            return `<a href="${href}">${href.split(/[?#]/)[0]!.split("/").at(-1) ?? href}</a>`
          }
          if (type === "select") {
            // Each option the card shows by its label, the ones before the last followed by a comma, as GitBook writes them.
            const options = (definition[id]!["options"] as ReadonlyArray<{ readonly value: string; readonly label: string }> | undefined) ?? []
            const chosen = Array.isArray(value) ? value.map(String) : []
            return chosen.map((option, i) => `<span data-option="${escapeAttribute(option)}">${escapeHtml(options.find((o) => o.value === option)?.label ?? option)}${i < chosen.length - 1 ? ", " : ""}</span>`).join("")
          }
          if (type === "content-ref" || type === "files" || type === "image") return typeof value === "string" ? value : ""
          const nodes = fragmentNodes(value)
          return blocksHtmlOf(nodes, write)
        })
      )
      let tableAttrs = " data-view=\"cards\""
      if (view["cardSize"] === "large") tableAttrs += " data-card-size=\"large\""
      if (view["hideColumnTitle"] === true) tableAttrs += " data-column-title-hidden"
      if (typeof data["fullWidth"] === "boolean") tableAttrs += ` data-full-width="${String(data["fullWidth"])}"`
      return schema.nodes.cards!.create({ tableAttrs, columns, rows })
    }
    if (!markdownHolds(block)) return rawNode(tableHtmlOf(block, write))
    const ids = (view["columns"] as ReadonlyArray<string> | undefined) ?? Object.keys(definition)
    // A line break in a cell is `<br>`: a markdown one would end the row.
    const cellInline = (nodes: ReadonlyArray<JsonBlock>) =>
      blockInline(nodes.flatMap((n) => n.nodes ?? [])).map((node) => (node.type.name === "hardBreak" ? schema.nodes.rawInline!.create({ text: "<br>" }) : node))
    const cell = (type: "tableHeader" | "tableCell", nodes: ReadonlyArray<JsonBlock>, fallback: string) =>
      schema.nodes[type]!.create(null, schema.nodes.paragraph!.create(null, nodes.length === 0 ? (fallback === "" ? [] : [schema.text(fallback)]) : cellInline(nodes)))
    const header = schema.nodes.tableRow!.create(null, ids.map((id) => cell("tableHeader", fragmentNodes(`h${id}`), (definition[id]?.["title"] as string | undefined) ?? "")))
    const rows = records.map((record) => schema.nodes.tableRow!.create(null, ids.map((id) => cell("tableCell", fragmentNodes(record.values[id]), ""))))
    const delimiters = ids.map((id) => {
      const align = definition[id]?.["textAlignment"]
      return align === "center" ? ":-:" : align === "right" ? "-:" : "-"
    })
    return padded(schema.nodes.table!.create({ delimiters, pipes: true }, [header, ...rows]))
  }

  /** A table with its columns padded to their widest cell, as GitBook writes tables (each row's `line`). */
  const padded = (table: PageNode): PageNode => {
    const lines = codec.serialize(schema.nodes.doc!.create(null, [table])).split("\n").filter((line) => line !== "")
    if (lines.length !== table.childCount + 1) return table
    const cells = lines.map((line) => line.slice(2, -2).split(/(?<!\\) \| /))
    const widths = cells[0]!.map((_, k) => Math.max(1, ...cells.map((row, r) => (r === 1 ? 1 : row[k]?.length ?? 0))))
    if (cells.some((row) => row.length !== widths.length)) return table
    const delimiters = table.attrs.delimiters as ReadonlyArray<string>
    const delimiterRow = `| ${widths.map((w, k) => {
      const d = delimiters[k] ?? "-"
      return d.startsWith(":") && d.endsWith(":") ? `:${"-".repeat(Math.max(1, w - 2))}:` : d.endsWith(":") ? `${"-".repeat(Math.max(1, w - 1))}:` : "-".repeat(w)
    }).join(" | ")} |`
    const rows: Array<PageNode> = []
    table.forEach((row, _offset, index) => {
      const line = `| ${cells[index === 0 ? 0 : index + 1]!.map((cell, k) => cell.padEnd(widths[k]!)).join(" | ")} |`
      rows.push(row.type.create({ ...row.attrs, line }, row.content))
    })
    return table.type.create({ ...table.attrs, delimiterRow }, rows)
  }

  /** An aligned paragraph or heading: GitBook's `<p align>` or `<hN align>` (HTML's left, center, right). */
  const alignedNode = (block: JsonBlock): PageNode => {
    const tag = block.type === "paragraph" ? "p" : `h${Number(block.type.slice(-1)) + 1}`
    return rawNode(`<${tag} align="${htmlAlign(block.data?.["align"])!}">${inlineHtml(block.nodes)}</${tag}>`)
  }

  /**
   * GitBook writes each image of a block as a `<figure>`, with or without a caption; one aligned,
   * framed or of a set width inside a `<div>` that says so, and several side by side in one `<div>`.
   */
  const imagesNodes = (block: JsonBlock): Array<PageNode> => {
    const data = block.data ?? {}
    const figures = (block.nodes ?? []).filter((n): n is JsonBlock => n.object === "block").map(imageNode)
    const attrs = [
      ...(typeof data["align"] === "string" ? [` align="${data["align"]}"`] : []),
      ...(data["withFrame"] === true ? [" data-with-frame=\"true\""] : []),
      ...(typeof data["fullWidth"] === "boolean" ? [` data-full-width="${String(data["fullWidth"])}"`] : [])
    ]
    if (attrs.length === 0 && figures.length < 2) return figures
    const html = figures.map((figure) => codec.serialize(schema.nodes.doc!.create(null, [figure])).trimEnd()).join(" ")
    return [rawNode(`<div${attrs.join("")}>${html}</div>`)]
  }

  /** A prompt (`{% prompt %}` around its code block) or a changelog (`{% updates %}`, its updates a blank line apart), as GitBook writes them. */
  const tagBlockMarkdown = (block: JsonBlock): string => {
    const data = block.data ?? {}
    if (block.type === "prompt") {
      const open = typeof data["openInAIProviders"] === "boolean" ? String(data["openInAIProviders"]) : undefined
      const line = tagLine("prompt", [["description", data["description"] as string | undefined], ["icon", data["icon"] as string | undefined], ["openInAIProviders", open], ["defaultExpanded", data["defaultExpanded"] as string | undefined]])
      return `${line}\n${innerMarkdown(block.nodes)}{% endprompt %}`
    }
    const updates = (block.nodes ?? []).flatMap((update) =>
      update.object === "block" ? [`${tagLine("update", [["date", update.data?.["date"] as string | undefined]])}\n${innerMarkdown(update.nodes)}{% endupdate %}`] : []
    )
    return `${tagLine("updates", [["format", (data["format"] as string | undefined) ?? "full"]])}\n${updates.join("\n\n")}\n{% endupdates %}`
  }

  const blockNodes = (block: JsonBlock): Array<PageNode> => {
    const data = block.data ?? {}
    switch (block.type) {
      case "paragraph":
        return htmlAlign(data["align"]) !== undefined ? [alignedNode(block)] : [schema.nodes.paragraph!.create(null, blockInline(block.nodes))]
      case "heading-1":
      case "heading-2":
      case "heading-3": {
        if (htmlAlign(data["align"]) !== undefined) return [alignedNode(block)]
        const explicit = data["id"] as string | undefined
        // GitBook writes its heading-1, 2 and 3 as `##`, `###` and `####` (see `headingType`).
        return [schema.nodes.heading!.create({ level: Number(block.type.slice(-1)) + 1, anchor: explicit ?? null }, blockInline(block.nodes))]
      }
      case "list-unordered":
      case "list-ordered":
      case "list-tasks": {
        const tasks = block.type === "list-tasks"
        const items = (block.nodes ?? []).flatMap((item) =>
          item.object === "block"
            ? [tasks
              ? schema.nodes.taskItem!.create({ checked: item.data?.["checked"] === true }, tightItem(children(item.nodes)))
              : schema.nodes.listItem!.create(null, tightItem(children(item.nodes)))]
            : []
        )
        // GitBook writes bullets and tasks with `*`.
        if (tasks) return [schema.nodes.taskList!.create({ marker: "*" }, items)]
        if (block.type === "list-ordered") return [schema.nodes.orderedList!.create({ start: (data["start"] as number | undefined) ?? 1 }, items)]
        return [schema.nodes.bulletList!.create({ marker: "*" }, items)]
      }
      case "list-item":
        return children(block.nodes)
      case "blockquote":
        return [schema.nodes.blockquote!.create(null, children(block.nodes))]
      case "code": {
        // Lines with marks (bold) are GitBook's `<pre><code>`, the marks as HTML.
        if (codeHasMarks(block)) return [rawNode(preHtml(block))]
        const body = (block.nodes ?? []).map(text).join("\n")
        const params: Array<ReturnType<typeof dq>> = []
        if (typeof data["title"] === "string") params.push(dq("title", data["title"]))
        if (data["overflow"] === "wrap") params.push(dq("overflow", "wrap"))
        for (const flag of ["lineNumbers", "fullWidth", "expandable"]) if (typeof data[flag] === "boolean") params.push(dq(flag, String(data[flag])))
        return [schema.nodes.codeBlock!.create(
          { language: (data["syntax"] as string | undefined) ?? "", wrapper: params.length === 0 ? null : params },
          body === "" ? null : schema.text(body)
        )]
      }
      case "math": {
        const formula = (data["formula"] as string | undefined) ?? ""
        return [schema.nodes.mathBlock!.create(null, formula === "" ? null : schema.text(formula))]
      }
      case "images":
        return imagesNodes(block)
      case "image":
        return blockNodes({ object: "block", type: "images", data: {}, nodes: [block] })
      case "divider":
        return [schema.nodes.horizontalRule!.create({ marker: "***" })]
      case "hint": {
        const params = [dq("style", (data["style"] as string | undefined) ?? "info")]
        if (typeof data["icon"] === "string" && data["icon"] !== "") params.push(dq("icon", data["icon"]))
        return [schema.nodes.hint!.create({ params }, children(block.nodes))]
      }
      case "tabs":
      case "stepper":
      case "columns": {
        const childType = block.type === "tabs" ? "tab" : block.type === "stepper" ? "step" : "column"
        const items = (block.nodes ?? []).flatMap((item, index) => {
          if (item.object !== "block") return []
          const d = item.data ?? {}
          const params: Array<ReturnType<typeof dq>> = []
          if (block.type === "tabs") params.push(dq("title", (d["title"] as string | undefined) ?? ""))
          if (block.type === "columns") {
            const width = d["width"] as number | { unit: string; value: number } | undefined
            if (width !== undefined) params.push(dq("width", typeof width === "number" ? String(width) : `${width.value}${width.unit}`))
            if (typeof d["verticalAlignment"] === "string") params.push(dq("valign", d["verticalAlignment"]))
          }
          // GitBook sets each tab, step and column after the first off by a blank line.
          return [schema.nodes[childType]!.create({ params, lead: index === 0 ? 0 : 1 }, children(item.nodes))]
        })
        const params = typeof data["fullWidth"] === "boolean" ? [dq("fullWidth", String(data["fullWidth"]))] : []
        return [schema.nodes[block.type]!.create({ params }, items)]
      }
      case "tabs-item":
      case "stepper-step":
      case "column":
        return children(block.nodes)
      case "expandable": {
        const title = fragment(block, "expandable-title")?.nodes[0]
        const body = fragment(block, "expandable-body")?.nodes
        return [schema.nodes.expandable!.create(
          { openTag: data["defaultExpanded"] === true ? "<details open>" : "<details>", summary: title === undefined ? "" : inlineMarkdown(title.nodes) },
          children(body)
        )]
      }
      case "table":
        return [tableNode(block)]
      case "embed": {
        const params = [dq("url", (data["url"] as string | undefined) ?? "")]
        if (typeof data["fullWidth"] === "boolean") params.push(dq("fullWidth", String(data["fullWidth"])))
        return [schema.nodes.embed!.create({ params, ...captionBody(block, "embed") })]
      }
      case "file":
        return [schema.nodes.file!.create({ params: [dq("src", write(data["ref"] as DocumentRef))], ...captionBody(block, "file") })]
      case "content-ref": {
        const url = write(data["ref"] as DocumentRef)
        return [schema.nodes.contentRef!.create({ params: [dq("url", url)], body: `[${url}](${url})` })]
      }
      case "openapi-operation": {
        const spec = (data["ref"] as { spec?: string } | undefined)?.spec ?? ""
        return [schema.nodes.openapiOperation!.create({
          params: [dq("spec", spec), dq("path", (data["path"] as string | undefined) ?? ""), dq("method", (data["method"] as string | undefined) ?? "get")],
          body: `[OpenAPI ${spec}](${spec})`
        })]
      }
      case "reusable-content":
        return [schema.nodes.include!.create({ params: [dq(null, write(data["ref"] as DocumentRef))] })]
      case "if":
        return [rawNode(`{% if ${(data["expression"] as string | undefined) ?? ""} %}\n${innerMarkdown(block.nodes)}{% endif %}`)]
      case "prompt":
      case "updates":
        return [rawNode(tagBlockMarkdown(block))]
      case "swagger":
        return [rawNode(`${tagLine("swagger", [["src", write(data["ref"] as DocumentRef)], ["path", data["path"] as string | undefined], ["method", data["method"] as string | undefined]])}\n{% endswagger %}`)]
      case "openapi-schemas": {
        const spec = (data["ref"] as { spec?: string } | undefined)?.spec ?? ""
        const schemas = ((data["schemas"] as ReadonlyArray<string> | undefined) ?? []).join(",")
        const grouped = typeof data["grouped"] === "boolean" ? String(data["grouped"]) : undefined
        return [rawNode(`${tagLine("openapi-schemas", [["spec", spec], ["schemas", schemas], ["grouped", grouped]])}\n[OpenAPI ${spec}](${spec})\n{% endopenapi-schemas %}`)]
      }
      case "openapi-webhook": {
        const spec = (data["ref"] as { spec?: string } | undefined)?.spec ?? ""
        return [rawNode(`${tagLine("openapi-webhook", [["spec", spec], ["name", data["name"] as string | undefined], ["method", data["method"] as string | undefined]])}\n[OpenAPI ${spec}](${spec})\n{% endopenapi-webhook %}`)]
      }
      case "integration": {
        const props = Object.entries((data["props"] as Record<string, unknown> | undefined) ?? {}).map(([k, v]) => [k, String(v)] as const)
        const name = data["integration"] === data["block"] ? String(data["integration"]) : `${String(data["integration"])}/${String(data["block"])}`
        return [rawNode(tagLine(`@${name}`, props))]
      }
      default:
        return block.nodes === undefined ? [] : children(block.nodes)
    }
  }

  // The page before: its frontmatter, and its blocks by the run of document blocks each reads as
  // (most read as one; a page shown as plain text reads as a note and its text).
  const base = options.base
  const reusable = new Map<string, Array<PageNode>>()
  const runLengths = new Set<number>()
  // The page's footnote definitions, and the footnotes it referred to (those it did not are kept).
  const baseDefinitions: Array<ReadonlyArray<FootnoteDefinition>> = []
  const baseReferenced = new Set<string>()
  const lead: Array<PageNode> = []
  // A page shown as plain text reads as a note and its text: written back, its text as it was.
  const plain = base === undefined ? undefined : plainPage(base.markdown)
  if (plain !== undefined) {
    runLengths.add(plain.length)
    // (A raw block is written with a line end after it.)
    reusable.set(runKey(plain.map(sameness)), [rawNode(base!.markdown.replace(/\n$/, ""))])
  } else if (base !== undefined) {
    const refs = base.refs ?? defaultRefs
    const includes = base.includes ?? defaultIncludes
    pageBlocks(codec.parse(base.markdown), codec).forEach(({ blocks: pieces, nodes }, index) => {
      // (A run of several nodes is footnote definitions; any other is one node.)
      const child = nodes[0]!
      if (index === 0 && child.type.name === "frontmatter") {
        lead.push(child)
        return
      }
      if (pieces.length === 1 && pieces[0]!.type === FOOTNOTES) {
        baseDefinitions.push(pieces[0]!.data!["definitions"] as ReadonlyArray<FootnoteDefinition>)
        return
      }
      for (const { label } of footnoteLabels(pieces).values()) baseReferenced.add(label)
      const blocks = resolvedBlocks(pieces, refs, includes)
      if (blocks.length === 0) return
      const key = runKey(blocks.map((block) => sameness(withCustomIds(block))))
      runLengths.add(blocks.length)
      const found = reusable.get(key)
      if (found === undefined) reusable.set(key, [child])
      else found.push(child)
    })
  }
  // Each run of blocks that reads as a block of the page before is written as that block's text;
  // the others through the codec.
  const longestFirst = [...runLengths].toSorted((a, b) => b - a)
  const identities = reusable.size === 0 ? [] : document.nodes.map(sameness)
  const keptAt = (i: number): { readonly node: PageNode; readonly blocks: number } | undefined => {
    for (const n of longestFirst) {
      if (i + n > document.nodes.length) continue
      const node = reusable.get(runKey(identities.slice(i, i + n)))?.shift()
      if (node !== undefined) return { node, blocks: n }
    }
    return undefined
  }
  const out: Array<string> = []
  let nodes: Array<PageNode> = [...lead]
  const append = (text: string) => {
    if (out.length > 0 && !/\n[ \t]*\n$/.test(out.at(-1)!)) out.push(out.at(-1)!.endsWith("\n") ? "\n" : "\n\n")
    out.push(text)
  }
  const flush = () => {
    if (nodes.length === 0) return
    append(codec.serialize(schema.nodes.doc!.create(null, nodes)))
    nodes = []
  }
  for (let i = 0; i < document.nodes.length; i++) {
    const kept = keptAt(i)
    if (kept !== undefined) {
      nodes.push(kept.node)
      i += kept.blocks - 1
    } else nodes.push(...blockNodes(document.nodes[i]!))
  }
  separateLists(nodes)
  if (out.length === 0 && nodes.length === lead.length) nodes.push(schema.nodes.paragraph!.create())
  flush()
  // The definitions of the annotations' footnotes not written with the page's own text, a line
  // each (and the indented blocks that go on with one): in the page before's order and paragraphs as it wrote them (its footnotes no annotation
  // referred to kept), then the new ones. (A footnote without a definition has an empty body: none is written.)
  // A body's first paragraph is the definition's line, its further blocks are indented under it.
  const wordsOf = (body: ReadonlyArray<JsonBlock>) => {
    const [first, ...rest] = body
    const line = first?.type === "paragraph" ? inlineMarkdown(first.nodes) : ""
    const further = first?.type === "paragraph" ? rest : body
    if (further.length === 0) return line
    const indented = innerMarkdown(further).replace(/\n+$/, "").split("\n").map((text) => (text === "" ? text : `    ${text}`)).join("\n")
    return `${line}\n\n${indented}`
  }
  const noted = new Map<string, string>()
  for (const { label, body } of footnotes.values()) if (!noted.has(label)) noted.set(label, wordsOf(body))
  const written = out.join("")
  const seen = new Set<string>()
  const unwritten = (label: string) => !seen.has(label) && !written.includes(`\n[^${label}]:`) && !written.startsWith(`[^${label}]:`)
  const paragraphs: Array<Array<string>> = []
  for (const group of baseDefinitions) {
    const lines: Array<string> = []
    for (const [label, body, line] of group) {
      const words = noted.get(label)
      if (!unwritten(label)) continue
      if (words !== undefined && words !== "") lines.push(words === wordsOf(body) ? line : definition(label, words))
      else if (words === undefined && !baseReferenced.has(label)) lines.push(line)
      else continue
      seen.add(label)
    }
    if (lines.length > 0) paragraphs.push(lines)
  }
  const added = [...noted].filter(([label, words]) => words !== "" && unwritten(label)).map(([label, words]) => definition(label, words))
  if (added.length > 0) paragraphs.push(added)
  if (paragraphs.length === 0) return written
  append(paragraphs.map((lines) => `${lines.join("\n")}\n`).join("\n"))
  return out.join("")
}

/** A block of `pieceBlocks` with each heading's `data.id` its custom anchor only, as a document has it. */
const withCustomIds = (block: JsonBlock): JsonBlock =>
  JSON.parse(JSON.stringify(block), function(this: Record<string, unknown>, key, value: unknown) {
    if (key === "data" && typeof this["type"] === "string" && this["type"].startsWith("heading-")) {
      const { explicitId, id: _words, ...rest } = value as Record<string, unknown>
      return explicitId === undefined ? rest : { ...rest, id: explicitId }
    }
    return value
  }) as JsonBlock
