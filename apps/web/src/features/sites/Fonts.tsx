/**
 * The organization's custom fonts beside a site's customization: upload a font file (WOFF2 or WOFF)
 * for a family and weight (`POST /v1/orgs/{org}/fonts/files`, then `createCustomFont` or
 * `updateCustomFont`), pick one for the site's text (`styling.font`, which the published site serves
 * with `@font-face`), or go back to the default font. Refusals are said beside the field they name.
 */
import type { CustomFontDefinition } from "@quire/api"
import { AsyncResult, Atom } from "effect/reactivity"
import { type FormEvent, useEffect, useId, useRef, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Field } from "../../ui/Field.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import type { Settings } from "./customization-model.ts"
import { messageElse, messageFor, type Problem } from "./errors.ts"
import { siteKey, updateCustomization, useAction } from "./queries.ts"

export const fontsKey = (organizationId: string) => `fonts:${organizationId}`

const fontsAtom = Atom.family((organizationId: string) =>
  QuireApi.query("customFonts", "listCustomFonts", { params: { organizationId }, reactivityKeys: [fontsKey(organizationId)] }))
const createFont = QuireApi.mutation("customFonts", "createCustomFont")
const updateFont = QuireApi.mutation("customFonts", "updateCustomFont")
const deleteFont = QuireApi.mutation("customFonts", "deleteCustomFont")

const weights = [300, 400, 500, 600, 700, 800] as const

/** Sends the file's bytes; answers its storage key, or the refusal (the field it names and its words). */
const uploadFile = async (organizationId: string, file: File): Promise<{ readonly storageKey: string } | Problem> => {
  const response = await fetch(`/v1/orgs/${encodeURIComponent(organizationId)}/fonts/files?name=${encodeURIComponent(file.name)}`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream" },
    body: file
  })
  const body = await response.json().catch(() => ({})) as { storageKey?: string; error?: { message?: string; field?: string } }
  if (response.ok && body.storageKey !== undefined) return { storageKey: body.storageKey }
  return { field: "file", message: body.error?.message ?? `The upload failed (${response.status})` }
}

/** Loads a font's faces into the page, so its sample shows in its own face. */
const useFaces = (fonts: ReadonlyArray<CustomFontDefinition>) => {
  useEffect(() => {
    if (typeof FontFace === "undefined") return
    for (const font of fonts) {
      for (const face of font.fontFaces) {
        const source = face.sources[0]
        if (source === undefined) continue
        const loaded = new FontFace(font.fontFamily, `url(${JSON.stringify(source.url)})`, { weight: String(face.weight) })
        document.fonts.add(loaded)
        void loaded.load().catch(() => undefined)
      }
    }
  }, [fonts])
}

/** GitBook's `CustomizationFontDefinitionInput`: the definition without the caller's permissions. */
const definitionOf = (font: CustomFontDefinition) => ({ id: font.id, custom: font.custom, fontFamily: font.fontFamily, fontFaces: font.fontFaces })

const Upload = (props: { readonly organizationId: string; readonly fonts: ReadonlyArray<CustomFontDefinition> }) => {
  const id = useId()
  const [family, setFamily] = useState("")
  const [weight, setWeight] = useState<number>(400)
  const file = useRef<HTMLInputElement>(null)
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const create = useMutation(createFont)
  const update = useMutation(updateFont)
  const action = useAction()
  const [said, setSaid] = useState("")
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setSaid("")
    setProblem(undefined)
    const chosen = file.current?.files?.[0]
    if (chosen === undefined) return setProblem({ field: "file", message: "Choose a .woff2 or .woff file." })
    const uploaded = await uploadFile(props.organizationId, chosen)
    if (!("storageKey" in uploaded)) return setProblem(uploaded)
    const name = family.trim()
    const existing = props.fonts.find((f) => f.fontFamily.toLowerCase() === name.toLowerCase())
    const face = { weight, storageKey: uploaded.storageKey }
    const done = await action.run(() => existing === undefined
      ? create({ params: { organizationId: props.organizationId }, payload: { fontFamily: name, fontFaces: [face] }, reactivityKeys: [fontsKey(props.organizationId)] })
      : update({ params: { organizationId: props.organizationId, fontId: existing.id }, payload: { fontFaces: [face] }, reactivityKeys: [fontsKey(props.organizationId)] }))
    if (done) {
      setSaid(existing === undefined ? `Added ${name}.` : `Added weight ${weight} to ${existing.fontFamily}.`)
      if (file.current !== null) file.current.value = ""
    }
  }
  const shown = problem ?? action.problem
  const fileError = messageFor(shown, "file", "body", "fontFaces")
  return (
    <form className="custom-font-upload" onSubmit={(event) => void submit(event)} aria-label="Upload a font" noValidate>
      <Field label="Font family" name="font-family" value={family} onChange={setFamily} error={messageFor(shown, "fontFamily")}
        hint="The name readers' browsers use, such as Acme Sans. A family that exists gets the new weight." />
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-weight`}>Weight</label>
          <select id={`${id}-weight`} value={weight} onChange={(event) => setWeight(Number(event.target.value))}>
            {weights.map((w) => <option key={w} value={w}>{w}{w === 400 ? " (regular, required)" : w === 700 ? " (bold)" : ""}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-file`}>Font file</label>
          <input id={`${id}-file`} ref={file} type="file" accept=".woff2,.woff,font/woff2,font/woff"
            aria-invalid={fileError === undefined ? undefined : true} aria-describedby={fileError === undefined ? `${id}-file-hint` : `${id}-file-error`} />
          <span id={`${id}-file-hint`} className="hint">WOFF2 or WOFF, at most 5 MB.</span>
          {fileError === undefined ? null : <p id={`${id}-file-error`} className="field-error" role="alert">{fileError}</p>}
        </div>
      </div>
      {messageElse(shown, "file", "body", "fontFaces", "fontFamily") === undefined ? null : <p className="form-error" role="alert">{messageElse(shown, "file", "body", "fontFaces", "fontFamily")}</p>}
      <div className="toolbar">
        <button type="submit" disabled={action.busy} aria-busy={action.busy}>{action.busy ? "Uploading…" : "Upload font"}</button>
        <span className="status" role="status">{said}</span>
      </div>
    </form>
  )
}

