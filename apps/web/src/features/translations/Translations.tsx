/**
 * `/o/<org>/translations`: the organization's translations, each a source space kept translated
 * into a result space, with its last run's state, stats and failure reason (polled while one
 * runs). Admins create one from a space into a language with instructions, change the
 * instructions, run it again and delete it. When the server has no translation provider, the
 * screen says which setting enables one. The organization's glossary (./Glossary.tsx) follows
 * the list. Loaded with `import()` (App.tsx).
 */
import type { Space, Translation } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useId, useState } from "react"
import { orgKey } from "../../api/client.ts"
import { usePolling } from "../../api/polling.ts"
import { organizationAtom, orgContentAtom } from "../../api/queries.ts"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { FormActions } from "../../ui/Field.tsx"
import { Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { formatTime } from "../../ui/time.ts"
import { Confirm, SelectField } from "../admin/ui.tsx"
import { messageElse, messageFor } from "../sites/errors.ts"
import { useAction } from "../sites/queries.ts"
import { instructionsDocument, instructionsText, languageName, languages, statsOf, statusOf } from "./model.ts"
import { createTranslation, deleteTranslation, providerAtom, runTranslation, translationsAtom, translationsKey, updateTranslation } from "./queries.ts"
import "../admin/admin.css"
import "../sites/sites.css"
import "./translations.css"
import { EmptyState } from "../../ui/EmptyState.tsx"
import { Glossary } from "./Glossary.tsx"
import { TranslationIcon } from "../../ui/icons.tsx"

const languageOptions = languages.map((code) => ({ value: code, label: languageName(code) }))

/** A text area with its hint and, when refused, its error right below. */
const Instructions = (props: { readonly value: string; readonly onChange: (value: string) => void; readonly error: string | undefined }) => {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>Instructions</label>
      <textarea id={id} name="instructions" rows={4} value={props.value} onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.error === undefined ? undefined : true} aria-describedby={`${id}-hint${props.error === undefined ? "" : ` ${id}-error`}`} />
      <span id={`${id}-hint`} className="hint">Style notes for the translator: tone, terms to keep. At most 4,000 characters.</span>
      {props.error === undefined ? null : <p id={`${id}-error`} className="field-error" role="alert">{props.error}</p>}
    </div>
  )
}

/** The server has no provider: runs fail, and this says what an administrator sets. */
const NoProvider = (props: { readonly setting: string }) => (
  <div className="panel translation-provider" role="note" aria-labelledby="provider-heading">
    <h2 id="provider-heading">No translation provider is configured</h2>
    <p>Runs fail until the server's administrator sets <code>{props.setting}</code> to an OpenAI-compatible endpoint (with <code>QUIRE_TRANSLATE_MODEL</code> and <code>QUIRE_TRANSLATE_KEY</code>) and restarts Quire.</p>
  </div>
)

