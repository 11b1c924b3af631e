/**
 * Instructions for an agent as a person writes them: markdown in a text area, stored as GitBook's
 * JSON document (content's codec, loaded on demand).
 */
import { useEffect, useState } from "react"

type Codec = typeof import("./codec.ts")

/** The codec, loaded once when an instructions field is shown. */
let loading: Promise<Codec> | undefined
const loadCodec = () => (loading ??= import("./codec.ts"))

/** A JSON document as the API carries it. */
export interface InstructionsDocument {
  readonly object: "document"
  readonly data: { readonly [key: string]: unknown }
  readonly nodes: ReadonlyArray<{ readonly [key: string]: unknown }>
}

/** The most text the server keeps (sites' `AgentDocuments.maxDocumentText`), said before sending. */
export const maxInstructions = 20_000

/** The document as markdown: undefined while the codec loads. */
export const useMarkdownOf = (document: InstructionsDocument | undefined): string | undefined => {
  const [markdown, setMarkdown] = useState<string | undefined>(undefined)
  useEffect(() => {
    if (document === undefined) return
    let live = true
    void loadCodec().then((codec) => {
      if (live) setMarkdown(codec.documentText(document as unknown as Parameters<Codec["documentText"]>[0]).trimEnd())
    })
    return () => { live = false }
  }, [document])
  return markdown
}

/** The markdown as the document the API takes. */
export const documentOf = async (markdown: string): Promise<InstructionsDocument> => {
  const codec = await loadCodec()
  return codec.markdownDocument(markdown.trim()) as unknown as InstructionsDocument
}

/** Words for a text that is too long, or undefined. */
export const tooLong = (markdown: string): string | undefined =>
  markdown.length > maxInstructions
    ? `At most ${maxInstructions.toLocaleString("en")} characters: this has ${markdown.length.toLocaleString("en")}. Shorten it, then save.`
    : undefined
