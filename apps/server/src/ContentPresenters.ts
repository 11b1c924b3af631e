/** Space content to the API's JSON shapes (GitBook's Revision, RevisionPage and RevisionFile). */
import type { Revision as RevisionResponse, RevisionFile as RevisionFileResponse, RevisionPage as RevisionPageResponse } from "@quire/api"
import type { FileNode, PageLayout, PageNode, Revision } from "@quire/content"
import type { PublicUrl } from "./PublicUrl.ts"

type Urls = PublicUrl["Service"]

/** What a read asked for: `metadata=false` leaves Git metadata out. */
export interface ContentOptions {
  readonly metadata: boolean
}

/** Signs a file's download URL. */
export type DownloadUrl = (file: FileNode) => string

const layout = (given: PageLayout | undefined): NonNullable<RevisionPageResponse["layout"]> => ({
  width: given?.width ?? "default",
  cover: given?.cover ?? true,
  coverSize: given?.coverSize ?? "hero",
  title: given?.title ?? true,
  description: given?.description ?? true,
  tableOfContents: given?.tableOfContents ?? true,
  outline: given?.outline ?? true,
  pagination: given?.pagination ?? true,
  metadata: given?.metadata ?? true
})

/** The app URL of a page of a space. */
export const pageAppUrl = (urls: Urls, spaceId: string, path: string) => urls.app(`/s/${spaceId}/${path}`)

/**
 * A page and its subpages, with the path of each (slugs from the root). Trees never carry markdown;
 * `body` adds the page's own `markdown` or `document` on single-page reads.
 */
export const page = (
  urls: Urls,
  spaceId: string,
  node: PageNode,
  path: string,
  options: ContentOptions,
  body: Pick<RevisionPageResponse, "markdown" | "document"> = {}
): RevisionPageResponse => {
  const common = {
    id: node.id,
    title: node.title,
    ...(node.emoji === undefined || node.emoji === "" ? {} : { emoji: node.emoji }),
    ...(node.icon === undefined ? {} : { icon: node.icon }),
    createdAt: node.createdAt,
    updatedAt: node.updatedAt,
    slug: node.slug,
    path,
    ...(node.description === undefined ? {} : { description: node.description }),
    hidden: node.hidden ?? false,
    ...(options.metadata && node.git !== undefined ? { git: { oid: node.git.oid, path: node.git.path } } : {})
  }
  const children = () => node.pages.map((child) => page(urls, spaceId, child, `${path}/${child.slug}`, options))
  switch (node.type) {
    case "group":
      return { ...common, kind: "group", type: "group", pages: children() }
    case "link":
      return {
        ...common,
        kind: "link",
        type: "link",
        ...(node.target === undefined ? {} : { target: node.target }),
        ...(node.target?.kind === "url" ? { href: node.target.url } : {})
      }
    case "document":
      return {
        ...common,
        kind: "sheet",
        type: "document",
        layout: layout(node.layout),
        ...(node.cover === undefined
          ? {}
          : {
            cover: {
              ref: node.cover.ref,
              ...(node.cover.refDark === undefined ? {} : { refDark: node.cover.refDark }),
              yPos: node.cover.yPos ?? 0
            }
          }),
        ...(node.variables === undefined ? {} : { variables: node.variables }),
        urls: { app: pageAppUrl(urls, spaceId, path) },
        ...body,
        pages: children()
      }
  }
}

/** The pages of a revision, as trees. */
export const pages = (urls: Urls, revision: Revision, options: ContentOptions): Array<RevisionPageResponse> =>
  revision.pages.map((node) => page(urls, revision.spaceId, node, node.slug, options))

export const file = (f: FileNode, downloadUrl: DownloadUrl, options: ContentOptions): RevisionFileResponse => ({
  id: f.id,
  name: f.name,
  contentType: f.contentType,
  downloadURL: downloadUrl(f),
  size: f.size,
  ...(f.dimensions === undefined ? {} : { dimensions: { width: f.dimensions.width, height: f.dimensions.height } }),
  ...(options.metadata && f.git !== undefined ? { git: { oid: f.git.oid, path: f.git.path } } : {})
})

export const revision = (urls: Urls, r: Revision, downloadUrl: DownloadUrl, options: ContentOptions): RevisionResponse => ({
  object: "revision",
  id: r.id,
  parents: r.parents,
  type: r.type,
  pages: pages(urls, r, options),
  files: r.files.map((f) => file(f, downloadUrl, options)),
  reusableContents: [],
  variables: r.variables,
  createdAt: r.createdAt.toISOString(),
  ...(options.metadata && r.git !== null
    ? {
      git: {
        oid: r.git.oid,
        message: r.git.message,
        createdByService: r.git.createdByService,
        ...(r.git.url === undefined ? {} : { url: r.git.url }),
        ...(r.git.ref === undefined ? {} : { ref: r.git.ref })
      }
    }
    : {}),
  urls: { app: urls.app(`/s/${r.spaceId}/~/revisions/${r.id}`) }
})
