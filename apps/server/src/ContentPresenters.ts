/** Space content to the API's JSON shapes (GitBook's Revision, RevisionPage and RevisionFile). */
import type {
  ContentLinkList,
  ContentReference,
  Organization as OrganizationResponse,
  Revision as RevisionResponse,
  RevisionFile as RevisionFileResponse,
  RevisionPage as RevisionPageResponse,
  RevisionSummary as RevisionSummaryResponse,
  SearchPageResult,
  SearchSpaceResult,
  Space as SpaceResponse
} from "@quire/api"
import type {
  FileNode,
  LinkGraph,
  LinkItem,
  LinkList,
  LocatedPage,
  PageLayout,
  PageNode,
  PageResult,
  Revision,
  RevisionHeader,
  SpaceResults
} from "@quire/content"
import type { PublicUrl } from "./PublicUrl.ts"
import { reusableContent } from "./ReusableContentPresenters.ts"

type Urls = PublicUrl["Service"]

/** What a read asked for: `metadata=false` leaves Git metadata out. */
export interface ContentOptions {
  readonly metadata: boolean
}

/** Signs a file's download URL. */
export type DownloadUrl = (file: FileNode) => string

/** A page's layout with GitBook's defaults filled in. */
export const layout = (given: PageLayout | undefined): NonNullable<RevisionPageResponse["layout"]> => ({
  width: given?.width ?? "default",
  cover: given?.cover ?? true,
  coverSize: given?.coverSize ?? "hero",
  title: given?.title ?? true,
  description: given?.description ?? true,
  tableOfContents: given?.tableOfContents ?? true,
  outline: given?.outline ?? true,
  pagination: given?.pagination ?? true,
  metadata: given?.metadata ?? true,
  // Not stored by Quire: GitBook's defaults, which GitBook's renderer reads.
  coverMask: "none",
  tags: true,
  actions: true,
  anchors: true
})

/** The app URL of a page of a space. */
export const pageAppUrl = (urls: Urls, spaceId: string, path: string) => urls.app(`/s/${spaceId}/${path}`)

/** A page's body as a single-page read answers it: `markdown`, `document` or (Quire's `format=html`) `html` (PageBodyRenderer draws it). */
export type PageBody = Pick<RevisionPageResponse, "markdown" | "document" | "html">

/** A link page's target as GitBook writes it: a link to a heading of a page is an anchor reference. */
const targetRef = (target: NonNullable<PageNode["target"]>): NonNullable<RevisionPageResponse["target"]> =>
  target.kind === "page" && target.anchor !== undefined ? { kind: "anchor", anchor: target.anchor, page: target.page } : target

/**
 * A page and its subpages, with the path of each (slugs from the root). Trees never carry bodies;
 * `body` adds the page's own `markdown`, `document` or `html` on single-page reads.
 */
export const page = (
  urls: Urls,
  spaceId: string,
  node: PageNode,
  path: string,
  options: ContentOptions,
  body: PageBody = {}
): RevisionPageResponse => {
  const common = {
    id: node.id,
    title: node.title,
    ...(node.linkTitle === undefined ? {} : { linkTitle: node.linkTitle }),
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
        ...(node.target === undefined ? {} : { target: targetRef(node.target) }),
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
              yPos: node.cover.yPos ?? 0,
              ...(node.cover.height === undefined ? {} : { height: node.cover.height })
            }
          }),
        ...(node.variables === undefined ? {} : { variables: node.variables }),
        urls: { app: pageAppUrl(urls, spaceId, path) },
        tags: [],
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
  reusableContents: (r.reusableContents ?? []).map((node) => reusableContent(node, options)),
  tags: [],
  variables: r.variables,
  createdAt: r.createdAt.toISOString(),
  ...(options.metadata && r.git !== null
    ? {
      git: {
        oid: r.git.oid,
        message: r.git.message,
        createdByService: r.git.createdByService,
        createdByGitBook: r.git.createdByService,
        ...(r.git.url === undefined ? {} : { url: r.git.url }),
        ...(r.git.ref === undefined ? {} : { ref: r.git.ref })
      }
    }
    : {}),
  urls: { app: urls.app(`/s/${r.spaceId}/~/revisions/${r.id}`) }
})

