/**
 * The organization's translation glossary beside its translations: each entry a term in several
 * languages, which every translation run keeps as given (`listGlossaryEntries`). Admins add an
 * entry of two languages, add a language to one, and delete entries (`updateGlossaryEntries`).
 */
import type { GlossaryEntry } from "@quire/api"
import { AsyncResult, Atom } from "effect/reactivity"
import { type FormEvent, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Field, FormActions } from "../../ui/Field.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { SelectField } from "../admin/ui.tsx"
import { messageElse, messageFor } from "../sites/errors.ts"
import { useAction } from "../sites/queries.ts"
import { languageName, languages } from "./model.ts"

export const glossaryKey = (organizationId: string) => `glossary:${organizationId}`

const glossaryAtom = Atom.family((organizationId: string) =>
  QuireApi.query("translationsGlossary", "listGlossaryEntries", { params: { organizationId }, query: { limit: 1000, orderBy: "en" }, reactivityKeys: [glossaryKey(organizationId)] }))
const updateGlossary = QuireApi.mutation("translationsGlossary", "updateGlossaryEntries")

const languageOptions = languages.map((code) => ({ value: code, label: languageName(code) }))

const describe = (entry: GlossaryEntry) =>
  Object.entries(entry.translations).map(([code, term]) => `${languageName(code)}: ${term}`).join(" · ")

const NewEntry = (props: { readonly organizationId: string }) => {
  const [from, setFrom] = useState<string>("en")
  const [source, setSource] = useState("")
  const [to, setTo] = useState<string>("fr")
  const [target, setTarget] = useState("")
  const [said, setSaid] = useState("")
  const update = useMutation(updateGlossary)
  const action = useAction()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setSaid("")
    const translations = { [from]: source.trim(), [to]: target.trim() }
    const done = await action.run(() => update({
      params: { organizationId: props.organizationId },
      payload: { operations: [{ type: "insert", translations }] },
      reactivityKeys: [glossaryKey(props.organizationId)]
    }))
    if (done) {
      setSaid(`Added “${source.trim()}”: runs translate it as “${target.trim()}”.`)
      setSource("")
      setTarget("")
    }
  }
  const at = (code: string) => `operations[0].translations.${code}`
  return (
    <form className="panel site-form glossary-form" onSubmit={(event) => void submit(event)} aria-label="New glossary entry" noValidate>
      <div className="field-row">
        <SelectField label="Language" name="glossary-from" value={from} onChange={setFrom} options={languageOptions} />
        <Field label="Term" name="glossary-source" value={source} onChange={setSource} error={messageFor(action.problem, at(from))} hint="As it appears in the source, such as Workspace." />
      </div>
      <div className="field-row">
        <SelectField label="Translated into" name="glossary-to" value={to} onChange={setTo} options={languageOptions} />
        <Field label="Translation" name="glossary-target" value={target} onChange={setTarget} error={messageFor(action.problem, at(to))} hint="What every run writes for it." />
      </div>
      <FormActions error={messageElse(action.problem, at(from), at(to))} busy={action.busy} label="Add to glossary" busyLabel="Adding…" />
      <p className="status" role="status">{said}</p>
    </form>
  )
}

export const Glossary = (props: { readonly organizationId: string; readonly admin: boolean }) => {
  const entries = useAtomValue(glossaryAtom(props.organizationId))
  const update = useMutation(updateGlossary)
  const action = useAction()
  const [said, setSaid] = useState("")
  const remove = async (entry: GlossaryEntry) => {
    setSaid("")
    const done = await action.run(() => update({
      params: { organizationId: props.organizationId },
      payload: { operations: [{ type: "delete", id: entry.id }] },
      reactivityKeys: [glossaryKey(props.organizationId)]
    }))
    if (done) setSaid("Deleted the entry.")
  }
  return (
    <section className="glossary" aria-labelledby="glossary-title">
      <h2 id="glossary-title">Glossary</h2>
      <p className="muted">Terms every translation run keeps as given here, in each language an entry names.</p>
      {props.admin ? <NewEntry organizationId={props.organizationId} /> : null}
      {AsyncResult.isFailure(entries) ? <Failure result={entries} /> : !AsyncResult.isSuccess(entries) ? <Loading what="the glossary" /> : entries.value.items.length === 0
        ? <p className="muted">No glossary entries yet.</p>
        : (
          <ul className="glossary-entries">
            {entries.value.items.map((entry) => (
              <li key={entry.id}>
                <span>{describe(entry)}</span>
                {props.admin ? <button type="button" className="link danger" disabled={action.busy} onClick={() => void remove(entry)}>Delete<span className="visually-hidden"> — {describe(entry)}</span></button> : null}
              </li>
            ))}
          </ul>
        )}
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.message}</p>}
      <span className="status" role="status">{said}</span>
    </section>
  )
}
