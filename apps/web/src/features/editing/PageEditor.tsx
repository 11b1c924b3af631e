/**
 * One page of a change request in the editor: the TipTap editor (loaded with `import()`) bound to
 * the page's shared document on the collaboration server (`LivePageEditor.tsx`, docs/web.md "Live
 * editing"), which stores each change as it is typed and writes the page's markdown itself; above
 * it the page's header edited in place (cover, icon, title, description, layout: PageHeader.tsx),
 * each saved through `updateChangeRequestContent`.
 */
import { type ComponentType, type RefObject, useEffect, useMemo, useRef, useState } from "react"
import type { EditorProps, LinkTarget } from "../../editor/Editor.tsx"
import type { CatalogOperation, CatalogSpec, OpenapiCatalog } from "../../editor/blocks/openapi/catalog.ts"
import { headingsOfHtml, linkTargets, type Heading, type PageEntry } from "../../editor/commands/link-targets.ts"
import type { RevisionFile, RevisionPage } from "@quire/api"
import type { UploadedFile, UploadOptions } from "../../editor/uploads.ts"
import { createReusableContent, getPage, importFile, latestSpecContent, listFiles, listPages, listReusableContents, listSpecs, organizationOf } from "./content.ts"
import type { ReusableCatalog, ReusableSummary } from "../../editor/commands/reusable.ts"
import type { AgentWriter } from "../../editor/commands/writer.ts"
import { composeText } from "../change-request/agent-stream.ts"
import { onReusableChanged } from "./reusable-events.ts"
import { sendFile, uploadLimit } from "./file-upload.ts"
import { entryDocument, operationsOf } from "../specs/model.ts"
import { callApi } from "../../api/call.ts"
import { fileUrls } from "../files/file-urls.ts"
import { AsyncResult } from "effect/reactivity"
import { useAtomValue, useRegistry } from "../../api/react.ts"
import { sessionAtom } from "../../api/session.ts"
import type { CollabUser } from "../../editor/collab/index.ts"
import { caretColourOf } from "./live.ts"
import { LivePageEditor } from "./LivePageEditor.tsx"
import { PageHeader } from "../page-options/PageHeader.tsx"

/**
 * The editor's module, loaded with `import()` on first use. Not `React.lazy`: a Suspense retry
 * renders in a time-sliced lane, and TipTap's `useEditor` destroys an editor not mounted within
 * 1 ms of its render, which Editor.tsx's load effect then meets with a null schema.
 */
let editorModule: Promise<typeof import("../../editor/Editor.tsx")> | undefined

/** Starts loading the editor's module (once; again after a failure): the change request screen asks for it before its page is known. */
export const loadEditorModule = () =>
  (editorModule ??= import("../../editor/Editor.tsx").catch((failure: unknown) => {
    editorModule = undefined
    throw failure
  }))

const useEditorModule = (): ComponentType<EditorProps> | { readonly error: string } | undefined => {
  const [loaded, setLoaded] = useState<ComponentType<EditorProps> | { readonly error: string } | undefined>(undefined)
  useEffect(() => {
    let live = true
    loadEditorModule().then(
      (module) => live && setLoaded(() => module.Editor),
      (failure: unknown) => live && setLoaded({ error: failure instanceof Error ? failure.message : String(failure) })
    )
    return () => {
      live = false
    }
  }, [])
  return loaded
}

/** Runs `work` over `items` at most `width` at a time. */
const inBatches = async <A, B>(items: ReadonlyArray<A>, width: number, work: (item: A) => Promise<B>): Promise<Array<B>> => {
  const out: Array<B> = []
  for (let i = 0; i < items.length; i += width) out.push(...await Promise.all(items.slice(i, i + width).map(work)))
  return out
}

/** The headings of at most this many pages are offered by the link picker (each is one request). */
const MAX_HEADING_PAGES = 60

const documentPages = (pages: ReadonlyArray<PageEntry>): Array<PageEntry> => pages.flatMap((p) => [...(p.type === "document" ? [p] : []), ...documentPages(p.pages ?? [])])

/**
 * What the editor needs from the change request besides the page: the link picker's pages and headings (read
 * when it opens), the stored files' URLs (to show images), image uploads (`insert_files`, which moves `base`),
 * and the organization's OpenAPI specs and their operations (read when an OpenAPI block first shows, once).
 */
