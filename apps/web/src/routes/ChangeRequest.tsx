/**
 * `/s/<space>/~/changes/<n>/<page path>`: a change request's content, where its pages are edited:
 * the header shared with its review (ChangeRequestHeader.tsx: subject, editable; state; Edit /
 * Review; Preview), the change request's page tree (add pages, groups and links, rename, delete,
 * move) and the page in the editor under its header edited in place (cover, icon, title,
 * description, layout), edited live on the collaboration server (src/features/editing). The right
 * panel holds who else is in the change request (LivePresence.tsx, also beside the pages of the
 * tree they have open), the page's review comments (PageThreads.tsx) and its outline. The tree is
 * drawn in the workspace's sidebar (ui/Frame.tsx).
 */
import type { ChangeRequest as ChangeRequestInfo, ChangeRequestContentChange, RevisionPage } from "@quire/api"
import { useCallback, useEffect, useRef, useState } from "react"
import { callApi } from "../api/call.ts"
import { useRegistry } from "../api/react.ts"
import { getChangeRequest, listPages, updateContent } from "../features/editing/content.ts"
import { EditorOutline } from "../features/editing/EditorOutline.tsx"
import { LiveChangeRequest, PageMarks, PeopleHere } from "../features/editing/LivePresence.tsx"
import { ReusableContents } from "../features/editing/ReusableContents.tsx"
import { loadEditorModule, PageEditor, useEditingPerson } from "../features/editing/PageEditor.tsx"
import { AgentChat } from "../features/change-request/AgentChat.tsx"
import { ChangeRequestHeader } from "../features/change-request/ChangeRequestHeader.tsx"
import { PageThreads } from "../features/change-request/PageThreads.tsx"
import { ChangeRequestTree } from "../features/page-tree/ChangeRequestTree.tsx"
import { navigate } from "../router.ts"
import { ChangeRequestState } from "../ui/ChangeRequestState.tsx"
import { BreadcrumbTail, Crumb, RightPanel, SidebarPages } from "../ui/Frame.tsx"
import { Link } from "../ui/Link.tsx"
import "../features/editing/editing.css"

interface Content {
  readonly cr: ChangeRequestInfo
  readonly pages: ReadonlyArray<RevisionPage>
}

const documents = (pages: ReadonlyArray<RevisionPage>): Array<RevisionPage> =>
  pages.flatMap((page) => [...(page.type === "document" ? [page] : []), ...documents(page.pages ?? [])])

const messageOf = (failure: unknown) => failure instanceof Error ? failure.message : String(failure)

/** The address of the open page once it has another (replacing, so Back does not return to the old one). */
const FollowPath = (props: { readonly to: string }) => {
  useEffect(() => navigate(props.to, { replace: true }), [props.to])
  return null
}

