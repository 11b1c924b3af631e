/**
 * A site's channels (GitBook's `SiteChannel`): a Slack or Discord channel, Linear teams or GitHub
 * repositories where the site's assistant is to answer, with the names it is allowed in and the
 * role it answers as. Editors add, change and remove them; each stays pending until its
 * integration is connected.
 */
import type { Site } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useId, useState } from "react"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Field, FormActions } from "../../ui/Field.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { messageElse, messageFor } from "./errors.ts"
import { channelsAtom, createChannel, deleteChannel, siteKey, siteRef, updateChannel, useAction } from "./queries.ts"

const types = [
  { type: "builtin:slack", label: "Slack", key: "allowedChannels", names: "Slack channels" },
  { type: "builtin:discord", label: "Discord", key: "allowedChannels", names: "Discord channels" },
  { type: "builtin:linear", label: "Linear", key: "allowedTeams", names: "Linear teams" },
  { type: "builtin:github", label: "GitHub", key: "allowedRepositories", names: "GitHub repositories (owner/name)" }
] as const
type ChannelType = typeof types[number]["type"]
const typeOf = (type: string) => types.find((t) => t.type === type) ?? types[0]
const namesOf = (text: string) => text.split(/[,\s]+/).map((n) => n.trim()).filter((n) => n !== "")

export const Channels = (props: { readonly organizationId: string; readonly site: Site }) => {
  const ref = siteRef(props.organizationId, props.site.id)
  const channels = useAtomValue(channelsAtom(ref))
  const [adding, setAdding] = useState(false)
  const [said, say] = useState("")
  return (
    <section className="panel" aria-labelledby="channels-heading">
      <h3 id="channels-heading">Channels</h3>
      <p className="muted">Where the site's assistant answers outside the site. A channel stays pending until its integration is connected.</p>
      <p className="status" role="status">{said}</p>
      {AsyncResult.isFailure(channels) ? <Failure result={channels} /> : !AsyncResult.isSuccess(channels) ? <Loading what="the channels" /> : (
        channels.value.items.length === 0 ? <p className="muted">No channel yet.</p> : (
          <ul className="site-channels" aria-label="Channels">
            {channels.value.items.map((channel) => <ChannelRow key={channel.id} organizationId={props.organizationId} siteId={props.site.id} channel={channel} say={say} />)}
          </ul>
        )
      )}
      {props.site.permissions.edit ? adding
        ? <ChannelForm organizationId={props.organizationId} siteId={props.site.id} say={say} onDone={() => setAdding(false)} />
        : <button type="button" onClick={() => setAdding(true)}>Add a channel</button>
        : null}
    </section>
  )
}

interface ChannelView { readonly id: string; readonly type: string; readonly role: string; readonly status: string; readonly setupSettings: Readonly<Record<string, ReadonlyArray<string>>> }

const ChannelRow = (props: { readonly organizationId: string; readonly siteId: string; readonly channel: ChannelView; readonly say: (message: string) => void }) => {
  const { channel } = props
  const [editing, setEditing] = useState(false)
  const remove = useMutation(deleteChannel)
  const action = useAction()
  const kind = typeOf(channel.type)
  const names = channel.setupSettings[kind.key] ?? []
  const onRemove = () => void action.run(async () => {
    await remove({ params: { organizationId: props.organizationId, siteId: props.siteId, siteChannelId: channel.id }, reactivityKeys: [siteKey(props.siteId)] })
    props.say(`Removed the ${kind.label} channel`)
  })
  return (
    <li data-testid={`channel-${channel.id}`}>
      <strong>{kind.label}</strong> <span className="badge">{channel.role === "support" ? "Support" : "Collaborator"}</span> <span className="meta">{channel.status}</span>
      <span className="meta"> {names.length === 0 ? "anywhere" : names.join(", ")}</span>
      {editing ? null : (
        <>
          {" "}<button type="button" className="link" onClick={() => setEditing(true)} aria-label={`Edit the ${kind.label} channel`}>Edit</button>
          <button type="button" className="link danger" onClick={onRemove} disabled={action.busy} aria-label={`Remove the ${kind.label} channel`}>Remove</button>
        </>
      )}
      {editing ? <ChannelForm organizationId={props.organizationId} siteId={props.siteId} channel={channel} say={props.say} onDone={() => setEditing(false)} /> : null}
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.message}</p>}
    </li>
  )
}

const ChannelForm = (props: { readonly organizationId: string; readonly siteId: string; readonly channel?: ChannelView; readonly say: (message: string) => void; readonly onDone: () => void }) => {
  const { channel } = props
  const [type, setType] = useState<ChannelType>(channel === undefined ? "builtin:slack" : typeOf(channel.type).type)
  const [names, setNames] = useState(channel === undefined ? "" : (channel.setupSettings[typeOf(channel.type).key] ?? []).join(", "))
  const [role, setRole] = useState<"support" | "collaborator">(channel?.role === "collaborator" ? "collaborator" : "support")
  const create = useMutation(createChannel)
  const update = useMutation(updateChannel)
  const action = useAction()
  const typeId = useId()
  const roleId = useId()
  const kind = typeOf(type)
  const params = { organizationId: props.organizationId, siteId: props.siteId }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const setupSettings = { [kind.key]: namesOf(names) }
    const done = await action.run(() => channel === undefined
      ? create({ params, payload: { type, setupSettings, role }, reactivityKeys: [siteKey(props.siteId)] })
      : update({ params: { ...params, siteChannelId: channel.id }, payload: { type, setupSettings, role }, reactivityKeys: [siteKey(props.siteId)] }))
    if (done) {
      props.say(channel === undefined ? `Added the ${kind.label} channel` : `Saved the ${kind.label} channel`)
      props.onDone()
    }
  }
  return (
    <form className="site-form" onSubmit={(event) => void submit(event)} aria-label={channel === undefined ? "New channel" : "Edit channel"}>
      <div className="field">
        <label htmlFor={typeId}>Where</label>
        <select id={typeId} value={type} onChange={(event) => setType(event.target.value as ChannelType)}>
          {types.map((t) => <option key={t.type} value={t.type}>{t.label}</option>)}
        </select>
        {messageFor(action.problem, "type") === undefined ? null : <p className="field-error" role="alert">{messageFor(action.problem, "type")}</p>}
      </div>
      <Field label={kind.names} name="names" value={names} onChange={setNames} error={messageFor(action.problem, "setupSettings")} hint="Separated by commas; * matches any text; empty: anywhere." />
      <div className="field">
        <label htmlFor={roleId}>Answers as</label>
        <select id={roleId} value={role} onChange={(event) => setRole(event.target.value === "collaborator" ? "collaborator" : "support")}>
          <option value="support">Support (answers readers' questions)</option>
          <option value="collaborator">Collaborator (helps the team write)</option>
        </select>
      </div>
      <FormActions error={messageElse(action.problem, "type", "setupSettings")} busy={action.busy} label={channel === undefined ? "Add channel" : "Save"} busyLabel="Saving…" onCancel={props.onDone} />
    </form>
  )
}
