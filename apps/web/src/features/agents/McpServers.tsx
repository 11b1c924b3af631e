/**
 * A site's MCP servers (GitBook's `SiteMcpServer`): outside tools the site's assistant may call.
 * Listed for the site's editors; added, changed and removed by its admins. Headers are rows of a
 * name and a value; a stored value is never shown back (the API answers `********`): left empty,
 * it is kept.
 */
import type { Site, SiteMcpServer } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useEffect, useRef, useState } from "react"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { EmptyState } from "../../ui/EmptyState.tsx"
import { Field } from "../../ui/Field.tsx"
import { McpIcon, PlusIcon } from "../../ui/icons.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { Confirm, SelectField } from "../admin/ui.tsx"
import { messageElse, messageFor } from "../sites/errors.ts"
import { siteRef, useAction } from "../sites/queries.ts"
import { createMcpServer, deleteMcpServer, mcpServersAtom, siteAgentKey, updateMcpServer } from "./queries.ts"

/** What a stored header's value reads as (sites' `maskedHeaderValue`): sent back, it keeps the value. */
const masked = "********"

interface HeaderRow {
  readonly key: number
  readonly name: string
  readonly value: string
  /** The header is stored: an empty value keeps what is stored. */
  readonly stored: boolean
}

const transports = [
  { value: "sse", label: "Server-sent events (SSE)" },
  { value: "http", label: "Streamable HTTP" }
]

/** The add or edit form; `server` undefined adds one. */
const ServerForm = (props: {
  readonly organizationId: string
  readonly siteId: string
  readonly server: SiteMcpServer | undefined
  readonly onDone: (message: string) => void
  readonly onCancel: () => void
}) => {
  const { server } = props
  const [name, setName] = useState(server?.name ?? "")
  const [url, setUrl] = useState(server?.url ?? "")
  const [transport, setTransport] = useState<string>(server?.transport ?? "http")
  const [condition, setCondition] = useState(server?.condition ?? "")
  const next = useRef(0)
  const [rows, setRows] = useState<ReadonlyArray<HeaderRow>>(() =>
    Object.keys(server?.headers ?? {}).map((header) => ({ key: next.current++, name: header, value: "", stored: true })))
  const create = useMutation(createMcpServer)
  const update = useMutation(updateMcpServer)
  const action = useAction()
  const first = useRef<HTMLDivElement>(null)
  useEffect(() => first.current?.querySelector("input")?.focus(), [])
  const setRow = (key: number, change: Partial<HeaderRow>) => setRows((all) => all.map((row) => (row.key === key ? { ...row, ...change } : row)))
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const headers = Object.fromEntries(rows.filter((row) => row.name.trim() !== "").map((row) => [row.name.trim(), row.stored && row.value === "" ? masked : row.value]))
    const fields = { name: name.trim(), url: url.trim(), transport: transport as SiteMcpServer["transport"], headers, condition: condition.trim() === "" ? null : condition.trim() }
    const params = { organizationId: props.organizationId, siteId: props.siteId }
    const done = await action.run(() =>
      server === undefined
        ? create({ params, payload: fields, reactivityKeys: [siteAgentKey(props.siteId)] })
        : update({ params: { ...params, siteMcpServerId: server.id }, payload: fields, reactivityKeys: [siteAgentKey(props.siteId)] }))
    if (done) props.onDone(server === undefined ? `Added ${fields.name}.` : `Saved ${fields.name}.`)
  }
  const headerError = (row: HeaderRow) => messageFor(action.problem, `headers.${row.name.trim()}`)
  // A refusal of the headers as a whole (too many, a value too long) names `headers`.
  const headersError = action.problem?.field === "headers" ? action.problem.message : undefined
  const named = rows.map((row) => `headers.${row.name.trim()}`)
  const formError = messageElse(action.problem, "name", "url", "transport", "condition", "headers", ...named)
  return (
    <form className="panel mcp-form" onSubmit={(event) => void submit(event)} aria-label={server === undefined ? "Add an MCP server" : `Edit ${server.name}`} noValidate
      onKeyDown={(event) => { if (event.key === "Escape") props.onCancel() }}>
      <h4>{server === undefined ? "Add an MCP server" : `Edit ${server.name}`}</h4>
      <div ref={first}>
        <Field label="Name" name="name" value={name} onChange={setName} error={messageFor(action.problem, "name")} hint="How the assistant and this list call it: 1 to 100 characters." />
      </div>
      <Field label="URL" name="url" type="url" value={url} onChange={setUrl} error={messageFor(action.problem, "url")} autoComplete="off"
        hint="The server's http or https address, such as https://mcp.example.com/mcp. Private addresses are refused unless the server's administrator allows them." />
      <SelectField label="Transport" name="transport" value={transport} onChange={setTransport} options={transports} error={messageFor(action.problem, "transport")} />
      <fieldset className="mcp-headers" aria-describedby="mcp-headers-hint">
        <legend>Headers</legend>
        <p id="mcp-headers-hint" className="hint">Sent with every request, such as Authorization. Values are kept sealed and never shown again{server === undefined ? "" : ": leave one empty to keep it"}.</p>
        {rows.map((row, i) => (
          <div className="mcp-header-row" key={row.key}>
            <div className="field">
              <label htmlFor={`mcp-h-name-${row.key}`}>Header {i + 1} name</label>
              <input id={`mcp-h-name-${row.key}`} value={row.name} autoComplete="off" spellCheck={false} onChange={(event) => setRow(row.key, { name: event.target.value, stored: false })}
                aria-invalid={headerError(row) === undefined ? undefined : true} />
            </div>
            <div className="field">
              <label htmlFor={`mcp-h-value-${row.key}`}>Header {i + 1} value</label>
              <input id={`mcp-h-value-${row.key}`} type="password" value={row.value} autoComplete="off" placeholder={row.stored ? "Unchanged" : ""}
                onChange={(event) => setRow(row.key, { value: event.target.value })}
                aria-invalid={headerError(row) === undefined ? undefined : true} aria-describedby={headerError(row) === undefined ? undefined : `mcp-h-error-${row.key}`} />
            </div>
            <button type="button" className="mcp-header-remove" onClick={() => setRows((all) => all.filter((other) => other.key !== row.key))} aria-label={`Remove header ${i + 1}${row.name === "" ? "" : ` (${row.name})`}`}>Remove</button>
            {headerError(row) === undefined ? null : <p id={`mcp-h-error-${row.key}`} className="field-error" role="alert">{headerError(row)}</p>}
          </div>
        ))}
        {headersError === undefined ? null : <p className="field-error" role="alert">{headersError}</p>}
        <button type="button" onClick={() => setRows((all) => [...all, { key: next.current++, name: "", value: "", stored: false }])}><PlusIcon /> Add a header</button>
      </fieldset>
      <Field label="Condition (optional)" name="condition" value={condition} onChange={setCondition} error={messageFor(action.problem, "condition")} autoComplete="off"
        hint={"Offer the server only to visitors whose claims match, such as visitor.claims.plan == \"pro\". Empty: every visitor."} />
      {formError === undefined ? null : <p className="form-error" role="alert">{formError}</p>}
      <div className="toolbar">
        <button type="submit" className="primary" disabled={action.busy} aria-busy={action.busy}>{action.busy ? "Saving…" : server === undefined ? "Add server" : "Save server"}</button>
        <button type="button" onClick={props.onCancel} disabled={action.busy}>Cancel</button>
      </div>
    </form>
  )
}

