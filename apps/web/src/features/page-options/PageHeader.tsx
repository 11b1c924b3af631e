/**
 * A page's header in a change request, edited in place as GitBook's: its cover as a banner
 * ("Change cover", "Remove"), its icon, its title as a large heading and its description under
 * it; hovering the header (or moving into it by keyboard) shows "Add icon", "Add cover" and
 * "Layout" (width, shown parts, the cover's height and position). Each edit is saved at once
 * through `updateChangeRequestContent` (options-model.ts says how), one after another; a refusal
 * is said beside the field it concerns. Enter in the title moves into the description, Enter in
 * the description into the editor's first block.
 */
import type { ChangeRequestContentChange, RevisionFile, RevisionPage } from "@quire/api"
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from "react"
import { callApi } from "../../api/call.ts"
import { useRegistry } from "../../api/react.ts"
import { firstPageTitle, getChangeRequest, getPage, listFiles, titleSlug, updateContent } from "../editing/content.ts"
import { sendFile, uploadLimit } from "../editing/file-upload.ts"
import type { FileUrlResolver } from "../files/file-urls.ts"
import { type Field, optionsChange, optionsOf, type Options, problemsOf, visibilityKeys, visibilityLabels } from "./options-model.ts"
import "./page-options.css"

/** The emoji offered by "Add icon"; any other is typed. */
const emojiChoices = ["📘", "📄", "🚀", "💡", "⚙️", "🔒", "🧭", "🛠️", "📦", "✅", "⚠️", "❓", "🎯", "📊", "🔌", "🌍"]

type HeaderField = Field | "title" | "description"
type Problems = Partial<Record<HeaderField, string>>
type Panel = "icon" | "cover" | "layout"

const messageOf = (failure: unknown) => failure instanceof Error ? failure.message : String(failure)

/** The field an API refusal of an options save is about, from the words of its message. */
const fieldOf = (message: string, asked: Field): Field =>
  /coverHeight/.test(message) ? "coverHeight" : /coverY/.test(message) ? "coverY" : /insert_files|file/i.test(message) ? "upload"
    : /cover/i.test(message) ? "cover" : /icon|emoji/i.test(message) ? "icon" : asked

/** A problem said in words, tied to its control by `id`. */
const Problem = (props: { readonly id: string; readonly text: string | undefined }) =>
  props.text === undefined ? null : <p id={props.id} className="form-error" role="alert">{props.text}</p>

/** Moves the caret to the start of the editor's first block that takes text (not the frontmatter's). */
const focusFirstBlock = (from: HTMLElement) => {
  const editor = from.closest(".page-editor")?.querySelector<HTMLElement>(".quire-editor")
  if (editor === null || editor === undefined) return
  editor.focus()
  const first = [...editor.children].find((child) => child.getAttribute("contenteditable") !== "false" && child.querySelector("[contenteditable=false]") === null) ?? editor.firstElementChild
  if (first !== null) window.getSelection()?.collapse(first, 0)
}

export interface PageHeaderProps {
  readonly spaceId: string
  readonly number: number
  /** The page as read with its markdown (`format=markdown`). */
  readonly page: RevisionPage
  /** Where stored files load from (an uploaded cover). */
  readonly fileUrl: FileUrlResolver
  /** Reads the change request's files again (after a cover upload). */
  readonly loadFiles: () => Promise<unknown>
  /** After each save: the change request's revision it made. */
  readonly onSaved: (revision: string) => void
  /** Where the header's edits are: typed and not left (`open`), being saved, or neither. */
  readonly onState: (state: "open" | "saving" | undefined) => void
}

/**
 * The header's saves: one after another through `updateChangeRequestContent`, each over the page
 * as the previous one left it; the page as the server answers it after each, and the problems by field.
 */
