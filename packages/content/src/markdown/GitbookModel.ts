/**
 * GitBook's JSON document model (the `Document*` schemas of GitBook's API), the types both
 * directions share (`JsonDocument.ts` reads markdown into it, `DocumentMarkdown.ts` writes it back),
 * and the page codec of `@quire/document` whose grammar both use.
 */
import { createMarkdownCodec, createSchema, type MarkdownCodec } from "@quire/document"
import type { ContentRef } from "../domain/Revision.ts"

export type MarkType = "bold" | "italic" | "code" | "strikethrough" | "keyboard" | "superscript" | "subscript" | "color"
export type TextColor = string
export type Mark =
  | { readonly object: "mark"; readonly type: Exclude<MarkType, "color"> }
  | { readonly object: "mark"; readonly type: "color"; readonly data: { readonly text: TextColor; readonly background: TextColor } }
export type Leaf = { readonly object: "leaf"; readonly text: string; readonly marks: ReadonlyArray<Mark> }
export type Text = { readonly object: "text"; readonly leaves: ReadonlyArray<Leaf> }

/** A content reference as GitBook's documents carry them: Quire's, plus anchors, OpenAPI specs and reusable contents. */
export type DocumentRef =
  | ContentRef
  | { readonly kind: "anchor"; readonly anchor: string; readonly page?: string }
  | { readonly kind: "openapi"; readonly spec: string }
  | { readonly kind: "reusable-content"; readonly reusableContent: string }

/** An inline node: a link, a mention, an image, math, an icon, an emoji. */
export interface Inline {
  readonly object: "inline"
  readonly type: string
  readonly isVoid: boolean
  readonly data: Record<string, unknown>
  readonly nodes?: ReadonlyArray<Text | Inline>
  /** An annotation's body (`annotation-body`). */
  readonly fragments?: ReadonlyArray<Fragment>
}

/** A fragment of a block: an expandable's title and body, an image's caption, a table cell. */
export interface Fragment {
  readonly object: "fragment"
  readonly fragment: string
  readonly type?: string
  readonly nodes: ReadonlyArray<JsonBlock>
}

/** A block of GitBook's document model. */
export interface JsonBlock {
  readonly object: "block"
  readonly type: string
  readonly isVoid?: boolean
  readonly data?: Record<string, unknown>
  readonly nodes?: ReadonlyArray<JsonBlock | Text | Inline>
  readonly fragments?: ReadonlyArray<Fragment>
  /** What GitBook computes of a block: a heading's anchor (`data.id` is only its custom one). */
  readonly meta?: { readonly id: string }
}

/** GitBook's JSONDocument. */
export interface JsonDocument {
  readonly object: "document"
  readonly data: { readonly schemaVersion?: number }
  readonly nodes: ReadonlyArray<JsonBlock>
}

export type Node = JsonBlock | Text | Inline

export const mark = (type: Exclude<MarkType, "color">): Mark => ({ object: "mark", type })
export const leaf = (text: string, marks: ReadonlyArray<Mark> = []): Leaf => ({ object: "leaf", text, marks })
export const text = (value: string, marks: ReadonlyArray<Mark> = []): Text => ({ object: "text", leaves: [leaf(value, marks)] })
export const paragraph = (nodes: ReadonlyArray<Text | Inline>): JsonBlock => ({ object: "block", type: "paragraph", nodes: nodes.length === 0 ? [text("")] : nodes })

/** A node of the page codec's documents (ProseMirror's). */
export type PageNode = ReturnType<MarkdownCodec["parse"]>

// The page schema is immutable; a codec (which remembers per node) is made per conversion.
const schema = createSchema()
/** The page schema of `@quire/document`. */
export const pageSchema = () => schema
/** A fresh codec of the page schema. */
export const pageCodec = (): MarkdownCodec => createMarkdownCodec(schema)

/** GitBook's hint styles; a hint written with another style reads as `info`. */
export const hintStyles: ReadonlySet<string> = new Set(["info", "success", "warning", "danger"])

/** GitBook's `<mark style="…">` colours: the text's and the background's. */
export const markColors = (attrs: string): { text: string; background: string } => {
  const style = /style="([^"]*)"/.exec(attrs)?.[1] ?? ""
  return {
    text: /(?:^|;)\s*color:\s*([^;]+?)\s*(?:;|$)/.exec(style)?.[1] ?? "default",
    background: /background-color:\s*([^;]+?)\s*(?:;|$)/.exec(style)?.[1] ?? "default"
  }
}

/** The `<mark>` attributes GitBook writes for colours. */
export const markAttrs = (colors: { readonly text: string; readonly background: string }): string =>
  ` style="${colors.text === "default" ? "" : `color:${colors.text};`}${colors.background === "default" ? "" : `background-color:${colors.background};`}"`

/** Inline HTML tags GitBook writes for marks: `<kbd>`, `<sup>`, `<sub>`. */
export const htmlMarkTags: Readonly<Record<string, Exclude<MarkType, "color">>> = { kbd: "keyboard", sup: "superscript", sub: "subscript" }
