/**
 * The DNS status of a site's own hostname (`getCustomHostname`) and "Check again"
 * (`dnsRevalidateCustomHostname`): whether its DNS points at this server yet, and what it points at
 * when it does not. Editors of the site check; everyone who sees the settings reads the status.
 */
import type { CustomHostname } from "@quire/api"
import { AsyncResult, Atom } from "effect/reactivity"
import { useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Failure, Loading } from "../../ui/States.tsx"
import { useAction } from "./queries.ts"
import { messageElse } from "./errors.ts"

export const hostnameKey = (hostname: string) => `hostname:${hostname}`

const hostnameAtom = Atom.family((hostname: string) =>
  QuireApi.query("customHostnames", "getCustomHostname", { params: { hostname }, reactivityKeys: [hostnameKey(hostname)] }))

const revalidate = QuireApi.mutation("customHostnames", "dnsRevalidateCustomHostname")

/** The status in words: what is right, or what to change. */
const describe = (h: CustomHostname): { readonly tone: "ok" | "warn"; readonly text: string } => {
  const target = h.dns?.target ?? "this server"
  switch (h.status) {
    case "live":
      return { tone: "ok", text: `Live: ${h.hostname} points at ${target}.` }
    case "dns_wrong_cname":
      return { tone: "warn", text: `${h.hostname} points at ${h.dns?.found.join(", ") || "another address"}, not ${target}. Change its CNAME record to ${target}.` }
    case "dns_no_cname":
      return {
        tone: "warn",
        text: `No CNAME or A record found for ${h.hostname}. Add ${/^[\d.]+$/.test(target) ? "an A record" : "a CNAME record"} pointing to ${target}.`
      }
    case "internal_error":
      return { tone: "warn", text: "The DNS could not be asked just now. Check again in a moment." }
    default:
      return { tone: "warn", text: "Not checked yet. Point the hostname's DNS at this server, then check." }
  }
}

export const HostnameDns = (props: { readonly hostname: string; readonly canCheck: boolean }) => {
  const current = useAtomValue(hostnameAtom(props.hostname))
  const check = useMutation(revalidate)
  const action = useAction()
  const [checkedAt, setCheckedAt] = useState("")
  if (AsyncResult.isFailure(current)) return <Failure result={current} />
  if (!AsyncResult.isSuccess(current)) return <Loading what="the hostname's DNS status" />
  const { tone, text } = describe(current.value)
  const run = async () => {
    const done = await action.run(() => check({ params: { hostname: props.hostname }, reactivityKeys: [hostnameKey(props.hostname)] }))
    if (done) setCheckedAt(new Date().toLocaleTimeString())
  }
  const problem = messageElse(action.problem)
  return (
    <section className="panel site-form hostname-dns" aria-label="DNS status">
      <h3>DNS status</h3>
      <p className={`dns-status dns-${tone}`} data-status={current.value.status ?? "unchecked"}>{text}</p>
      {current.value.dns === undefined ? null : <p className="muted">Last checked {new Date(current.value.dns.checkedAt).toLocaleString()}.</p>}
      {props.canCheck
        ? (
          <div className="toolbar">
            <button type="button" onClick={() => void run()} disabled={action.busy} aria-busy={action.busy}>{action.busy ? "Checking…" : "Check again"}</button>
            <span className="status" role="status">{checkedAt === "" ? "" : `Checked at ${checkedAt}.`}</span>
          </div>
        )
        : null}
      {problem === undefined ? null : <p className="form-error" role="alert">{problem}</p>}
    </section>
  )
}
