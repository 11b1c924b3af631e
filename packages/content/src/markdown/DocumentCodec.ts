/**
 * Markdown that belongs to no page (a change request's description) and GitBook's JSON document,
 * each way, with the one codec pages use: links as URLs, files by id. Browser-safe, so the app's
 * description field reads and writes with it too (`@quire/content/markdown/DocumentCodec`).
 */
import { documentMarkdown } from "./DocumentMarkdown.ts"
import { withKeys } from "./DocumentKeys.ts"
import { type JsonDocument, toJsonDocument } from "./JsonDocument.ts"

export type { JsonDocument }

/** The markdown as GitBook's document, every node keyed. */
export const markdownDocument = (markdown: string): JsonDocument => withKeys(toJsonDocument(markdown))

/** The document written as markdown. */
export const documentText = (document: Pick<JsonDocument, "nodes">): string => documentMarkdown(document)
