import type { Fragment, Node as PMNode, Schema } from "@tiptap/pm/model"

/** What a block's markdown code gets from the driver: the schema and the recursive parsers and serializers. */
export interface MarkdownContext {
  readonly schema: Schema
  /** Parses a container's inner lines (line endings removed) into blocks, each keeping its source slice. */
  readonly parseBlocks: (lines: ReadonlyArray<string>) => Array<PMNode>
  readonly parseInline: (text: string) => Array<PMNode>
  /** Serializes a container's children: each as its kept slice when unchanged, ending with a line break. */
  readonly serializeBlocks: (content: Fragment) => string
  readonly serializeInline: (content: Fragment, lineStart?: boolean) => string
  /** Whether a line would start a block that interrupts a paragraph. */
  readonly interrupts: (lines: ReadonlyArray<string>, i: number) => boolean
}

export interface BlockParse {
  readonly node: PMNode
  /** Index of the first line after the block. */
  readonly end: number
}

/** One block's markdown: `parse` tries to start the block at `lines[i]`; `serialize` gives its text without the final line break. */
export interface BlockMarkdown {
  readonly parse: ((ctx: MarkdownContext, lines: ReadonlyArray<string>, i: number, top: boolean) => BlockParse | undefined) | null
  readonly serialize: (ctx: MarkdownContext, node: PMNode) => string
}
