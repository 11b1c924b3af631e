/**
 * The File block (`{% file src="…" %}caption{% endfile %}`). Empty, it offers "Upload a file" (a
 * file picker, or a file dropped onto it); while the file goes up, its progress with Cancel; once
 * stored, the file as GitBook shows it (an icon, its name, its size, a download link) with Replace
 * and its caption. A refused upload says why next to the block, with Retry where it may work.
 * The upload's state lives in the view, not the document: only a stored file's `src` is saved.
 */
import type { NodeViewRenderer } from "@tiptap/core"
import { getParam, type LiquidParam, setParam } from "@quire/document"
import { describeSize, failureOf, type UploadedFile, type UploadOptions } from "../../uploads.ts"
import type { FileLookup } from "../../../features/files/file-urls.ts"
import { field, h, setAttrs, sourceButton } from "../shared/view.ts"

export interface FileViewDeps {
  /** The stored file a `src` names (its name, size and download URL), when known. */
  readonly find: FileLookup
  /** Stores a file in the change request; undefined where files cannot be uploaded. */
  readonly upload: (() => ((file: File, options: UploadOptions) => Promise<UploadedFile>) | undefined)
}

type State =
  | { readonly kind: "idle" }
  | { readonly kind: "uploading"; readonly name: string; readonly loaded: number; readonly total: number; readonly controller: AbortController }
  | { readonly kind: "error"; readonly message: string; readonly retry: File | undefined }

