/**
 * A page's markdown as GitBook's JSON document (`format=document` on page reads): the blocks
 * GitBook's editor has for what markdown can say (paragraphs, headings, lists and task lists,
 * quotes, code, dividers, images, tables as text) with bold, italic, code and strikethrough marks
 * and links whose targets are content references; an include of a reusable content
 * (`{% include "…" %}` alone in its paragraph) is GitBook's `reusable-content` block. Other
 * GitBook-only blocks written as `{% tag %}` stay in the text.
 */
import type { Heading, Nodes, PhrasingContent, RootContent } from "mdast"
import { explicitHeadingId, headingAnchor, headingSlugger, headingText, pieces } from "@quire/markdown"
import type { ContentRef } from "../domain/Revision.ts"
import { includeAlone, includedId } from "./IncludeTags.ts"

type Mark = { readonly object: "mark"; readonly type: "bold" | "italic" | "code" | "strikethrough" }
type Leaf = { readonly object: "leaf"; readonly text: string; readonly marks: ReadonlyArray<Mark> }
type Text = { readonly object: "text"; readonly leaves: ReadonlyArray<Leaf> }
type Inline = {
  readonly object: "inline"
  readonly type: "link"
  readonly isVoid: false
  readonly data: { readonly ref: ContentRef }
  readonly nodes: ReadonlyArray<Text>
}
/** A block of GitBook's document model. */
export interface JsonBlock {
  readonly object: "block"
  readonly type: string
  readonly isVoid?: boolean
  readonly data?: Record<string, unknown>
  readonly nodes?: ReadonlyArray<JsonBlock | Text | Inline>
}

/** GitBook's JSONDocument. */
export interface JsonDocument {
  readonly object: "document"
  readonly data: { readonly schemaVersion?: number }
  readonly nodes: ReadonlyArray<JsonBlock>
}

/** Where a link or image URL of the markdown points, as a content reference. */
export type RefResolver = (url: string, kind: "link" | "image") => ContentRef

/**
 * The id of the reusable content an include's reference names (its path as written, or
 * `/reusable-content/<id>`), undefined when it names nothing: the block is left out.
 */
export type IncludeResolver = (ref: string) => string | undefined

/** Includes by id only (`/reusable-content/<id>`). */
export const defaultIncludes: IncludeResolver = (ref) => includedId(ref.trim())

/** The reference of an include that is a whole paragraph, as GitBook writes one on its own line. */
const includeOf = (children: ReadonlyArray<PhrasingContent>): string | undefined =>
  children.every((child) => child.type === "text") ? includeAlone(children.map((child) => (child.type === "text" ? child.value : "")).join(""))?.ref : undefined