export const ChangeRequest = (props: { readonly spaceId: string; readonly number: number; readonly pagePath: string }) => {
  const [content, setContent] = useState<Content | { readonly error: string } | undefined>(undefined)
  const person = useEditingPerson()
  const registry = useRegistry()
  // The page in the editor: deleted from the change request while open, it stays there, read-only,
  // with what was typed in it offered back (LivePageEditor.tsx), until the person leaves it.
  const opened = useRef<RevisionPage | undefined>(undefined)
  // Reads may answer out of order (one's own edit and someone else's, at once): an answer older
  // than the one drawn is not drawn.
  const reads = useRef({ asked: 0, drawn: 0 })
  const read = useCallback(async (quiet: boolean): Promise<Content | undefined> => {
    const asked = ++reads.current.asked
    const draw = (next: Content | { readonly error: string }) => {
      if (asked < reads.current.drawn) return
      reads.current.drawn = asked
      // The same content again (one's own edit, already read) draws nothing.
      setContent((before) => before !== undefined && "cr" in next && "cr" in before && JSON.stringify(before) === JSON.stringify(next) ? before : next)
    }
    try {
      const [cr, pages] = await Promise.all([callApi(registry, getChangeRequest(props.spaceId, props.number)), callApi(registry, listPages(props.spaceId, props.number))])
      draw({ cr, pages })
      return { cr, pages }
    } catch (failure) {
      // A read in the background that fails leaves the screen as it is; the next change reads again.
      if (!quiet) draw({ error: messageOf(failure) })
      return undefined
    }
  }, [props.spaceId, props.number, registry])
  const reload = useCallback(() => read(false), [read])
  useEffect(() => {
    void reload()
  }, [reload])
  // Someone changed the change request's content (its pages, their titles, their order): read it
  // again. Told again while reading (a script's many writes), it reads once more after, not once a write.
  const refreshing = useRef<"idle" | "reading" | "again">("idle")
  const refresh = useCallback(() => {
    if (refreshing.current !== "idle") return void (refreshing.current = "again")
    refreshing.current = "reading"
    const next = (): Promise<void> => read(true).then(() => {
      if (refreshing.current === "again") {
        refreshing.current = "reading"
        return next()
      }
      refreshing.current = "idle"
    })
    void next()
  }, [read])
  // The editor's module loads beside the change request, not after it.
  useEffect(() => void loadEditorModule().catch(() => undefined), [])
  const base = `/s/${props.spaceId}/~/changes/${props.number}`
  if (content === undefined) return <p className="muted" role="status">Loading the change request…</p>
  if ("error" in content) return <div className="panel" role="alert"><p>Could not open change request #{props.number}: {content.error}</p></div>
  const docs = documents(content.pages)
  const found = props.pagePath === "" ? docs[0] : docs.find((page) => page.path === props.pagePath)
  const kept = opened.current !== undefined && (props.pagePath === "" || opened.current.path === props.pagePath) && !docs.some((page) => page.id === opened.current?.id)
  // The open page given another address (its slug changed, as a first page's does with its title):
  // it stays open, and the address follows it (below).
  const moved = found === undefined && props.pagePath !== "" && opened.current !== undefined ? docs.find((page) => page.id === opened.current?.id && page.path !== props.pagePath) : undefined
  const current = found ?? moved ?? (kept ? opened.current : undefined)
  opened.current = current
  // Merged or archived: shown as it is, and nothing in it changes.
  const editable = content.cr.status === "draft" || content.cr.status === "open"
  const onChanges = async (changes: ReadonlyArray<ChangeRequestContentChange>) => {
    if (!editable) throw new Error(`This change request is ${content.cr.status}: it can no longer be changed. Start a new change request to edit the space.`)
    const before = new Set(docs.map((page) => page.id))
    await callApi(registry, updateContent(props.spaceId, props.number, changes, content.cr.revision))
    const read = await reload()
    // A page just added opens, so that what is typed next goes into it.
    const [added] = changes.length === 1 && changes[0]!.operation === "insert_page" && read !== undefined
      ? documents(read.pages).filter((page) => !before.has(page.id))
      : []
    if (added !== undefined) navigate(`${base}/${added.path}`)
  }
  const titleOf = (pageId: string) => docs.find((page) => page.id === pageId)?.title
  return (
    <LiveChangeRequest changeRequestId={content.cr.id} pageId={current?.id} person={person} onChanged={refresh}>
      {moved === undefined ? null : <FollowPath to={`${base}/${moved.path ?? ""}`} />}
      <ChangeRequestHeader spaceId={props.spaceId} cr={content.cr} view="edit" editable={editable} onChanged={() => void reload()}>
        {editable ? null : (
          <p className="cr-closed">
            {content.cr.status === "merged"
              ? "This change request is merged into the space: it is shown as it was, and can no longer be edited."
              : "This change request is archived: it is shown read-only. Reopen it to edit it."}
          </p>
        )}
      </ChangeRequestHeader>
      <BreadcrumbTail>
        <Crumb><Link href={base}><span className="crumb-long">Change request </span>#{content.cr.number}</Link> <ChangeRequestState status={content.cr.status} /></Crumb>
        {current === undefined ? null : <Crumb current>{current.title}</Crumb>}
      </BreadcrumbTail>
      <SidebarPages>
        <nav aria-label="Pages of the change request" className="sidebar-section">
          <div className="sidebar-heading" aria-hidden="true">Pages</div>
          <ChangeRequestTree pages={content.pages} base={base} currentId={current?.id} onChanges={onChanges} editable={editable}
            marks={person === undefined ? undefined : (pageId) => <PageMarks pageId={pageId} />} />
        </nav>
        <ReusableContents spaceId={props.spaceId} number={props.number} pages={docs} editable={content.cr.status === "draft" || content.cr.status === "open"} />
      </SidebarPages>
      <RightPanel label="Change request details">
        <PeopleHere titleOf={titleOf} />
        <AgentChat spaceId={props.spaceId} changeRequestId={content.cr.id} base={base} editable={editable}
          pagePaths={new Map(docs.map((page) => [page.id, page.path ?? ""]))} onChanged={refresh} />
        {current === undefined ? null : <PageThreads spaceId={props.spaceId} number={props.number} pageId={current.id} />}
        <EditorOutline />
      </RightPanel>
      <div className="cr-layout">
        <section aria-label="Page">
          {current === undefined
            ? <p>{docs.length === 0 ? "This change request has no pages yet: add one." : <>No page at <code>{props.pagePath}</code>.</>}</p>
            : (
              <PageEditor key={current.id} spaceId={props.spaceId} changeRequestId={content.cr.id} number={props.number} pageId={current.id} page={current}
                revision={content.cr.revision} onMetadataSaved={() => void reload()} readOnly={!editable} onChangedUnder={() => void reload()} />
            )}
        </section>
      </div>
    </LiveChangeRequest>
  )
}