const NewTranslation = (props: { readonly organizationId: string; readonly spaces: ReadonlyArray<Space>; readonly onCancel: () => void; readonly onDone: (message: string) => void }) => {
  const first = props.spaces[0]
  const [space, setSpace] = useState(first?.id ?? "")
  const [sourceLanguage, setSourceLanguage] = useState<string>(first?.language ?? "en")
  const [language, setLanguage] = useState<string>(first?.language === "fr" ? "de" : "fr")
  const [instructions, setInstructions] = useState("")
  const [local, setLocal] = useState<{ readonly field: string; readonly message: string } | undefined>(undefined)
  const create = useMutation(createTranslation)
  const action = useAction()
  const chooseSpace = (id: string) => {
    setSpace(id)
    const chosen = props.spaces.find((s) => s.id === id)
    if (chosen?.language !== undefined) setSourceLanguage(chosen.language)
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = space === "" ? { field: "source.space", message: "Choose the space to translate." }
      : language === sourceLanguage ? { field: "language", message: "Choose a language other than the space's." }
      : undefined
    setLocal(problem)
    if (problem !== undefined) return
    const title = props.spaces.find((s) => s.id === space)?.title ?? "the space"
    const done = await action.run(() => create({
      params: { organizationId: props.organizationId },
      payload: {
        source: { space, language: sourceLanguage as Translation["language"] },
        language: language as Translation["language"],
        ...(instructions.trim() === "" ? {} : { instructions: instructionsDocument(instructions) })
      },
      reactivityKeys: [translationsKey(props.organizationId), orgKey(props.organizationId)]
    }))
    if (done) props.onDone(`Translating ${title} into ${languageName(language)}.`)
  }
  const problem = local ?? action.problem
  return (
    <form className="panel admin-form" onSubmit={(event) => void submit(event)} aria-label="New translation">
      <h2>New translation</h2>
      <SelectField label="Space to translate" name="space" value={space} onChange={chooseSpace} error={messageFor(problem, "source.space")}
        options={props.spaces.map((s) => ({ value: s.id, label: s.title === "" ? "Untitled space" : s.title }))} />
      <SelectField label="Its language" name="sourceLanguage" value={sourceLanguage} onChange={setSourceLanguage} error={messageFor(problem, "source.language")} options={languageOptions} />
      <SelectField label="Translate into" name="language" value={language} onChange={setLanguage} error={messageFor(problem, "language")} options={languageOptions}
        hint="A new space in this language receives the translation, and follows every change of the source." />
      <Instructions value={instructions} onChange={setInstructions} error={messageFor(problem, "instructions")} />
      <FormActions error={messageElse(problem, "source.space", "source.language", "language", "instructions")} busy={action.busy} label="Create translation" busyLabel="Creating…" onCancel={props.onCancel} />
    </form>
  )
}

const EditInstructions = (props: { readonly organizationId: string; readonly translation: Translation; readonly onClose: (message: string) => void }) => {
  const [text, setText] = useState(instructionsText(props.translation.instructions))
  const update = useMutation(updateTranslation)
  const action = useAction()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const done = await action.run(() => update({
      params: { organizationId: props.organizationId, translationId: props.translation.id },
      payload: { instructions: instructionsDocument(text) },
      reactivityKeys: [translationsKey(props.organizationId)]
    }))
    if (done) props.onClose("Instructions saved: the translation runs again with them.")
  }
  return (
    <form className="admin-form translation-edit" onSubmit={(event) => void submit(event)} aria-label="Edit the instructions">
      <Instructions value={text} onChange={setText} error={messageFor(action.problem, "instructions")} />
      <FormActions error={messageElse(action.problem, "instructions")} busy={action.busy} label="Save instructions" busyLabel="Saving…" onCancel={() => props.onClose("")} />
    </form>
  )
}

