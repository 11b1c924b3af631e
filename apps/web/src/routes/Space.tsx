/**
 * `/s/<spaceId>/<page path>`: the space's frame, its page tree from the API (groups, nested
 * pages, links) and the page area: the page's body as the published site draws it (`getPageById`
 * with `format=html`, styled by the server's /app/render.css, the site's own rules), its links
 * to other pages followed within the app; its table of contents, last edit, comments with replies,
 * "Edit" (the person's latest draft) and "New change request", the space's open change requests
 * with links to all of them and to History (src/features/space/).
 */
import { AsyncResult } from "effect/reactivity"
import { type MouseEvent, useEffect, useRef } from "react"
import { pageAtom, pageByPathAtom, pagesAtom, spaceAtom } from "../api/queries.ts"
import { failureOf } from "../api/react.ts"
import { useAtomValue } from "../api/react.ts"
import { emojiOf } from "../features/palette/Palette.tsx"
import { navigate } from "../router.ts"
import { apiErrorName, Failure, Loading } from "../ui/States.tsx"
import { EditButton } from "../features/editing/EditButton.tsx"
import { LastEdit, OpenChangeRequests, PageBacklinks, PageComments, SpaceReusableContents, Toc } from "../features/space/SpaceSide.tsx"
import { extractToc } from "../features/space/toc.ts"
import { flattenPages, PageTree } from "../features/space/PageTree.tsx"
import { SpaceToolbar } from "../features/space/SpaceToolbar.tsx"
import { SpaceStart } from "../features/onboarding/SpaceStart.tsx"
import { useFindInPage } from "../features/search/useFindInPage.ts"
import { linkRenderStylesheet } from "../ui/render-stylesheet.ts"
import { BreadcrumbTail, Crumb, RightPanel, SidebarPages } from "../ui/Frame.tsx"
import { EmptyState } from "../ui/EmptyState.tsx"
import { PageIcon } from "../ui/icons.tsx"

