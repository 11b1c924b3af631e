/** Semantic changes (content's RevisionChanges) to GitBook's RevisionSemanticChanges. */
import type { ChangeRequest, RevisionSemanticChange, RevisionSemanticChanges } from "@quire/api"
import type { AttributeChange, ChangedPage, ChangedReusableContent, ChangeList, FileNode, PageCover, SemanticChange } from "@quire/content"
import { type DownloadUrl, layout } from "./ContentPresenters.ts"

const page = (p: ChangedPage) => ({ id: p.id, type: p.type, title: p.title, path: p.path })

const reusableContent = (r: ChangedReusableContent) => ({ id: r.id, title: r.title, ...(r.document === undefined ? {} : { document: r.document }) })

const file = (f: FileNode, downloadUrl: DownloadUrl) => ({
  id: f.id,
  name: f.name,
  contentType: f.contentType,
  downloadURL: downloadUrl(f)
})

/** An attribute's before and after, each side mapped when present. */
const mapped = <A, B>(change: AttributeChange<A> | undefined, f: (a: A) => B): { before?: B; after?: B } | undefined =>
  change === undefined
    ? undefined
    : {
      ...(change.before === undefined ? {} : { before: f(change.before) }),
      ...(change.after === undefined ? {} : { after: f(change.after) })
    }

const cover = (c: PageCover) => ({
  ref: c.ref,
  ...(c.refDark === undefined ? {} : { refDark: c.refDark }),
  yPos: c.yPos ?? 0
})

/** The record without its undefined entries. */
const defined = <A extends Record<string, unknown>>(record: A) =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as { [K in keyof A]?: Exclude<A[K], undefined> }

const identity = <A>(a: A): A => a

export const change = (c: SemanticChange & { readonly diff?: string }, downloadUrl: DownloadUrl): RevisionSemanticChange => {
  switch (c.type) {
    case "page_created":
    case "page_deleted":
      return { type: c.type, page: page(c.page) }
    case "page_moved":
      return { type: c.type, page: page(c.page), parent: mapped(c.parent, page) ?? {} }
    case "page_edited": {
      const a = c.attributes
      return {
        type: c.type,
        page: page(c.page),
        attributes: defined({
          title: mapped(a.title, identity),
          description: mapped(a.description, identity),
          slug: mapped(a.slug, identity),
          document: mapped(a.document, identity),
          cover: mapped(a.cover, cover),
          emoji: mapped(a.emoji, identity),
          layout: mapped(a.layout, layout),
          variables: mapped(a.variables, identity),
          target: mapped(a.target, identity)
        }),
        ...(c.diff === undefined ? {} : { diff: c.diff })
      }
    }
    case "file_created":
    case "file_deleted":
      return { type: c.type, file: file(c.file, downloadUrl) }
    case "file_edited": {
      const has = (name: typeof c.attributes[number]) => c.attributes.includes(name)
      const pair = <A>(f: (node: FileNode) => A) => ({ before: f(c.before), after: f(c.file) })
      return {
        type: c.type,
        file: file(c.file, downloadUrl),
        attributes: defined({
          name: has("name") ? pair((f) => f.name) : undefined,
          downloadURL: has("blob") ? pair(downloadUrl) : undefined,
          size: has("size") ? pair((f) => f.size) : undefined,
          contentType: has("contentType") ? pair((f) => f.contentType) : undefined,
          dimensions: has("dimensions") ? mapped({ before: c.before.dimensions, after: c.file.dimensions }, identity) : undefined
        })
      }
    }
    case "reusable_content_created":
    case "reusable_content_deleted":
      return { type: c.type, reusableContent: reusableContent(c.reusableContent) }
    case "reusable_content_edited":
      return {
        type: c.type,
        reusableContent: reusableContent(c.reusableContent),
        attributes: defined({ title: mapped(c.attributes.title, identity), document: mapped(c.attributes.document, identity) })
      }
    case "variables_edited":
      return {
        type: c.type,
        variables: Object.fromEntries(Object.entries(c.variables).map(([name, value]) => [name, mapped(value, identity) ?? {}]))
      }
  }
}

/** The changes shown, `more` when some were left out past the limit, and the change request a merge merged. */
export const changes = (list: ChangeList, downloadUrl: DownloadUrl, mergedFrom?: ChangeRequest): RevisionSemanticChanges => ({
  ...(mergedFrom === undefined ? {} : { mergedFrom }),
  changes: list.changes.map((c) => change(c, downloadUrl)),
  ...(list.more > 0 ? { more: list.more } : {})
})
