/**
 * A reviewer's "Viewed" mark on a page a change request changes: it holds while the page is as it
 * was when marked (its fingerprint at the change request's head then).
 */
import { createHash } from "node:crypto"
import type { PageNode } from "@quire/content"

export interface ViewedPage {
  readonly spaceId: string
  readonly changeRequestId: string
  readonly userId: string
  readonly pageId: string
  /** `pageFingerprint` of the page when it was marked. */
  readonly fingerprint: string
  /** The change request's head revision when it was marked. */
  readonly revision: string
  readonly viewedAt: Date
}

/**
 * What a reader of a page sees of it: its document and its own fields, not its subpages nor the
 * instants of its edits, so an edit of a subpage or a save of the same bytes keeps the mark.
 */
export const pageFingerprint = (page: PageNode): string => {
  const { pages: _pages, createdAt: _createdAt, updatedAt: _updatedAt, ...own } = page
  const fields = Object.keys(own).toSorted().map((key) => [key, own[key as keyof typeof own]])
  return createHash("sha256").update(JSON.stringify(fields)).digest("hex")
}