const useHeaderSaves = (props: PageHeaderProps) => {
  const registry = useRegistry()
  const [page, setPage] = useState(props.page)
  const [options, setOptions] = useState<Options>(() => optionsOf(props.page))
  const [problems, setProblems] = useState<Problems>({})
  const [, setFilesRead] = useState(0)
  // Saves run one after another, each over the page as the previous one left it.
  const queue = useRef<Promise<unknown>>(Promise.resolve())
  const latest = useRef(props.page)
  const pending = useRef(0)
  const { onState } = props

  const problem = (field: HeaderField, text: string | undefined) =>
    setProblems((was) => {
      const { [field]: _, ...rest } = was
      return text === undefined ? rest : { ...rest, [field]: text }
    })

  /** Runs `write` after the saves before it; the status says "Saving…" until every one is answered. */
  const enqueue = (write: () => Promise<void>) => {
    pending.current += 1
    onState("saving")
    const run = queue.current.then(write)
    queue.current = run.catch(() => undefined).finally(() => {
      pending.current -= 1
      if (pending.current === 0) onState(undefined)
    })
    return run
  }

  const changes = async (make: (page: RevisionPage, markdown: string) => Promise<ReadonlyArray<ChangeRequestContentChange>>) => {
    const cr = await callApi(registry, getChangeRequest(props.spaceId, props.number))
    const current = await callApi(registry, getPage(props.spaceId, props.number, latest.current.id, "markdown"))
    const batch = await make(current, current.markdown ?? "")
    if (batch.length === 0) return
    const after = await callApi(registry, updateContent(props.spaceId, props.number, batch, cr.revision))
    const read = await callApi(registry, getPage(props.spaceId, props.number, latest.current.id, "markdown"))
    latest.current = read
    setPage(read)
    props.onSaved(after.revision)
  }

  /**
   * Saves the options as `next`, any problem said beside `field`; the cover an image `upload`ed
   * now, or a stored file at `path`.
   */
  const saveOptions = (next: Options, field: Field, file: { readonly upload?: File; readonly path?: string } = {}) => {
    const { upload } = file
    const found = problemsOf(next)
    setOptions(next)
    setProblems((was) => ({ ...Object.fromEntries(Object.entries(was).filter(([key]) => key === "title" || key === "description")), ...found }))
    if (Object.keys(found).length > 0) return Promise.resolve(false)
    return enqueue(async () => {
      // The image goes first, as its raw bytes (files up to the server's upload limit, as the File block's);
      // the cover then names the stored file.
      const uploaded = upload === undefined
        ? file.path
        : `.gitbook/assets/${(await sendFile(props.spaceId, props.number, upload, uploadLimit(props.spaceId, props.number))).file.name}`
      await changes(async (current, markdown) => {
        const batch: Array<ChangeRequestContentChange> = []
        const change = optionsChange(current, markdown, next, uploaded)
        if (change !== null) batch.push(change)
        return batch
      })
      if (upload !== undefined) await props.loadFiles().then(() => setFilesRead((n) => n + 1))
      // The form shows what the server made of it (an upload becomes a file), unless more saves follow that it would undo.
      if (pending.current === 1) setOptions(optionsOf(latest.current))
    }).then(() => true, (failure: unknown) => {
      const message = messageOf(failure)
      problem(fieldOf(message, field), `Not saved: ${message}`)
      return false
    })
  }

  const saveText = (field: "title" | "description", value: string) => {
    if (value === (field === "title" ? page.title : page.description ?? "")) return onState(pending.current > 0 ? "saving" : undefined)
    if (field === "title" && value.trim() === "") {
      onState(pending.current > 0 ? "saving" : undefined)
      return problem("title", "A page needs a title: write one.")
    }
    problem(field, undefined)
    // A first page still "Untitled" takes its address from the title typed (`/untitled` would stay
    // its path otherwise); the change request's screen follows the page to its new path.
    const slug = field === "title" && page.title === firstPageTitle && page.slug === "untitled" ? titleSlug(value) : undefined
    void enqueue(() => changes(async () => [{ operation: "update_page", page: latest.current.id, [field]: value, ...(slug === undefined ? {} : { slug }) }]))
      .catch((failure: unknown) => problem(field, `The ${field} is not saved: ${messageOf(failure)}`))
  }

  return { page, options, setOptions, problems, problem, saveOptions, saveText, opened: () => onState("open") }
}

/** Enter in the description: into the editor's first block. */
const onDescriptionKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
  if (event.key !== "Enter" || event.nativeEvent.isComposing) return
  event.preventDefault()
  focusFirstBlock(event.currentTarget)
}

