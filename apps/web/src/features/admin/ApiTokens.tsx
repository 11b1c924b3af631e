/**
 * The signed-in person's API tokens (`/settings/tokens`): created with a name and an expiry (the
 * secret shown once, with a copy button), listed with when each was last used, revoked after a
 * confirmation. UsersApi's `createUserToken`, `listUserTokens`, `deleteUserTokenById`.
 */
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Field } from "../../ui/Field.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { formatTime } from "../../ui/time.ts"
import { expiresAtOf, expiryChoices, problemOf } from "./problems.ts"
import { tokensAtom, tokensKey } from "./queries.ts"
import { Confirm, CopyButton, FormError, SelectField, useForm } from "./ui.tsx"

const createToken = QuireApi.mutation("users", "createUserToken")
const deleteToken = QuireApi.mutation("users", "deleteUserTokenById")

interface Revoking { readonly id: string; readonly name: string }

export const ApiTokens = (props: { readonly userId: string }) => {
  const tokens = useAtomValue(tokensAtom(props.userId))
  const [label, setLabel] = useState("")
  const [expiry, setExpiry] = useState<string>("30")
  const [secret, setSecret] = useState<{ readonly name: string; readonly token: string } | undefined>(undefined)
  const [revoking, setRevoking] = useState<Revoking | undefined>(undefined)
  const [revokeProblem, setRevokeProblem] = useState<string | undefined>(undefined)
  const [status, setStatus] = useState("")
  const create = useMutation(createToken)
  const revoke = useMutation(deleteToken)
  const { busy, errors, submit, check } = useForm(["label", "expiresAt"])
  const reactivityKeys = [tokensKey(props.userId)]
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    setStatus("")
    const name = label.trim()
    if (!check(name === "" ? { label: "Name the token after what will use it, such as “CI” or “laptop CLI”." } : name.length > 100 ? { label: "A token's name has at most 100 characters." } : {})) return
    void submit(async () => {
      const expiresAt = expiresAtOf(expiry, new Date())
      const made = await create({ params: { userId: props.userId }, payload: { label: name, ...(expiresAt === undefined ? {} : { expiresAt }) }, reactivityKeys })
      setSecret({ name, token: made.token })
      setLabel("")
    })
  }
  return (
    <section aria-labelledby="tokens-heading" className="admin-section">
      <h2 id="tokens-heading">API tokens</h2>
      <p className="muted">A token lets a program (the <code>quire</code> CLI, a script, CI) call the API as you, with your access. Keep it secret.</p>
      <form onSubmit={onSubmit} noValidate className="admin-form inline-form">
        <FormError errors={errors} />
        <Field label="Token name" name="label" value={label} onChange={setLabel} error={errors.fields["label"]} autoComplete="off" />
        <SelectField label="Expires after" name="expiresAt" value={expiry} onChange={setExpiry} options={expiryChoices} error={errors.fields["expiresAt"]} />
        <div className="toolbar"><button type="submit" className="primary" disabled={busy}>{busy ? "Creating…" : "Create a token"}</button></div>
      </form>
      {secret === undefined ? null : (
        <div className="secret panel" role="region" aria-labelledby="secret-heading">
          <h3 id="secret-heading">Your new token “{secret.name}”</h3>
          <p>Copy it now: it is shown only this once.</p>
          <label className="visually-hidden" htmlFor="token-secret">The token's secret</label>
          <input id="token-secret" className="link-field" readOnly value={secret.token} onFocus={(event) => event.target.select()} />
          <div className="toolbar">
            <CopyButton text={secret.token} label="Copy the token" selectId="token-secret" />
            <button type="button" onClick={() => setSecret(undefined)}>Done</button>
          </div>
        </div>
      )}
      <span className="status" role="status">{status}</span>
      {AsyncResult.isInitial(tokens) ? <Loading what="tokens" /> : AsyncResult.isFailure(tokens) ? <Failure result={tokens} />
        : tokens.value.items.length === 0 ? <p className="muted">You have no API token.</p>
        : (
          <table className="admin-table">
            <thead><tr><th scope="col">Name</th><th scope="col" className="wide">Created</th><th scope="col">Last used</th><th scope="col" className="wide">Expires</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {tokens.value.items.map((token) => {
                const name = token.label ?? "Unnamed token"
                return (
                  <tr key={token.id}>
                    <td>{name}{token.organization === undefined ? null : <div className="muted small">Single sign-on, one organization</div>}</td>
                    <td className="wide">{formatTime(token.createdAt)}</td>
                    <td>{token.lastUsedAt === undefined ? <span className="muted">Never</span> : formatTime(token.lastUsedAt)}</td>
                    <td className="wide">{token.expiresAt === undefined ? <span className="muted">Never</span> : formatTime(token.expiresAt)}</td>
                    <td><button type="button" onClick={() => { setRevokeProblem(undefined); setRevoking({ id: token.id, name }) }} aria-label={`Revoke the token ${name}`}>Revoke</button></td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        )}
      {revoking === undefined ? null : (
        <Confirm title={`Revoke the token “${revoking.name}”?`} action="Revoke" busyAction="Revoking…" problem={revokeProblem} onClose={() => setRevoking(undefined)}
          onConfirm={async () => {
            try {
              await revoke({ params: { userId: props.userId, tokenId: revoking.id }, reactivityKeys })
              setStatus(`Revoked the token ${revoking.name}.`)
              setRevoking(undefined)
            } catch (error) {
              setRevokeProblem(problemOf(error, []).form)
            }
          }}>
          <p>Programs using it stop working at once.</p>
        </Confirm>
      )}
    </section>
  )
}

export default ApiTokens