const useEditorResources = (props: { readonly spaceId: string; readonly number: number; readonly pageId: string }, base: RefObject<string>) => {
  const registry = useRegistry()
  return useMemo(() => {
    const files = fileUrls()
    const loadFiles = () => callApi(registry, listFiles(props.spaceId, props.number)).then((listed) => listed.forEach(files.remember), () => undefined)
    const targets = async (): Promise<ReadonlyArray<LinkTarget>> => {
      const pages = await callApi(registry, listPages(props.spaceId, props.number)) as ReadonlyArray<PageEntry>
      const withHeadings = documentPages(pages).slice(0, MAX_HEADING_PAGES)
      const headings = await inBatches(withHeadings, 6, (p) =>
        callApi(registry, getPage(props.spaceId, props.number, p.id, "html")).then((d) => [p.id, headingsOfHtml(d.html ?? "")] as const, () => [p.id, [] as Array<Heading>] as const))
      return linkTargets(pages, props.pageId, new Map(headings))
    }
    const limit = uploadLimit(props.spaceId, props.number)
    const stored = (answer: { readonly changeRequest: { readonly revision: string }; readonly file: RevisionFile }): UploadedFile => {
      base.current = answer.changeRequest.revision
      files.remember(answer.file)
      return { src: `/files/${answer.file.id}`, name: answer.file.name, size: answer.file.size, contentType: answer.file.contentType }
    }
    const upload = async (file: File, options: UploadOptions) => stored(await sendFile(props.spaceId, props.number, file, limit, options))
    const importImage = async (url: string) => stored(await callApi(registry, importFile(props.spaceId, props.number, url, base.current)))
    let organization: Promise<string> | undefined
    const organizationId = () => (organization ??= callApi(registry, organizationOf(props.spaceId)).catch((failure: unknown) => {
      organization = undefined
      throw failure
    }))
    let specs: Promise<ReadonlyArray<CatalogSpec>> | undefined
    const operations = new Map<string, Promise<ReadonlyArray<CatalogOperation>>>()
    const openapi: OpenapiCatalog = {
      specs: () => (specs ??= organizationId()
        .then((org) => callApi(registry, listSpecs(org)))
        .then((listed) => listed.map((spec) => ({ slug: spec.slug, processed: spec.lastVersion !== undefined })))
        .catch((failure: unknown) => {
          specs = undefined
          throw failure
        })),
      operations: (slug) => {
        const known = operations.get(slug)
        if (known !== undefined) return known
        const loading = organizationId().then((org) => callApi(registry, latestSpecContent(org, slug))).then((content) => operationsOf(entryDocument(content)))
        operations.set(slug, loading)
        loading.catch(() => operations.delete(slug))
        return loading
      }
    }
    // Read when the slash menu first opens, again after a failure or a creation.
    let reusableList: Promise<ReadonlyArray<ReusableSummary>> | undefined
    // The include blocks that follow renames made elsewhere; one window listener while there are any.
    const reusableListeners = new Set<() => void>()
    let stopListening: (() => void) | undefined
    const reusable: ReusableCatalog = {
      list: () => (reusableList ??= callApi(registry, listReusableContents(props.spaceId, props.number)).catch((failure: unknown) => {
        reusableList = undefined
        throw failure
      })),
      create: async (title, markdown) => {
        const created = await callApi(registry, createReusableContent(props.spaceId, props.number, { title, markdown }))
        reusableList = undefined
        return created
      },
      onChange: (listener) => {
        reusableListeners.add(listener)
        stopListening ??= onReusableChanged({ spaceId: props.spaceId, number: props.number }, () => {
          reusableList = undefined
          for (const each of reusableListeners) each()
        })
        return () => {
          reusableListeners.delete(listener)
          if (reusableListeners.size > 0) return
          stopListening?.()
          stopListening = undefined
        }
      }
    }
    // "Write with AI" and "Improve": the change request's agent writes, with the person's rights.
    const writer: AgentWriter = { compose: (input) => composeText(props.spaceId, props.number, input) }
    return { loadFiles, fileUrl: files.resolve, file: files.find, targets, upload, importImage, openapi, reusable, writer }
  }, [props.spaceId, props.number, props.pageId, base, registry])
}

interface PageEditorProps {
  readonly spaceId: string
  readonly changeRequestId: string
  readonly number: number
  readonly pageId: string
  /**
   * The page as the change request's tree lists it: its header (title, description, icon, cover,
   * layout) is drawn from it, with no read of the page's body (a long page's is megabytes), so the
   * shared document is asked for at once. The header reads the markdown when it saves.
   */
  readonly page: RevisionPage
  /** The change request's revision when the screen read it: the base of the page's edits. */
  readonly revision: string
  /** Called after a save of the page's header (the tree shows titles and icons). */
  readonly onMetadataSaved: () => void
  /** The change request is merged or archived: the page opens read-only (its header too). */
  readonly readOnly?: boolean | undefined
  /** The page or the change request changed under the writer (deleted, merged, archived). */
  readonly onChangedUnder?: (() => void) | undefined
}

/** The signed-in person as the others see them (their name by their caret and in the page tree, in their colour). */
export const useEditingPerson = (): CollabUser | undefined => {
  const session = useAtomValue(sessionAtom)
  if (!AsyncResult.isSuccess(session) || !session.value.signedIn) return undefined
  const { user } = session.value.info
  return { id: user.id, name: user.displayName, colour: caretColourOf(user.id) }
}

/**
 * A page edited live: the shared document in the editor, the title and description saved on the
 * change request's revision as read just before (the page's text is the server's to write).
 */
const LivePage = (props: PageEditorProps & { readonly person: CollabUser }) => {
  const Editor = useEditorModule()
  const base = useRef(props.revision)
  const resources = useEditorResources(props, base)
  const [headerState, setHeaderState] = useState<"open" | "saving" | undefined>(undefined)
  useEffect(() => void resources.loadFiles(), [resources])
  if (Editor !== undefined && "error" in Editor) return <p role="alert" className="form-error">Could not load the editor: {Editor.error}</p>
  // The shared document is asked for while the editor's module loads; the header is drawn at once
  // and the editor under it, so nothing moves the page under a click or a caret already placed.
  return (
    <LivePageEditor changeRequestId={props.changeRequestId} pageId={props.pageId} user={props.person} Editor={Editor} resources={resources}
      header={<PageHeader spaceId={props.spaceId} number={props.number} page={props.page} fileUrl={resources.fileUrl} loadFiles={resources.loadFiles}
        onState={setHeaderState} onSaved={(revision) => { base.current = revision; props.onMetadataSaved() }} />}
      headerState={headerState} readOnly={props.readOnly} onChangedUnder={props.onChangedUnder}
      page={{ spaceId: props.spaceId, number: props.number, pageId: props.pageId, title: props.page.title }} />
  )
}

/** The page's editor, once the session says who is editing. */
export const PageEditor = (props: PageEditorProps) => {
  const person = useEditingPerson()
  return person === undefined ? <p className="muted" role="status">Loading the editor…</p> : <LivePage {...props} person={person} />
}