/** A plain click on a link to a page of this app navigates within it. */
const followAppLinks = (event: MouseEvent<HTMLDivElement>) => {
  const anchor = (event.target as Element).closest("a")
  if (anchor === null || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const url = new URL(anchor.href, window.location.href)
  if (url.origin !== window.location.origin || !/^\/(s|o)\//.test(url.pathname)) return
  event.preventDefault()
  navigate(`${url.pathname}${url.search}${url.hash}`)
}

/** The published site's stylesheet of page bodies, linked once (the server serves it, revalidated). */
const useRenderStylesheet = () => useEffect(linkRenderStylesheet, [])

/** The page at `pagePath` when there is one (fetched at once, beside the tree), else the page `pageId` (the space's first, from the tree). */
const PageArea = (props: { readonly spaceId: string; readonly pageId?: string | undefined; readonly pagePath: string }) => {
  const page = useAtomValue(props.pageId === undefined ? pageByPathAtom(`${props.spaceId}\n${props.pagePath}`) : pageAtom(`${props.spaceId}\n${props.pageId}`))
  const body = useRef<HTMLDivElement>(null)
  useFindInPage(body, AsyncResult.isSuccess(page) && page.value.kind === "sheet" ? page.value.html : undefined)
  if (AsyncResult.isInitial(page)) return <Loading what="the page" />
  if (AsyncResult.isFailure(page)) return apiErrorName(failureOf(page)) === "NotFound" ? <p>No page at <code>{props.pagePath}</code>.</p> : <Failure result={page} />
  // A group's or a link's path names no page to read.
  if (page.value.kind !== "sheet") return <p>No page at <code>{props.pagePath}</code>.</p>
  return (
    <article>
      <div className="space-page-header">
        {/* The page's title is the screen's heading, large, as GitBook's; the space is named above it. */}
        <h1 className="space-page-title">{`${emojiOf(page.value.emoji)} ${page.value.title}`.trim()}</h1>
        <EditButton spaceId={props.spaceId} pagePath={props.pagePath} subject={`Edit “${page.value.title}”`} />
      </div>
      {page.value.description === undefined ? null : <p className="space-page-description">{page.value.description}</p>}
      <LastEdit spaceId={props.spaceId} updatedAt={"updatedAt" in page.value && typeof page.value.updatedAt === "string" ? page.value.updatedAt : undefined} />
      {page.value.html === undefined
        ? <pre className="source">{page.value.markdown ?? ""}</pre>
        // The server's sanitized rendering, as the published site shows it.
        : <div className="markdown" ref={body} onClick={followAppLinks} dangerouslySetInnerHTML={{ __html: page.value.html }} />}
    </article>
  )
}

/** The page's outline and comments, in the right panel. */
const PageSide = (props: { readonly spaceId: string; readonly pageId?: string | undefined; readonly pagePath: string }) => {
  const page = useAtomValue(props.pageId === undefined ? pageByPathAtom(`${props.spaceId}\n${props.pagePath}`) : pageAtom(`${props.spaceId}\n${props.pageId}`))
  if (!AsyncResult.isSuccess(page) || page.value.kind !== "sheet") return null
  return (
    <>
      <Toc entries={extractToc(page.value.html ?? "")} />
      <PageBacklinks spaceId={props.spaceId} pageId={page.value.id} />
      <PageComments spaceId={props.spaceId} pageId={page.value.id} />
    </>
  )
}

export const Space = (props: { readonly spaceId: string; readonly pagePath: string }) => {
  useRenderStylesheet()
  const space = useAtomValue(spaceAtom(props.spaceId))
  const pages = useAtomValue(pagesAtom(props.spaceId))
  if (AsyncResult.isFailure(space)) return <Failure result={space} />
  const all = AsyncResult.isSuccess(pages) ? flattenPages(pages.value.pages) : []
  const documents = all.filter((page) => page.kind === "sheet")
  const current = props.pagePath === "" ? documents[0] : documents.find((page) => page.path === props.pagePath)
  return (
    <>
      {/* The space's name; the screen's heading is its page's title (an empty space's start is headed by its name). */}
      <div className="space-head">
        {AsyncResult.isSuccess(pages) && documents.length === 0
          ? <h1>{AsyncResult.isSuccess(space) ? `${emojiOf(space.value.emoji)} ${space.value.title}`.trim() : "Space"}</h1>
          : <p className="space-name">{AsyncResult.isSuccess(space) ? `${emojiOf(space.value.emoji)} ${space.value.title}`.trim() : "Space"}</p>}
        {AsyncResult.isSuccess(space)
          ? <SpaceToolbar space={space.value} hasPages={documents.length > 0}
              page={current === undefined ? undefined : { id: current.id, title: current.title, path: current.path ?? "", hasSubpages: (current.pages ?? []).length > 0 }} />
          : null}
      </div>
      <SidebarPages>
        <nav aria-label="Pages" className="sidebar-section">
          <div className="sidebar-heading" aria-hidden="true">Pages</div>
          {AsyncResult.isFailure(pages) ? <Failure result={pages} /> : AsyncResult.isInitial(pages) ? <Loading what="pages" />
            : documents.length === 0 ? <EmptyState compact icon={<PageIcon />} title="No pages yet" />
            : <PageTree pages={pages.value.pages} hrefOf={(page) => `/s/${props.spaceId}/${page.path}`} current={current?.id} />}
        </nav>
      </SidebarPages>
      <BreadcrumbTail>{current === undefined ? null : <Crumb current>{`${emojiOf(current.emoji)} ${current.title}`.trim()}</Crumb>}</BreadcrumbTail>
      <RightPanel label="Page details">
        {props.pagePath !== "" ? <PageSide spaceId={props.spaceId} pagePath={props.pagePath} />
          : current === undefined ? null
          : <PageSide spaceId={props.spaceId} pageId={current.id} pagePath={current.path ?? ""} />}
        <OpenChangeRequests spaceId={props.spaceId} />
        <SpaceReusableContents spaceId={props.spaceId} />
      </RightPanel>
      {AsyncResult.isSuccess(pages) && documents.length === 0
        ? <><p className="muted">This space has no pages yet.</p>{AsyncResult.isSuccess(space) ? <SpaceStart space={space.value} /> : null}</>
        : props.pagePath !== "" ? <PageArea spaceId={props.spaceId} pagePath={props.pagePath} />
        : current === undefined ? null
        : <PageArea spaceId={props.spaceId} pageId={current.id} pagePath={current.path ?? ""} />}
    </>
  )
}