/** The last part of a path, decoded: what a file not known here is called. */
const nameOfPath = (src: string): string => {
  const last = src.split(/[?#]/)[0]!.split("/").pop() ?? src
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

/** What the icon says: the name's extension (`PDF`, `ZIP`), else `FILE`. */
const kindOf = (name: string): string => {
  const ext = /\.([a-z0-9]{1,5})$/i.exec(name)?.[1]
  return ext === undefined ? "FILE" : ext.toUpperCase()
}

const hasFiles = (event: DragEvent): boolean => Array.from(event.dataTransfer?.types ?? []).includes("Files")

const button = (label: string, onClick: () => void, attrs: Record<string, string> = {}) => {
  const b = h("button", { type: "button", ...attrs }, label)
  b.addEventListener("click", onClick)
  return b
}

export const createFileView = (deps: FileViewDeps): NodeViewRenderer => (props) => {
  let node = props.node
  let state: State = { kind: "idle" }
  const picker = h("input", { type: "file", hidden: "", "aria-hidden": "true", tabindex: "-1" })
  const body = h("div", { class: "quire-file-body" })
  const dom = h("div", { class: "quire-block quire-file", contenteditable: "false" }, sourceButton(props), body, picker)
  const current = () => ({ ...props, node })
  const params = () => node.attrs.params as ReadonlyArray<LiquidParam>

  const start = (file: File) => {
    const upload = deps.upload()
    if (upload === undefined) {
      state = { kind: "error", message: "Files cannot be uploaded here.", retry: undefined }
      return draw()
    }
    const controller = new AbortController()
    state = { kind: "uploading", name: file.name, loaded: 0, total: file.size, controller }
    draw()
    upload(file, {
      signal: controller.signal,
      onProgress: (loaded, total) => {
        if (state.kind !== "uploading" || state.controller !== controller) return
        state = { ...state, loaded, total }
        const bar = body.querySelector("progress")
        const told = body.querySelector(".quire-file-sent")
        if (bar !== null) bar.value = Math.min(loaded, total)
        if (told !== null) told.textContent = `${describeSize(loaded)} of ${describeSize(total)}`
      }
    }).then((stored) => {
      if (state.kind !== "uploading" || state.controller !== controller) return
      state = { kind: "idle" }
      setAttrs(current(), { params: setParam(params(), "src", stored.src) })
      draw()
    }, (caught: unknown) => {
      if (state.kind === "uploading" && state.controller !== controller) return
      const failure = failureOf(caught)
      state = failure.kind === "cancelled" ? { kind: "idle" } : { kind: "error", message: failure.message, retry: failure.retryable ? file : undefined }
      draw()
    })
  }

  picker.addEventListener("change", () => {
    const file = picker.files?.[0]
    picker.value = ""
    if (file !== undefined) start(file)
  })
  // A file dropped onto the block is its file (not a figure, as a file dropped elsewhere in the page).
  dom.addEventListener("dragover", (e) => {
    if (!hasFiles(e) || !props.editor.isEditable) return
    e.preventDefault()
    dom.classList.add("is-drop-target")
  })
  dom.addEventListener("dragleave", () => dom.classList.remove("is-drop-target"))
  dom.addEventListener("drop", (e) => {
    dom.classList.remove("is-drop-target")
    const file = e.dataTransfer?.files[0]
    if (file === undefined || !props.editor.isEditable) return
    e.preventDefault()
    e.stopPropagation()
    start(file)
  })

  const choose = () => picker.click()

  const progress = (s: Extract<State, { kind: "uploading" }>) =>
    h(
      "div",
      { class: "quire-upload-progress", role: "status" },
      h("span", {}, `Uploading “${s.name}”: `, h("span", { class: "quire-file-sent" }, `${describeSize(s.loaded)} of ${describeSize(s.total)}`)),
      Object.assign(h("progress", { max: String(Math.max(1, s.total)), "aria-label": `Upload of ${s.name}` }), { value: Math.min(s.loaded, s.total) }),
      button("Cancel", () => s.controller.abort())
    )

  // An empty block offers "Upload a file" above it already; a stored file's failed replacement, another choice.
  const error = (s: Extract<State, { kind: "error" }>, empty: boolean) =>
    h(
      "p",
      { class: "quire-file-error form-error", role: "alert" },
      s.message,
      ...(s.retry === undefined ? [] : [" ", button("Retry", () => start(s.retry!))]),
      ...(empty ? [] : [" ", button("Choose another file", choose)])
    )

  const stored = (src: string) => {
    const known = deps.find(src)
    const name = known?.name ?? nameOfPath(src)
    const link = known?.downloadURL ?? (/^https?:\/\//i.test(src) ? src : undefined)
    return h(
      "div",
      { class: "quire-file-card" },
      h("span", { class: "quire-file-icon", "aria-hidden": "true" }, kindOf(name)),
      h(
        "span",
        { class: "quire-file-text" },
        link === undefined ? h("span", { class: "quire-file-name" }, name) : h("a", { class: "quire-file-name", href: link, download: name, target: "_blank", rel: "noopener" }, name),
        h("span", { class: "quire-file-size" }, known?.size === undefined ? (link === undefined ? "Not among this change request's files" : "") : describeSize(known.size))
      ),
      ...(link === undefined ? [] : [h("a", { class: "quire-file-download", href: link, download: name, target: "_blank", rel: "noopener", "aria-label": `Download ${name}` }, "Download")]),
      button("Replace", choose, { "aria-label": `Replace ${name}` })
    )
  }

  const empty = () =>
    h(
      "div",
      { class: "quire-file-drop" },
      h("span", { class: "quire-file-icon", "aria-hidden": "true" }, "FILE"),
      button("Upload a file", choose, { class: "quire-file-upload", "data-focus-on-insert": "" }),
      h("span", { class: "quire-file-hint" }, "or drop one here")
    )

  function draw() {
    const src = getParam(params(), "src") ?? ""
    const none = src === "" || src === "/files/"
    const caption = node.attrs.body as string | null
    const parts: Array<HTMLElement> = []
    if (state.kind === "uploading") parts.push(progress(state))
    else parts.push(none ? empty() : stored(src))
    if (state.kind === "error") parts.push(error(state, none))
    if (!none) parts.push(field("Caption", caption ?? "", (b) => setAttrs(current(), { body: b === "" ? null : b }), { multiline: true }).root)
    const focused = body.contains(document.activeElement) ? (document.activeElement as HTMLElement).textContent : null
    body.replaceChildren(...parts)
    // The button that was used stays focused when it is drawn again (Replace after a replace).
    if (focused !== null) Array.from(body.querySelectorAll("button")).find((b) => b.textContent === focused)?.focus()
  }
  draw()

  return {
    dom,
    stopEvent: (event) =>
      event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLButtonElement ||
      event.target instanceof HTMLAnchorElement || (event.type.startsWith("drag") || event.type === "drop"),
    ignoreMutation: () => true,
    destroy: () => {
      if (state.kind === "uploading") state.controller.abort()
    },
    update: (next) => {
      if (next.type !== node.type) return false
      const before = getParam(params(), "src")
      node = next
      // A caption typed into is not drawn over; a new src (another person's, undo) is.
      if (getParam(params(), "src") !== before || !body.contains(document.activeElement)) draw()
      return true
    }
  }
}

/** Without a change request to store files in (a page shown read-only elsewhere): no file is known, none can be uploaded. */
export const fileView = createFileView({ find: () => undefined, upload: () => undefined })
