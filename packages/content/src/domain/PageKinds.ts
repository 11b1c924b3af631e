/**
 * What kind of page an insert makes: a document (the default), a group of pages (GitBook's
 * `RevisionPageGroup`: a heading of the table of contents, only at the top level, no document) or a
 * link page (GitBook's `RevisionPageLink`: a `target`, a URL or a page of the revision, no
 * document). Pure: the insert's fields and how the batch resolves a page id or ref are given.
 */
import type { ContentRef, PageType } from "./Revision.ts"

/** The fields of an insert that say its kind. */
export interface PageKindInput {
  /** Absent: a document. */
  readonly type?: PageType | undefined
  /** Link pages: an absolute URL (`https:`, `mailto:`...) or a page (its id, or the ref of a page inserted earlier in the batch). */
  readonly href?: string | undefined
  /** The markdown the insert gives ("" or absent: none). */
  readonly markdown?: string | undefined
  /** The parent the insert names (absent or null: the top level). */
  readonly into?: string | null | undefined
}

export type PageKindOutcome =
  | { readonly ok: true; readonly type: PageType; readonly target?: ContentRef | undefined }
  | { readonly ok: false; readonly reason: string }

const urlScheme = /^[a-z][a-z0-9+.-]*:/i

/**
 * The type and, for a link, the target of an inserted page, or why the insert is refused (the
 * reason names the field: `type`, `href`, `document`, `into`). `pageOf` answers a page's id from an
 * id or a batch ref, undefined when there is no such page.
 */
export const insertedPageKind = (input: PageKindInput, pageOf: (idOrRef: string) => string | undefined): PageKindOutcome => {
  const type = input.type ?? "document"
  const hasDocument = (input.markdown ?? "") !== ""
  const href = input.href?.trim()
  if (type !== "link" && input.href !== undefined) return { ok: false, reason: `href: only a link page has one (type is ${type})` }
  if (type === "document") return { ok: true, type }
  if (hasDocument) return { ok: false, reason: `document: a ${type} has no document; send {} or {"markdown": ""}` }
  if (type === "group") {
    return input.into === undefined || input.into === null
      ? { ok: true, type }
      : { ok: false, reason: "into: a group goes at the top level, not inside a page" }
  }
  if (href === undefined || href === "") return { ok: false, reason: "href: a link page needs an href (a URL, or a page's id or ref)" }
  if (urlScheme.test(href)) {
    if (!URL.canParse(href)) return { ok: false, reason: `href: ${JSON.stringify(href)} is not a valid URL` }
    return { ok: true, type, target: { kind: "url", url: href } }
  }
  const page = pageOf(href)
  return page === undefined
    ? { ok: false, reason: `href: ${JSON.stringify(href)} is neither a URL (https://…) nor a page of the change request` }
    : { ok: true, type, target: { kind: "page", page } }
}
