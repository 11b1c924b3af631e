/**
 * `/settings/backups`, for instance administrators: the backups and restores the instance's audit
 * log records (`GET /admin/audit-events`, the session being an instance administrator's), and how
 * to take and restore one. Taking one stays with `quire db backup` and an instance administrator's
 * API token, as `POST /admin/backup` allows: the server's snapshot holds the database alone, and the
 * CLI adds the files from the store and writes the dump a restore reads. A restore replaces the
 * whole instance and runs on the database host with the server stopped, so no button does it.
 */
import { Effect } from "effect"
import { AsyncResult, Atom } from "effect/reactivity"
import { useId } from "react"
import { useAtomValue } from "../../api/react.ts"
import { Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { formatTime } from "../../ui/time.ts"
import { CopyButton } from "./ui.tsx"

interface BackupEvent {
  readonly id: string
  readonly occurredAt: string
  readonly action: string
  readonly actor: { readonly type: string; readonly id: string; readonly label?: string }
  readonly payload?: { readonly bytes?: unknown }
}

/** The instance log's events of one action, newest first (its first page: 20). */
const eventsOf = (action: string) =>
  Effect.tryPromise({
    try: async () => {
      const response = await fetch(`/admin/audit-events?action=${action}&limit=20`, { credentials: "same-origin", headers: { accept: "application/json" } })
      const body = await response.json() as { readonly items: ReadonlyArray<BackupEvent> } | { readonly error: { readonly message: string } }
      if (!response.ok || !("items" in body)) throw new Error("error" in body ? body.error.message : `The server answered ${response.status}`)
      return body.items
    },
    catch: (error) => (error instanceof Error ? error : new Error(String(error)))
  })

/** The instance's administrators, who alone take backups: their names for the history. */
const adminNames = Effect.tryPromise({
  try: async () => {
    const response = await fetch("/admin/users?instanceAdmin=true", { credentials: "same-origin", headers: { accept: "application/json" } })
    if (!response.ok) return new Map<string, string>()
    const body = await response.json() as { readonly items: ReadonlyArray<{ readonly id: string; readonly displayName: string }> }
    return new Map(body.items.map((user) => [user.id, user.displayName]))
  },
  catch: (error) => (error instanceof Error ? error : new Error(String(error)))
})

const historyAtom = Atom.make(Effect.map(
  Effect.all([eventsOf("backup.created"), eventsOf("backup.restored"), adminNames]),
  ([taken, restored, names]) => ({ events: [...taken, ...restored].toSorted((a, b) => b.occurredAt.localeCompare(a.occurredAt)), names })
))

/** A size in the units people read. */
export const sizeWords = (bytes: number): string =>
  bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`

const who = (event: BackupEvent, names: ReadonlyMap<string, string>) =>
  event.actor.type === "system" ? `${event.actor.label ?? "Someone"} on the server’s command line`
    : names.get(event.actor.id) ?? event.actor.label ?? "A former instance administrator"

/** A command to copy, shown selectable. */
const Command = (props: { readonly label: string; readonly text: string }) => {
  const id = useId()
  return (
    <div className="backup-command">
      <label htmlFor={id}>{props.label}</label>
      <div className="copy-row">
        <input id={id} readOnly value={props.text} spellCheck={false} onFocus={(event) => event.currentTarget.select()} />
        <CopyButton text={props.text} label={`Copy: ${props.label}`} short="Copy" selectId={id} />
      </div>
    </div>
  )
}

export const Backups = () => {
  const history = useAtomValue(historyAtom)
  const origin = window.location.origin
  return (
    <div className="admin backups">
      <h2>Backups</h2>
      <p className="muted">A backup is the whole instance: every organization, its content and files, accounts and the audit log. Only an instance administrator takes or restores one.</p>
      <section aria-labelledby="backups-history" className="admin-section">
        <h3 id="backups-history">Backups and restores of this instance</h3>
        {AsyncResult.isFailure(history) ? <Failure result={history} />
          : !AsyncResult.isSuccess(history) ? <Loading what="the backups" />
          : history.value.events.length === 0 ? <p className="muted" role="status">No backup has been taken yet.</p>
          : (
            <table className="admin-table">
              <thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Who</th></tr></thead>
              <tbody>
                {history.value.events.map((event) => (
                  <tr key={event.id} data-action={event.action}>
                    <td><time dateTime={event.occurredAt}>{formatTime(event.occurredAt)}</time></td>
                    <td>{event.action === "backup.created"
                      ? `Backup taken${typeof event.payload?.bytes === "number" ? ` (database ${sizeWords(event.payload.bytes)})` : ""}`
                      : "Backup restored into the instance"}</td>
                    <td>{who(event, history.value.names)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
      </section>
      <section aria-labelledby="backups-take" className="admin-section">
        <h3 id="backups-take">Take a backup</h3>
        <p>On the server’s host, with <Link href="/settings/tokens">an API token</Link> of yours (not limited to one organization) and the server’s data directory or S3 settings, from which the backup adds the files:</p>
        <Command label="Command to back up this instance" text={`QUIRE_URL=${origin} QUIRE_TOKEN=<your token> QUIRE_DATA_DIR=<data directory> quire db backup --out quire-backup.dump`} />
        <p className="muted">The server keeps running while the backup is taken. It holds no instance secret (<code>QUIRE_SECRET</code>): keep that apart. Add <code>--passphrase-file</code> to encrypt it. On PostgreSQL, <code>quire db dump</code> takes the backup instead.</p>
      </section>
      <section aria-labelledby="backups-restore" className="admin-section">
        <h3 id="backups-restore">Restore a backup</h3>
        <p>A restore replaces everything in the instance with the backup. Stop the server, then on its host:</p>
        <Command label="Command to restore a backup" text="QUIRE_DATA_DIR=<data directory> quire db restore --force quire-backup.dump" />
        <p className="muted">Without <code>--force</code> a restore is refused into an instance that holds anything. Start the server again with the same <code>QUIRE_SECRET</code>, so sign-in sessions, invite links and stored credentials keep working.</p>
      </section>
    </div>
  )
}

export default Backups