/** A revision of main's history, without its tree (Quire's `listRevisionsInSpace`). */
export const revisionSummary = (urls: Urls, r: RevisionHeader): RevisionSummaryResponse => ({
  object: "revision",
  id: r.id,
  parents: r.parents,
  type: r.type,
  createdAt: r.createdAt.toISOString(),
  ...(r.git === null
    ? {}
    : {
      git: {
        oid: r.git.oid,
        message: r.git.message,
        createdByService: r.git.createdByService,
        createdByGitBook: r.git.createdByService,
        ...(r.git.url === undefined ? {} : { url: r.git.url }),
        ...(r.git.ref === undefined ? {} : { ref: r.git.ref })
      }
    }),
  urls: { app: urls.app(`/s/${r.spaceId}/~/revisions/${r.id}`) }
})

// Search -----------------------------------------------------------------------------------------

/** A page of search results, with its best sections (their `body` is an excerpt around the match). */
export const searchPage = (urls: Urls, result: PageResult): SearchPageResult => {
  const app = pageAppUrl(urls, result.spaceId, result.path)
  return {
    id: result.pageId,
    title: result.title,
    description: result.description,
    path: result.path,
    score: result.score,
    rank: result.rank,
    ancestors: result.ancestors.map((title) => ({ title })),
    sections: result.sections.map((section) => ({
      id: section.anchor === "" ? result.pageId : `${result.pageId}#${section.anchor}`,
      title: section.title,
      path: result.path,
      body: section.body,
      score: section.score,
      urls: { app: section.anchor === "" ? app : `${app}#${section.anchor}` }
    })),
    urls: { app }
  }
}

/** A space of organization search results. */
export const searchSpace = (urls: Urls, result: SpaceResults): SearchSpaceResult => ({
  type: "space",
  id: result.space.space.id,
  title: result.space.space.title,
  score: Math.max(0, ...result.pages.map((p) => p.score)),
  pages: result.pages.map((p) => searchPage(urls, p))
})

// Links ------------------------------------------------------------------------------------------

/** What every reference of a listing shares: the organization and space as the caller sees them, the revision. */
export interface ReferenceContext {
  readonly urls: Urls
  readonly organization: OrganizationResponse
  readonly space: SpaceResponse
  readonly graph: LinkGraph
  readonly downloadUrl: DownloadUrl
}

const versionContext = (context: ReferenceContext) => ({ type: "revision" as const, revision: context.graph.revision.id })

/** A page of the revision as a reference (without its subpages: a reference names one page). */
export const pageReference = (context: ReferenceContext, located: LocatedPage): ContentReference => ({
  kind: "page",
  organization: context.organization,
  space: context.space,
  page: page(context.urls, context.graph.revision.spaceId, { ...located.page, pages: [] }, located.path, { metadata: true }),
  versionContext: versionContext(context)
})

/** Where a link points: the page or file of the revision, else (URLs, broken links) the URL as written. */
const targetReference = (context: ReferenceContext, item: LinkItem): ContentReference => {
  const target = item.target
  if (item.status !== "broken" && target.kind === "page" && "page" in target) {
    const located = context.graph.pages.get(target.page)
    if (located !== undefined) return pageReference(context, located)
  }
  if (item.status !== "broken" && target.kind === "file") {
    const found = context.graph.revision.files.find((f) => f.id === target.file)
    if (found !== undefined) {
      return {
        kind: "file",
        organization: context.organization,
        space: context.space,
        file: file(found, context.downloadUrl, { metadata: true }),
        versionContext: versionContext(context)
      }
    }
  }
  return { kind: "url", url: target.kind === "url" ? target.url : item.url }
}

export const linkList = (context: ReferenceContext, list: LinkList): ContentLinkList => ({
  ...(list.items.next === undefined ? {} : { next: { page: list.items.next } }),
  count: list.items.items.length,
  items: list.items.items.map((item) => ({
    status: item.status,
    relation: "reference" as const,
    targetReference: targetReference(context, item),
    locationReferences: item.locations.flatMap((id) => {
      const located = context.graph.pages.get(id)
      return located === undefined ? [] : [pageReference(context, located)]
    })
  })),
  stats: { total: list.stats.total, broken: { total: list.stats.broken, changeRequest: 0 } }
})