export const McpServers = (props: { readonly organizationId: string; readonly site: Site }) => {
  const { site } = props
  const servers = useAtomValue(mcpServersAtom(siteRef(props.organizationId, site.id)))
  const [editing, setEditing] = useState<SiteMcpServer | "new" | undefined>(undefined)
  const [removing, setRemoving] = useState<SiteMcpServer | undefined>(undefined)
  const [said, setSaid] = useState("")
  const remove = useMutation(deleteMcpServer)
  const removal = useAction()
  const admin = site.permissions.admin
  const addButton = admin && editing === undefined
    ? <button type="button" onClick={() => { setSaid(""); setEditing("new") }}><PlusIcon /> Add MCP server</button>
    : undefined
  return (
    <div className="panel mcp-servers">
      <h3>MCP servers</h3>
      <p className="muted">Tools the site's assistant may call over the Model Context Protocol when it helps visitors, such as a ticket system or your product's live data. The assistant on this server does not call them yet.</p>
      {AsyncResult.isFailure(servers) ? <Failure result={servers} /> : !AsyncResult.isSuccess(servers) ? <Loading what="the MCP servers" /> : servers.value.items.length === 0
        ? (
          <EmptyState icon={<McpIcon size={24} />} title="No MCP server" compact action={addButton}>
            {admin ? "Add one to let the assistant reach an outside tool." : "The site's admins add them."}
          </EmptyState>
        )
        : (
          <>
            <ul className="mcp-list" aria-label="MCP servers">
              {servers.value.items.map((server) => (
                <li key={server.id} className="mcp-row">
                  <div className="mcp-row-body">
                    <p className="site-row-title">{server.name}</p>
                    <span className="mcp-url">{server.url}</span>
                    <span className="meta">
                      {server.transport === "http" ? "Streamable HTTP" : "SSE"}
                      {Object.keys(server.headers).length === 0 ? "" : ` · headers: ${Object.keys(server.headers).join(", ")}`}
                      {server.condition === undefined ? "" : ` · when ${server.condition}`}
                    </span>
                  </div>
                  {admin ? (
                    <div className="site-row-actions">
                      <button type="button" onClick={() => { setSaid(""); setEditing(server) }} aria-label={`Edit ${server.name}`}>Edit</button>
                      <button type="button" onClick={() => { removal.clear(); setRemoving(server) }} aria-label={`Remove ${server.name}`}>Remove</button>
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
            {addButton === undefined ? null : <div className="toolbar">{addButton}</div>}
          </>
        )}
      <p className="status" role="status">{said}</p>
      {editing === undefined ? null : (
        <ServerForm key={editing === "new" ? "new" : editing.id} organizationId={props.organizationId} siteId={site.id} server={editing === "new" ? undefined : editing}
          onCancel={() => setEditing(undefined)} onDone={(message) => { setEditing(undefined); setSaid(message) }} />
      )}
      {removing === undefined ? null : (
        <Confirm title={`Remove ${removing.name}?`} action="Remove server" busyAction="Removing…" problem={removal.problem?.message} onClose={() => setRemoving(undefined)}
          onConfirm={async () => {
            const done = await removal.run(() => remove({
              params: { organizationId: props.organizationId, siteId: site.id, siteMcpServerId: removing.id },
              reactivityKeys: [siteAgentKey(site.id)]
            }))
            if (done) {
              setSaid(`Removed ${removing.name}.`)
              setRemoving(undefined)
            }
          }}>
          <p>The assistant will no longer call it. Its stored headers are deleted with it.</p>
        </Confirm>
      )}
    </div>
  )
}