export const PageHeader = (props: PageHeaderProps) => {
  const id = useId()
  const { page, options, setOptions, problems, problem, saveOptions, saveText, opened } = useHeaderSaves(props)
  const [panel, setPanel] = useState<Panel | undefined>(undefined)
  // The title and description are as tall as their text at every width.
  const head = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const refit = () => head.current?.querySelectorAll("textarea").forEach(fit)
    window.addEventListener("resize", refit)
    return () => window.removeEventListener("resize", refit)
  }, [])
  // A page opened to have its title typed first (a space's first page, `?focus=title`): the title
  // selected, so that typing replaces it; the address then forgets the request.
  useEffect(() => {
    const url = new URL(window.location.href)
    if (url.searchParams.get("focus") !== "title") return
    const title = document.getElementById(`${id}-title`)
    if (!(title instanceof HTMLTextAreaElement)) return
    title.focus()
    title.select()
    url.searchParams.delete("focus")
    history.replaceState(history.state, "", `${url.pathname}${url.search}${url.hash}`)
  }, [id])
  const onTitleKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== "Enter" || event.nativeEvent.isComposing) return
    event.preventDefault()
    document.getElementById(`${id}-description`)?.focus()
  }
  const toggle = (which: Panel) => setPanel((open) => open === which ? undefined : which)
  const close = (back: string) => {
    setPanel(undefined)
    requestAnimationFrame(() => document.getElementById(back)?.focus())
  }
  const icon = page.emoji ?? page.icon ?? ""
  const hasCover = page.cover?.ref !== undefined
  return (
    <div ref={head} className="page-head" data-panel={panel}>
      {hasCover ? (
        <CoverBanner page={page} fileUrl={props.fileUrl} changeId={`${id}-change-cover`} open={panel === "cover"} onChange={() => toggle("cover")}
          onRemove={() => void saveOptions({ ...options, cover: "", coverRemoved: true }, "cover")}
          problem={panel === "cover" ? undefined : problems.cover} problemId={`${id}-cover-problem`} />
      ) : null}
      <div className="page-head-tools">
        {icon === "" ? <button type="button" id={`${id}-add-icon`} aria-expanded={panel === "icon"} onClick={() => toggle("icon")}>Add icon</button> : null}
        {hasCover ? null : <button type="button" id={`${id}-add-cover`} aria-expanded={panel === "cover"} onClick={() => toggle("cover")}>Add cover</button>}
        <button type="button" id={`${id}-layout`} aria-expanded={panel === "layout"} onClick={() => toggle("layout")}>Layout</button>
      </div>
      {icon === "" ? null : (
        <button type="button" className="page-icon" id={`${id}-icon`} aria-label={`Icon ${icon}: change it`} aria-expanded={panel === "icon"} onClick={() => toggle("icon")}>
          {/^[a-z][a-z0-9-]*$/.test(icon) ? <span className="page-icon-name">{icon}</span> : icon}
        </button>
      )}
      {panel === "icon" ? (
        <IconPanel icon={options.icon} problem={problems.icon} problemId={`${id}-icon-problem`}
          onClose={() => close(icon === "" ? `${id}-add-icon` : `${id}-icon`)}
          onPick={(value) => void saveOptions({ ...options, icon: value }, "icon").then((ok) => { if (ok) close(value === "" ? `${id}-add-icon` : `${id}-icon`) })} />
      ) : null}
      {panel === "cover" ? (
        <CoverPanel spaceId={props.spaceId} number={props.number} url={options.cover} problems={problems} problemId={`${id}-cover-problem`}
          onClose={() => close(hasCover ? `${id}-change-cover` : `${id}-add-cover`)}
          onProblem={(text) => problem("upload", text)}
          onUse={(cover, file) => void saveOptions({ ...options, cover, coverRemoved: false }, file?.upload === undefined ? "cover" : "upload", file)
            .then((ok) => { if (ok) close(`${id}-change-cover`) })} />
      ) : null}
      {panel === "layout" ? (
        <LayoutPanel options={options} hasCover={hasCover} problems={problems} idBase={id} onClose={() => close(`${id}-layout`)}
          onChange={(next, field) => void saveOptions(next, field)} onDraft={setOptions} />
      ) : null}
      <textarea key={`t${page.id}`} className="page-title-field" id={`${id}-title`} aria-label="Page title" defaultValue={page.title} rows={1} placeholder="Page title"
        aria-invalid={problems.title !== undefined} aria-describedby={problems.title === undefined ? undefined : `${id}-title-problem`}
        onInput={(e) => { opened(); fit(e.currentTarget) }} onBlur={(e) => saveText("title", e.target.value.replace(/\s*\n\s*/g, " ").trim())} onKeyDown={onTitleKey}
        ref={fitOnMount} />
      <Problem id={`${id}-title-problem`} text={problems.title} />
      <textarea key={`d${page.id}`} className="page-description-field" id={`${id}-description`} aria-label="Page description" defaultValue={page.description ?? ""} rows={1}
        placeholder="Add a description" aria-invalid={problems.description !== undefined}
        aria-describedby={problems.description === undefined ? undefined : `${id}-description-problem`}
        onInput={(e) => { opened(); fit(e.currentTarget) }} onBlur={(e) => saveText("description", e.target.value.replace(/\s*\n\s*/g, " ").trim())} onKeyDown={onDescriptionKey}
        ref={fitOnMount} />
      <Problem id={`${id}-description-problem`} text={problems.description} />
    </div>
  )
}