export const Fonts = (props: { readonly organizationId: string; readonly siteId: string; readonly saved: Settings; readonly canEdit: boolean }) => {
  const fonts = useAtomValue(fontsAtom(props.organizationId))
  const items = AsyncResult.isSuccess(fonts) ? fonts.value.items : []
  useFaces(items)
  const save = useMutation(updateCustomization)
  const remove = useMutation(deleteFont)
  const action = useAction()
  const [said, setSaid] = useState("")
  if (AsyncResult.isFailure(fonts)) return <Failure result={fonts} />
  if (!AsyncResult.isSuccess(fonts)) return <Loading what="the organization's fonts" />
  const current = props.saved.styling?.font
  const currentId = typeof current === "object" ? current.id : undefined
  const use = async (font: CustomFontDefinition | undefined) => {
    setSaid("")
    const { font: _, ...styling } = props.saved.styling ?? {}
    const done = await action.run(() => save({
      params: { organizationId: props.organizationId, siteId: props.siteId },
      payload: { ...props.saved, styling: font === undefined ? styling : { ...styling, font: definitionOf(font) } } as Settings,
      reactivityKeys: [siteKey(props.siteId)]
    }))
    if (done) setSaid(font === undefined ? "The site uses its default font again." : `The site's text is now set in ${font.fontFamily}.`)
  }
  const drop = async (font: CustomFontDefinition) => {
    setSaid("")
    const done = await action.run(() => remove({ params: { organizationId: props.organizationId, fontId: font.id }, reactivityKeys: [fontsKey(props.organizationId)] }))
    if (done) setSaid(`Deleted ${font.fontFamily}.`)
  }
  const manage = items.some((f) => f.permissions.edit) || items.length === 0
  return (
    <section className="panel site-form custom-fonts" aria-label="Fonts">
      <h3>Fonts</h3>
      <p className="muted">Text font: {typeof current === "object" ? current.fontFamily : current ?? "Inter"} {currentId === undefined ? "" : "(custom)"}</p>
      {items.length === 0 ? <p className="muted">No custom fonts yet. Upload one to use it on the organization's sites.</p> : (
        <ul>
          {items.map((font) => (
            <li key={font.id}>
              <span className="font-sample" style={{ fontFamily: `"${font.fontFamily}", var(--font)` }}>{font.fontFamily}</span>
              <span className="muted">{font.fontFaces.map((f) => f.weight).join(", ")}</span>
              {props.canEdit
                ? currentId === font.id
                  ? <span className="badge">In use</span>
                  : <button type="button" onClick={() => void use(font)} disabled={action.busy}>Use for text</button>
                : null}
              {font.permissions.edit ? <button type="button" className="link danger" onClick={() => void drop(font)} disabled={action.busy} aria-label={`Delete ${font.fontFamily}`}>Delete</button> : null}
            </li>
          ))}
        </ul>
      )}
      {props.canEdit && currentId !== undefined ? <button type="button" onClick={() => void use(undefined)} disabled={action.busy}>Use the default font</button> : null}
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.message}</p>}
      <p className="status" role="status">{said}</p>
      {manage ? <Upload organizationId={props.organizationId} fonts={items} /> : <p className="muted">Only the organization's admins add fonts.</p>}
    </section>
  )
}