/** URLs as they are, `/files/<id>` as files. */
export const defaultRefs: RefResolver = (url) => {
  const file = /^\/files\/([^/?#]+)/.exec(url)?.[1]
  return file === undefined ? { kind: "url", url } : { kind: "file", file: decodeURIComponent(file) }
}

const mark = (type: Mark["type"]): Mark => ({ object: "mark", type })
const text = (value: string, marks: ReadonlyArray<Mark> = []): Text => ({ object: "text", leaves: [{ object: "leaf", text: value, marks }] })

const phrasing = (nodes: ReadonlyArray<PhrasingContent>, refs: RefResolver, marks: ReadonlyArray<Mark> = []): Array<Text | Inline> => {
  const out: Array<Text | Inline> = []
  for (const node of nodes) {
    switch (node.type) {
      case "text":
        out.push(text(node.value, marks))
        break
      case "inlineCode":
        out.push(text(node.value, [...marks, mark("code")]))
        break
      case "strong":
        out.push(...phrasing(node.children, refs, [...marks, mark("bold")]))
        break
      case "emphasis":
        out.push(...phrasing(node.children, refs, [...marks, mark("italic")]))
        break
      case "delete":
        out.push(...phrasing(node.children, refs, [...marks, mark("strikethrough")]))
        break
      case "break":
        out.push(text("\n", marks))
        break
      case "link": {
        const children = phrasing(node.children, refs, marks).filter((n): n is Text => n.object === "text")
        out.push({
          object: "inline",
          type: "link",
          isVoid: false,
          data: { ref: refs(node.url, "link") },
          nodes: children.length === 0 ? [text(node.url, marks)] : children
        })
        break
      }
      case "image":
        out.push(text(node.alt ?? "", marks))
        break
      default: {
        // Footnote references, raw HTML, references: their text when they have some.
        const other = node as Nodes
        if ("children" in other) out.push(...phrasing(other.children as ReadonlyArray<PhrasingContent>, refs, marks))
      }
    }
  }
  // GitBook's editor wants at least one text node in a text block.
  return out.length === 0 ? [text("")] : out
}

const image = (url: string, alt: string | undefined, refs: RefResolver): JsonBlock => ({
  object: "block",
  type: "image",
  isVoid: true,
  data: { ref: refs(url, "image"), ...(alt === undefined || alt === "" ? {} : { alt }) }
})

const withExplicitId = (node: Heading): { explicitId?: string } => {
  const id = explicitHeadingId(node)
  return id === undefined ? {} : { explicitId: id }
}

const blocks = (nodes: ReadonlyArray<RootContent | Nodes>, refs: RefResolver): Array<JsonBlock> => {
  const out: Array<JsonBlock> = []
  for (const node of nodes) {
    switch (node.type) {
      case "paragraph": {
        const include = includeOf(node.children)
        if (include !== undefined) {
          // The reference as written; `resolveBlocks` turns it into the reusable content's id.
          out.push({ object: "block", type: "reusable-content", isVoid: true, data: { ref: { kind: "reusable-content", reusableContent: include } } })
          break
        }
        // A paragraph of images only is an images block, as GitBook writes pictures.
        const visible = node.children.filter((c) => !(c.type === "text" && c.value.trim() === ""))
        if (visible.length > 0 && visible.every((c) => c.type === "image")) {
          out.push({
            object: "block",
            type: "images",
            isVoid: false,
            data: {},
            nodes: visible.map((c) => c.type === "image" ? image(c.url, c.alt ?? undefined, refs) : image("", undefined, refs))
          })
        } else {
          out.push({ object: "block", type: "paragraph", nodes: phrasing(node.children, refs) })
        }
        break
      }
      case "heading":
        out.push({
          object: "block",
          type: `heading-${Math.min(3, node.depth)}`,
          // `explicitId`, GitBook's custom id, becomes the id when the document's ids are given out.
          data: { id: headingText(node), ...withExplicitId(node) },
          nodes: phrasing(node.children, refs)
        })
        break
      case "list": {
        const tasks = node.children.some((item) => typeof item.checked === "boolean")
        out.push({
          object: "block",
          type: tasks ? "list-tasks" : node.ordered === true ? "list-ordered" : "list-unordered",
          ...(node.ordered === true && typeof node.start === "number" && node.start !== 1 ? { data: { start: node.start } } : {}),
          nodes: node.children.map((item): JsonBlock => ({
            object: "block",
            type: "list-item",
            ...(typeof item.checked === "boolean" ? { data: { checked: item.checked } } : {}),
            nodes: blocks(item.children, refs)
          }))
        })
        break
      }
      case "blockquote":
        out.push({ object: "block", type: "blockquote", nodes: blocks(node.children, refs) })
        break
      case "code":
        out.push({
          object: "block",
          type: "code",
          data: node.lang == null ? {} : { syntax: node.lang },
          nodes: node.value.split("\n").map((line): JsonBlock => ({ object: "block", type: "code-line", data: {}, nodes: [text(line)] }))
        })
        break
      case "thematicBreak":
        out.push({ object: "block", type: "divider", isVoid: true, data: {} })
        break
      case "table":
        for (const row of node.children) {
          out.push({
            object: "block",
            type: "paragraph",
            nodes: row.children.flatMap((cell, i) => [...(i === 0 ? [] : [text(" | ")]), ...phrasing(cell.children, refs)])
          })
        }
        break
      case "html":
      case "yaml":
      case "definition":
        break
      default:
        if ("children" in node) out.push(...blocks(node.children as ReadonlyArray<RootContent>, refs))
    }
  }
  return out
}

/**
 * The JSON document of `markdown`; `refs` turns link and image URLs into content references,
 * `includes` the references of includes into reusable contents' ids.
 */
export const toJsonDocument = (markdown: string, refs: RefResolver = defaultRefs, includes: IncludeResolver = defaultIncludes): JsonDocument => {
  const builder = jsonDocumentBuilder(refs, includes)
  for (const piece of pieces(markdown)) builder.add(piece.children)
  return builder.done()
}

/**
 * `toJsonDocument`, one piece of the document at a time: `add` the blocks of each of `pieces` in
 * order (or `addPieceBlocks`, their `pieceBlocks`, which a parse worker computes), then `done`.
 * Lets a caller give the event loop back between pieces.
 */
export const jsonDocumentBuilder = (refs: RefResolver = defaultRefs, includes: IncludeResolver = defaultIncludes) => {
  const slugger = headingSlugger()
  const nodes: Array<JsonBlock> = []
  // Headings in lists and quotes get their ids after every top-level heading, as the page's anchors do (`headingIds`).
  const nested: Array<Mutable<Record<string, unknown>>> = []
  const giveId = (data: Mutable<Record<string, unknown>>) => {
    data["id"] = headingAnchor(data["id"] as string, slugger, data["explicitId"] as string | undefined)
    delete data["explicitId"]
  }
  const addPieceBlocks = (pieceBlocks: ReadonlyArray<JsonBlock>) => {
    nodes.push(...resolveBlocks(pieceBlocks, { refs, includes }, (data, topLevel) => {
      if (topLevel) giveId(data)
      else nested.push(data)
    }))
  }
  return {
    add: (children: ReadonlyArray<RootContent>) => addPieceBlocks(pieceBlocks(children)),
    addPieceBlocks,
    done: (): JsonDocument => {
      for (const data of nested.splice(0)) giveId(data)
      return {
        object: "document",
        data: { schemaVersion: 1 },
        nodes: nodes.length === 0 ? [{ object: "block", type: "paragraph", nodes: [text("")] }] : nodes
      }
    }
  }
}

/**
 * A piece's blocks with every link and image left as a URL as written and each heading's id its
 * text: what does not depend on the rest of the page, so that a parse worker can build it
 * (`jsonDocumentBuilder().addPieceBlocks` then resolves them, in order).
 */
export const pieceBlocks = (children: ReadonlyArray<RootContent>): Array<JsonBlock> =>
  blocks(children, (url) => ({ kind: "url", url }))

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * `pieceBlocks`' links, images and includes resolved with `resolvers`, and each heading's data
 * handed to `heading`, in place (they are this thread's copies); an include that names nothing is
 * left out of the answer.
 */
const resolveBlocks = <N extends JsonBlock | Text | Inline>(
  nodes: ReadonlyArray<N>,
  resolvers: { readonly refs: RefResolver; readonly includes: IncludeResolver },
  heading: (data: Mutable<Record<string, unknown>>, topLevel: boolean) => void,
  topLevel = true
): Array<N> => {
  const out: Array<N> = []
  for (const node of nodes) {
    if (node.object === "text") {
      out.push(node)
      continue
    }
    const data = node.data as Mutable<Record<string, unknown>> | undefined
    if (node.object === "inline") {
      data!["ref"] = resolvers.refs((data!["ref"] as { readonly url: string }).url, "link")
      out.push(node)
      continue
    }
    if (data !== undefined && node.type === "reusable-content") {
      const id = resolvers.includes((data["ref"] as { readonly reusableContent: string }).reusableContent)
      if (id === undefined) continue
      data["ref"] = { kind: "reusable-content", reusableContent: id }
    } else if (data !== undefined && node.type.startsWith("heading-")) heading(data, topLevel)
    else if (data !== undefined && node.type === "image") data["ref"] = resolvers.refs((data["ref"] as { readonly url: string }).url, "image")
    if (node.nodes !== undefined) (node as Mutable<JsonBlock>).nodes = resolveBlocks(node.nodes, resolvers, heading, false)
    out.push(node)
  }
  return out
}