/** The cover as a banner, with "Change cover" and "Remove" over its corner. */
const CoverBanner = (props: {
  readonly page: RevisionPage
  readonly fileUrl: FileUrlResolver
  readonly changeId: string
  readonly open: boolean
  readonly onChange: () => void
  readonly onRemove: () => void
  readonly problem: string | undefined
  readonly problemId: string
}) => {
  const cover = props.page.cover
  const ref = cover?.ref
  // An image of another site is not loaded (the app's Content-Security-Policy loads only its own): its address is shown.
  const elsewhere = ref?.kind === "url" && !ref.url.startsWith("/") ? ref.url : undefined
  const src = ref?.kind === "url" ? ref.url : ref?.kind === "file" ? props.fileUrl(`/files/${ref.file}`) : undefined
  return (
    <figure className="page-cover" aria-label="Cover">
      {elsewhere !== undefined ? <div className="page-cover-missing">The cover is the image at <span className="page-cover-url">{elsewhere}</span>, shown on the published page.</div>
        : src === undefined ? <div className="page-cover-missing">The cover image is loading or cannot be found.</div>
        : <img src={src} alt="" style={{ height: `${Math.min(cover?.height ?? 240, 400)}px`, objectPosition: `center ${-(cover?.yPos ?? 0)}px` }} />}
      <div className="page-cover-actions">
        <button type="button" id={props.changeId} aria-expanded={props.open} onClick={props.onChange}>Change cover</button>
        <button type="button" onClick={props.onRemove}>Remove</button>
      </div>
      <Problem id={props.problemId} text={props.problem} />
    </figure>
  )
}

/** A text area as tall as its text (a long title wraps, as a heading does). */
const fit = (area: HTMLTextAreaElement) => {
  area.style.height = "auto"
  area.style.height = `${area.scrollHeight}px`
}
const fitOnMount = (area: HTMLTextAreaElement | null) => {
  if (area !== null) fit(area)
}

/** A panel under the header's tools: Escape closes it and gives the focus back to what opened it. */
const HeaderPanel = (props: { readonly label: string; readonly onClose: () => void; readonly children: ReactNode }) => {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>("input, button")?.focus()
  }, [])
  return (
    <div ref={ref} className="page-head-panel" role="group" aria-label={props.label}
      onKeyDown={(e) => { if (e.key === "Escape") { e.stopPropagation(); props.onClose() } }}>
      {props.children}
      <button type="button" className="link page-head-panel-close" onClick={props.onClose}>Close</button>
    </div>
  )
}

const IconPanel = (props: {
  readonly icon: string
  readonly problem: string | undefined
  readonly problemId: string
  readonly onPick: (icon: string) => void
  readonly onClose: () => void
}) => {
  const [typed, setTyped] = useState(props.icon)
  return (
    <HeaderPanel label="Page icon" onClose={props.onClose}>
      <div className="page-emoji-grid" role="group" aria-label="Emoji">
        {emojiChoices.map((emoji) => <button key={emoji} type="button" aria-label={`Use ${emoji}`} onClick={() => props.onPick(emoji)}>{emoji}</button>)}
      </div>
      <form className="page-head-row" onSubmit={(e) => { e.preventDefault(); props.onPick(typed.trim()) }} noValidate>
        <label>
          <span>Emoji or icon name</span>
          <input value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={60} placeholder="🚀 or book-open"
            aria-invalid={props.problem !== undefined} aria-describedby={props.problem === undefined ? undefined : props.problemId} />
        </label>
        <button type="submit">Use this icon</button>
        {props.icon === "" ? null : <button type="button" onClick={() => props.onPick("")}>Remove icon</button>}
      </form>
      <Problem id={props.problemId} text={props.problem} />
    </HeaderPanel>
  )
}

const isImage = (file: RevisionFile) => file.contentType.startsWith("image/")

