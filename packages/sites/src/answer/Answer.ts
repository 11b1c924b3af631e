/** What a published site is asked (who reads, at which path) and what it answers, with the answers' bytes and ETags. */
import { createHash } from "node:crypto"
import type { BlobStream } from "@quire/content"
import type { AskChannel } from "../domain/SiteQuestion.ts"
import type { PublishedSite } from "../PublishedSites.ts"
import { assetSources, type PageAsset, readAsset } from "../render/Assets.ts"
import * as Layout from "../render/Layout.ts"
import type * as View from "../render/View.ts"

/** Who reads and how the site is reached. */
export interface RenderRequest {
  readonly site: PublishedSite
  /** The absolute URL of the site's root as the reader reaches it, ending with `/`. */
  readonly root: string
  /** Below the root, without a leading `/`, as it came (percent-encoded). */
  readonly path: string
  readonly query: URLSearchParams
  readonly claims: Readonly<Record<string, unknown>>
  readonly noindex: boolean
  /** The search URL answers JSON. */
  readonly json?: boolean | undefined
  /** A change request's preview: the site shows this space at another revision than its current one, and searches that. */
  readonly previewSpace?: string | undefined
  /**
   * The spaces a member admitted by their session (not by the site's audience) may read
   * (MemberSpaces.ts): the site shows them only these, in every answer. Absent: the audience decides.
   */
  readonly readableSpaces?: ReadonlyArray<string> | undefined
  /** How a question put to Ask came (the site's page unless said) and the asker's language, for the site's questions. */
  readonly asker?: { readonly via: AskChannel; readonly language: string | null } | undefined
}

/**
 * What the site answers. An HTML page is the same bytes for every response (its inline script and
 * style are allowed by hash in `policy`, its CSP), encoded once, with its ETag.
 */
export type RenderAnswer =
  | {
    readonly kind: "Html"
    readonly status: 200 | 404
    readonly html: string
    readonly bytes: Uint8Array
    readonly policy: string
    readonly etag: string
    /** The conditions of the page's `{% if %}` blocks: the claims they read tell its audiences apart. */
    readonly conditions?: ReadonlyArray<string>
  }
  | {
    readonly kind: "Text"
    readonly contentType: string
    readonly body: string
    readonly etag: string
    /** A page's markdown: the conditions of its `{% if %}` blocks, as an HTML page's. */
    readonly conditions?: ReadonlyArray<string>
  }
  /** The search as JSON, or Ask's answer (`status` 200 unless given: a refusal's 4xx/501). */
  | { readonly kind: "Json"; readonly body: View.SearchResults | AskJson; readonly status?: number | undefined }
  | { readonly kind: "File"; readonly bytes: Uint8Array; readonly contentType: string; readonly name: string; readonly etag: string }
  /**
   * A file of a space (`~files/...`), read from the store as it is sent: a published site's video
   * or archive is never held whole in the server's memory. Never cached (its size is unbounded).
   */
  | { readonly kind: "Download"; readonly file: BlobStream; readonly contentType: string; readonly name: string; readonly etag: string }
  /** `status` 302 unless given (a site redirect's 307 or 308). */
  | { readonly kind: "Redirect"; readonly location: string; readonly status?: 307 | 308 | undefined }

/** What `~ask` answers: the answer and its cited pages, or why there is none. */
export type AskJson =
  | { readonly answer: string; readonly sources: ReadonlyArray<{ readonly n: number; readonly title: string; readonly url: string; readonly section?: string | undefined }> }
  | { readonly error: { readonly code: number; readonly message: string } }

const etagOf = (text: string | Uint8Array): string => `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"`

/** What a rendered page adds to its answer: the site assets it loads from `root` (for its CSP) and its conditions. */
export interface PageExtras {
  readonly root: string
  readonly assets: ReadonlyArray<PageAsset>
  readonly conditions: ReadonlyArray<string>
}

/**
 * An HTML answer: encoded once (the page tree's part was encoded with the tree); its ETag the
 * document's fingerprint (`Layout.encodeDocument`: the same bytes, the same ETag).
 */
export const htmlAnswer = (status: 200 | 404, document: Layout.HtmlDocument, view: View.SiteChrome, page?: PageExtras): RenderAnswer => {
  const html = Layout.htmlText(document)
  const { bytes, fingerprint } = Layout.encodeDocument(document)
  const policy = Layout.policyOf(view.styling, page === undefined ? undefined : assetSources(page.root, page.assets), view.memo)
  const etag = `"${fingerprint}"`
  return { kind: "Html", status, html, bytes, policy, etag, ...(page === undefined || page.conditions.length === 0 ? {} : { conditions: page.conditions }) }
}

/**
 * A site asset's answer (`~assets/<name>`): the stylesheet and scripts as text, fonts as a file;
 * undefined for a name that is none.
 */
export const assetAnswer = (name: string): RenderAnswer | undefined => {
  const file = readAsset(name)
  if (file === undefined) return undefined
  if (file.contentType.startsWith("text/")) return text(file.contentType, new TextDecoder().decode(file.bytes))
  return { kind: "File", bytes: file.bytes, contentType: file.contentType, name: name.split("/").at(-1) ?? name, etag: etagOf(file.bytes) }
}

export const text = (contentType: string, body: string, conditions?: ReadonlyArray<string>): RenderAnswer => ({
  kind: "Text",
  contentType,
  body,
  etag: etagOf(body),
  ...(conditions === undefined || conditions.length === 0 ? {} : { conditions })
})

/** About how many characters an answer holds, as the answer cache counts them. */
export const sizeOf = (answer: RenderAnswer): number =>
  answer.kind === "Html" ? answer.html.length + answer.bytes.length : answer.kind === "Text" ? answer.body.length : answer.kind === "File" ? answer.bytes.length : 100
