/**
 * `/s/<spaceId>/<page path>`: the space's frame, its page tree from the API (groups, nested
 * pages, links) and the page area: the page's body as the published site draws it (`getPageById`
 * with `format=html`, styled by the server's /app/render.css, the site's own rules), its links
 * to other pages followed within the app; its table of contents, last edit, comments with replies,
 * "Edit", and the space's open change requests with a link to History (src/features/space/).
 */
import { AsyncResult } from "effect/reactivity"
import { type MouseEvent, useEffect } from "react"
import type { RevisionPage } from "@quire/api"
import { pageAtom, pagesAtom, spaceAtom } from "../api/queries.ts"
import { useAtomValue } from "../api/react.ts"
import { emojiOf } from "../features/palette/Palette.tsx"
import { navigate } from "../router.ts"
import { Link } from "../ui/Link.tsx"
import { Failure, Loading } from "../ui/States.tsx"
import { EditButton } from "../features/editing/EditButton.tsx"
import { LastEdit, OpenChangeRequests, PageComments, Toc } from "../features/space/SpaceSide.tsx"
import { extractToc } from "../features/space/toc.ts"

const PageTree = (props: { readonly spaceId: string; readonly pages: ReadonlyArray<RevisionPage>; readonly current: string | undefined }) => (
  <ul className="page-tree">
    {props.pages.map((page) => (
      <li key={page.id}>
        {page.kind === "group" ? <div className="group">{page.title}</div>
          : page.kind === "link" ? <a href={page.href ?? "#"} rel="noreferrer">{page.title} ↗</a>
          : <Link href={`/s/${props.spaceId}/${page.path}`} aria-current={page.id === props.current ? "page" : undefined}>{emojiOf(page.emoji)} {page.title}</Link>}
        {page.pages === undefined || page.pages.length === 0 ? null : <PageTree spaceId={props.spaceId} pages={page.pages} current={props.current} />}
      </li>
    ))}
  </ul>
)

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
const useRenderStylesheet = () =>
  useEffect(() => {
    if (document.querySelector("link[data-render-css]") !== null) return
    const link = document.createElement("link")
    link.rel = "stylesheet"
    link.href = "/app/render.css"
    link.dataset["renderCss"] = ""
    document.head.append(link)
  }, [])

const flatten = (pages: ReadonlyArray<RevisionPage>): ReadonlyArray<RevisionPage> =>
  pages.flatMap((page) => [page, ...flatten(page.pages ?? [])])

const PageArea = (props: { readonly spaceId: string; readonly pageId: string; readonly pagePath: string }) => {
  const page = useAtomValue(pageAtom(`${props.spaceId}\n${props.pageId}`))
  if (AsyncResult.isInitial(page)) return <Loading what="the page" />
  if (AsyncResult.isFailure(page)) return <Failure result={page} />
  return (
    <article>
      <div className="space-page-header">
        <h2>{page.value.title}</h2>
        <EditButton spaceId={props.spaceId} pagePath={props.pagePath} />
      </div>
      {page.value.description === undefined ? null : <p className="muted">{page.value.description}</p>}
      <LastEdit spaceId={props.spaceId} updatedAt={"updatedAt" in page.value && typeof page.value.updatedAt === "string" ? page.value.updatedAt : undefined} />
      <Toc entries={extractToc(page.value.html ?? "")} />
      {page.value.html === undefined
        ? <pre className="source">{page.value.markdown ?? ""}</pre>
        // The server's sanitized rendering, as the published site shows it.
        : <div className="markdown" onClick={followAppLinks} dangerouslySetInnerHTML={{ __html: page.value.html }} />}
      <PageComments spaceId={props.spaceId} pageId={props.pageId} />
    </article>
  )
}

export const Space = (props: { readonly spaceId: string; readonly pagePath: string }) => {
  useRenderStylesheet()
  const space = useAtomValue(spaceAtom(props.spaceId))
  const pages = useAtomValue(pagesAtom(props.spaceId))
  if (AsyncResult.isFailure(space)) return <Failure result={space} />
  const all = AsyncResult.isSuccess(pages) ? flatten(pages.value.pages) : []
  const documents = all.filter((page) => page.kind === "sheet")
  const current = props.pagePath === "" ? documents[0] : documents.find((page) => page.path === props.pagePath)
  return (
    <>
      <h1>{AsyncResult.isSuccess(space) ? `${emojiOf(space.value.emoji)} ${space.value.title}`.trim() : "Space"}</h1>
      {AsyncResult.isSuccess(space) ? <p><Link href={`/o/${space.value.organization}`}>Back to the organization</Link></p> : null}
      <div className="space-layout">
        <nav aria-label="Pages">
          <details className="space-tree" open={typeof window === "undefined" || window.innerWidth >= 700}>
          <summary>Pages</summary>
          {AsyncResult.isFailure(pages) ? <Failure result={pages} /> : AsyncResult.isInitial(pages) ? <Loading what="pages" />
            : documents.length === 0 ? <p className="muted">This space has no pages yet.</p>
            : <PageTree spaceId={props.spaceId} pages={pages.value.pages} current={current?.id} />}
          </details>
          <OpenChangeRequests spaceId={props.spaceId} />
        </nav>
        <div>
          {current === undefined
            ? (AsyncResult.isSuccess(pages) && documents.length > 0 ? <p>No page at <code>{props.pagePath}</code>.</p> : null)
            : <PageArea spaceId={props.spaceId} pageId={current.id} pagePath={current.path ?? ""} />}
        </div>
      </div>
    </>
  )
}