const CoverPanel = (props: {
  readonly spaceId: string
  readonly number: number
  readonly url: string
  readonly problems: Problems
  readonly problemId: string
  /** A cover address, or an image to upload or stored at a path (the address then empty). */
  readonly onUse: (cover: string, file?: { readonly upload?: File; readonly path?: string }) => void
  readonly onProblem: (text: string | undefined) => void
  readonly onClose: () => void
}) => {
  const registry = useRegistry()
  const [typed, setTyped] = useState(props.url)
  const [images, setImages] = useState<ReadonlyArray<RevisionFile> | undefined>(undefined)
  useEffect(() => {
    let live = true
    callApi(registry, listFiles(props.spaceId, props.number)).then((files) => live && setImages(files.filter(isImage)), () => live && setImages([]))
    return () => {
      live = false
    }
  }, [registry, props.spaceId, props.number])
  const onFile = (file: File | undefined) => {
    props.onProblem(undefined)
    if (file === undefined) return
    if (!file.type.startsWith("image/")) return props.onProblem(`“${file.name}” is not an image: choose a PNG, JPEG, GIF, WebP or SVG file.`)
    props.onUse("", { upload: file })
  }
  return (
    <HeaderPanel label="Cover image" onClose={props.onClose}>
      <label className="page-head-field">
        <span>Upload an image</span>
        <input type="file" accept="image/*" onChange={(e) => onFile(e.target.files?.[0])}
          aria-invalid={props.problems.upload !== undefined} aria-describedby={props.problems.upload === undefined ? undefined : `${props.problemId}-upload`} />
        <span className="page-options-hint">PNG, JPEG, GIF, WebP or SVG.</span>
      </label>
      <Problem id={`${props.problemId}-upload`} text={props.problems.upload} />
      {images === undefined || images.length === 0 ? null : (
        <div className="page-cover-choices" role="group" aria-label="Images of this change request">
          {images.map((file) => (
            <button key={file.id} type="button" aria-label={`Use ${file.name}`} onClick={() => props.onUse("", { path: `.gitbook/assets/${file.name}` })}>
              <img src={file.downloadURL} alt="" />
            </button>
          ))}
        </div>
      )}
      <form className="page-head-row" onSubmit={(e) => { e.preventDefault(); props.onUse(typed.trim()) }} noValidate>
        <label>
          <span>Or an image address</span>
          <input type="url" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="https://"
            aria-invalid={props.problems.cover !== undefined} aria-describedby={props.problems.cover === undefined ? undefined : props.problemId} />
        </label>
        <button type="submit" disabled={typed.trim() === ""}>Use this address</button>
      </form>
      <Problem id={props.problemId} text={props.problems.cover} />
    </HeaderPanel>
  )
}

const LayoutPanel = (props: {
  readonly options: Options
  readonly hasCover: boolean
  readonly problems: Problems
  readonly idBase: string
  readonly onChange: (next: Options, field: Field) => void
  /** A number typed and not yet left. */
  readonly onDraft: (next: Options) => void
  readonly onClose: () => void
}) => {
  const { options } = props
  const number = (key: "coverHeight" | "coverY", label: string, placeholder: string) => (
    <label className="page-head-field">
      <span>{label}</span>
      <input inputMode="numeric" value={options[key]} placeholder={placeholder} onChange={(e) => props.onDraft({ ...options, [key]: e.target.value })}
        onBlur={(e) => props.onChange({ ...options, [key]: e.target.value }, key)} onKeyDown={(e) => { if (e.key === "Enter") e.currentTarget.blur() }}
        aria-invalid={props.problems[key] !== undefined} aria-describedby={props.problems[key] === undefined ? undefined : `${props.idBase}-${key}-problem`} />
      <Problem id={`${props.idBase}-${key}-problem`} text={props.problems[key]} />
    </label>
  )
  return (
    <HeaderPanel label="Page layout" onClose={props.onClose}>
      <fieldset className="page-head-set">
        <legend>Width</legend>
        {(["default", "wide"] as const).map((width) => (
          <label key={width} className="page-options-check">
            <input type="radio" name={`${props.idBase}-width`} checked={options.width === width} onChange={() => props.onChange({ ...options, width }, "form")} />
            {width === "default" ? "Default width" : "Wide"}
          </label>
        ))}
      </fieldset>
      <fieldset className="page-head-set">
        <legend>Shown on the published page</legend>
        {visibilityKeys.map((key) => (
          <label key={key} className="page-options-check">
            <input type="checkbox" checked={options.visible[key]} onChange={(e) => props.onChange({ ...options, visible: { ...options.visible, [key]: e.target.checked } }, "form")} />
            {visibilityLabels[key]}
          </label>
        ))}
      </fieldset>
      {props.hasCover ? (
        <fieldset className="page-head-set">
          <legend>Cover</legend>
          {number("coverHeight", "Height (px)", "240")}
          {number("coverY", "Vertical position (px)", "0")}
        </fieldset>
      ) : null}
      <Problem id={`${props.idBase}-form-problem`} text={props.problems.form} />
    </HeaderPanel>
  )
}
