/**
 * A change request's conflicts with main, resolved in the page: every conflict of every page,
 * grouped by page, each hunk with the lines around it, main's side and this change's; for each,
 * "Keep main", "Keep this change" or "Edit" (the merged text in a box). Resolving sends every
 * choice at once (`resolveChangeRequestConflicts`: one revision of the change request on top of
 * main, so the next merge is clean).
 */
import type { MergeConflict as MergeConflictSchema } from "@quire/api"
import { useState } from "react"
import { useMutation } from "../../api/react.ts"
import { useAction } from "./action.ts"
import { resolveConflicts } from "./queries.ts"

type MergeConflict = typeof MergeConflictSchema.Type
type Params = { readonly spaceId: string; readonly changeRequestId: string }
type Pick = { readonly take: "main" | "change-request" | "markdown"; readonly markdown?: string }

/** The conflicts of each page (or file), in the order found. */
export const byPage = (items: ReadonlyArray<MergeConflict>): Array<{ readonly key: string; readonly path: string; readonly items: ReadonlyArray<MergeConflict> }> => {
  const groups = new Map<string, { key: string; path: string; items: Array<MergeConflict> }>()
  for (const c of items) {
    const key = c.pageId ?? c.fileId ?? c.path
    const group = groups.get(key) ?? { key, path: c.path, items: [] }
    group.items.push(c)
    groups.set(key, group)
  }
  return [...groups.values()]
}

const kindWords: Record<string, string> = {
  content: "text both sides changed",
  metadata: "a setting both sides changed",
  structure: "its place in the tree",
  "delete-edit": "deleted on one side, edited on the other"
}

/** A metadata value as the API gives it (JSON, or null when that side deleted it). */
const valueText = (value: string | undefined) => value === undefined ? "" : value === "null" ? "(deleted)" : value

const Side = (props: { readonly title: string; readonly text: string; readonly className: string }) => (
  <div className={`conflict-side ${props.className}`}>
    <p className="conflict-side-title">{props.title}</p>
    <pre>{props.text === "" ? "(nothing)" : props.text}</pre>
  </div>
)

const ConflictChoice = (props: { readonly conflict: MergeConflict; readonly label: string; readonly pick: Pick | undefined; readonly onPick: (pick: Pick) => void }) => {
  const c = props.conflict
  const hunks = c.hunks ?? []
  const content = c.kind === "content" && hunks.length > 0
  const theirs = hunks.map((h) => h.theirs).join("\n")
  const name = `take-${c.id}`
  return (
    <fieldset className="review-conflict">
      <legend>{props.label}</legend>
      {c.field !== undefined && c.kind !== "content" && <p className="muted">{c.field}: {kindWords[c.kind] ?? c.kind}</p>}
      {c.context && c.context.before.length > 0 && <pre className="conflict-context"><span className="visually-hidden">Lines before: </span>{c.context.before.join("\n")}</pre>}
      <div className="conflict-sides">
        {content ? hunks.map((h, i) => (
          <div key={i} className="conflict-hunk">
            <Side title="Main" text={h.ours} className="conflict-main" />
            <Side title="This change" text={h.theirs} className="conflict-change" />
          </div>
        )) : (
          <div className="conflict-hunk">
            <Side title="Main" text={valueText(c.ours)} className="conflict-main" />
            <Side title="This change" text={valueText(c.theirs)} className="conflict-change" />
          </div>
        )}
      </div>
      {c.context && c.context.after.length > 0 && <pre className="conflict-context"><span className="visually-hidden">Lines after: </span>{c.context.after.join("\n")}</pre>}
      <div className="conflict-choices">
        <label><input type="radio" name={name} checked={props.pick?.take === "main"} onChange={() => props.onPick({ take: "main" })} /> Keep main</label>
        <label><input type="radio" name={name} checked={props.pick?.take === "change-request"} onChange={() => props.onPick({ take: "change-request" })} /> Keep this change</label>
        {content && <label><input type="radio" name={name} checked={props.pick?.take === "markdown"} onChange={() => props.onPick({ take: "markdown", markdown: props.pick?.markdown ?? theirs })} /> Edit</label>}
      </div>
      {props.pick?.take === "markdown" && (
        <div className="conflict-edit">
          <label htmlFor={`merged-${c.id}`}>Merged text</label>
          <textarea id={`merged-${c.id}`} value={props.pick.markdown ?? ""} onChange={(e) => props.onPick({ take: "markdown", markdown: e.target.value })} />
        </div>
      )}
    </fieldset>
  )
}

export const Conflicts = (props: {
  readonly params: Params
  readonly conflicts: { readonly items: ReadonlyArray<MergeConflict>; readonly stale: boolean }
  /** Page titles by id (the changed pages), to name a page rather than its path. */
  readonly titles: ReadonlyMap<string, string>
  readonly onDone: () => void
}) => {
  const resolve = useMutation(resolveConflicts)
  const run = useAction()
  const [picks, setPicks] = useState<Record<string, Pick>>({})
  const items = props.conflicts.items
  const chosen = items.filter((c) => picks[c.id] !== undefined).length
  const pages = byPage(items).map((page) => ({ ...page, name: props.titles.get(page.key) ?? page.path }))
  return (
    <section aria-labelledby="conflicts-h" className="review-conflicts">
      <h2 id="conflicts-h">Conflicts</h2>
      <p>{items.length} conflict{items.length === 1 ? "" : "s"} with main on {pages.length} page{pages.length === 1 ? "" : "s"}: choose a side or edit the merged text for each, then resolve.</p>
      {props.conflicts.stale && <p role="alert">Main moved since these were found: update from main first.</p>}
      {pages.map((page) => (
        <section key={page.key} className="conflict-page" aria-label={`Conflicts on ${page.name}`}>
          <h3>{page.name} <span className="muted">({page.path})</span></h3>
          {page.items.map((c, i) => (
            <ConflictChoice key={c.id} conflict={c} pick={picks[c.id]} onPick={(pick) => setPicks((all) => ({ ...all, [c.id]: pick }))}
              label={page.items.length === 1 ? `Conflict on ${page.name}` : `Conflict ${i + 1} of ${page.items.length} on ${page.name}`} />
          ))}
        </section>
      ))}
      <div className="review-toolbar">
        <button type="button" className="primary" disabled={chosen < items.length || run.busy} aria-describedby="conflicts-left" onClick={() => void run.run(async () => {
          await resolve({ params: props.params, payload: { resolutions: items.map((c) => ({ conflict: c.id, ...picks[c.id]! })) } })
          props.onDone()
        })}>Resolve conflicts</button>
        <span id="conflicts-left" className="muted">{chosen} of {items.length} chosen</span>
      </div>
      {run.error && <p className="review-error" role="alert">{run.error}</p>}
    </section>
  )
}