const Row = (props: { readonly organizationId: string; readonly translation: Translation; readonly spaces: ReadonlyMap<string, Space> }) => {
  const { translation } = props
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const [said, setSaid] = useState("")
  const run = useMutation(runTranslation)
  const remove = useMutation(deleteTranslation)
  const action = useAction()
  const params = { organizationId: props.organizationId, translationId: translation.id }
  const reactivityKeys = [translationsKey(props.organizationId)]
  const titleOf = (id: string) => {
    const space = props.spaces.get(id)
    return space === undefined ? "a space you cannot see" : space.title === "" ? "Untitled space" : space.title
  }
  const state = statusOf(translation)
  const source = titleOf(translation.source.space)
  const resultSpace = translation.result?.space
  const name = `${source} into ${languageName(translation.language)}`
  return (
    <li className="translation">
      <div className="translation-head">
        <h3>
          <Link href={`/s/${translation.source.space}`}>{source}</Link>
          <span className="meta"> in {languageName(translation.source.language)}</span>
          {" → "}
          {resultSpace === undefined ? languageName(translation.language) : <Link href={`/s/${resultSpace}`}>{titleOf(resultSpace)}</Link>}
        </h3>
        <span className={`badge translation-status status-${translation.failure === undefined ? translation.status : "failed"}`} role="status" aria-label={`${name}: ${state.label}`}>{state.running ? `${state.label}…` : state.label}</span>
      </div>
      {translation.failure !== undefined ? <p className="form-error translation-failure">Why it failed: {translation.failure}</p> : null}
      <p className="meta">{statsOf(translation.stats).join(" · ")} · changed {formatTime(translation.updatedAt)}</p>
      {instructionsText(translation.instructions) === "" ? null : <p className="meta translation-instructions">Instructions: {instructionsText(translation.instructions)}</p>}
      {translation.permissions.edit ? (
        <div className="toolbar">
          <button type="button" disabled={action.busy || state.running} onClick={() => void action.run(async () => {
            await run({ params, reactivityKeys })
            setSaid("Queued: it runs in a moment.")
          })}>Run again<span className="visually-hidden">— {name}</span></button>
          <button type="button" onClick={() => setEditing(true)}>Edit instructions<span className="visually-hidden">— {name}</span></button>
          <button type="button" className="danger" onClick={() => setDeleting(true)}>Delete…<span className="visually-hidden">— {name}</span></button>
          <span className="status" role="status">{said}</span>
        </div>
      ) : null}
      {action.problem !== undefined && !deleting ? <p className="form-error" role="alert">{action.problem.message}</p> : null}
      {editing ? <EditInstructions organizationId={props.organizationId} translation={translation} onClose={(message) => {
        setEditing(false)
        setSaid(message)
      }} /> : null}
      {deleting ? (
        <Confirm title={`Delete the translation of ${source}?`} action="Delete translation" busyAction="Deleting…" onClose={() => setDeleting(false)} problem={action.problem?.message}
          onConfirm={async () => {
            await action.run(() => remove({ params, reactivityKeys }))
          }}>
          <p>It stops following {source}. The translated space{resultSpace === undefined ? "" : `, ${titleOf(resultSpace)},`} stays with what it holds.</p>
        </Confirm>
      ) : null}
    </li>
  )
}

export default function Translations(props: { readonly organizationId: string }) {
  const org = useAtomValue(organizationAtom(props.organizationId))
  const atom = translationsAtom(props.organizationId)
  const translations = useAtomValue(atom)
  const provider = useAtomValue(providerAtom(props.organizationId))
  const content = useAtomValue(orgContentAtom(props.organizationId))
  const [creating, setCreating] = useState(false)
  const [said, setSaid] = useState("")
  const admin = AsyncResult.isSuccess(org) && org.value.permissions.admin
  usePolling(atom, AsyncResult.isSuccess(translations) && translations.value.items.some((t) => statusOf(t).running))
  const spaces = AsyncResult.isSuccess(content) ? content.value.spaces : []
  const byId = new Map(spaces.map((space) => [space.id, space]))
  return (
    <div className="admin">
      <p className="admin-back"><Link href={`/o/${props.organizationId}`}>{AsyncResult.isSuccess(org) ? org.value.title : "Organization"}</Link></p>
      <h1>Translations</h1>
      <p className="muted">Spaces kept translated into other languages: each change of a source space is translated into its result space.</p>
      {AsyncResult.isSuccess(provider) && !provider.value.configured ? <NoProvider setting={provider.value.setting} /> : null}
      {admin && !creating ? <div className="toolbar"><button type="button" className="primary" onClick={() => setCreating(true)} disabled={!AsyncResult.isSuccess(content)}>New translation</button><span className="status" role="status">{said}</span></div> : null}
      {creating ? (spaces.length === 0
        ? <p className="muted">The organization has no space to translate yet.</p>
        : <NewTranslation organizationId={props.organizationId} spaces={spaces} onCancel={() => setCreating(false)} onDone={(message) => {
          setCreating(false)
          setSaid(message)
        }} />) : null}
      {AsyncResult.isFailure(translations) ? <Failure result={translations} /> : !AsyncResult.isSuccess(translations) ? <Loading what="the translations" /> : translations.value.items.length === 0
        ? <EmptyState icon={<TranslationIcon size={20} />} title="No translations yet.">A translation is a copy of a space in another language, kept in step with it.</EmptyState>
        : <ul className="translations">{translations.value.items.map((t) => <Row key={t.id} organizationId={props.organizationId} translation={t} spaces={byId} />)}</ul>}
      <Glossary organizationId={props.organizationId} admin={admin} />
    </div>
  )
}
