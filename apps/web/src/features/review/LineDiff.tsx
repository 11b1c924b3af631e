/** The markdown's line diff: the page's own (when the rendered diff gave up, with the reason), or one of the two texts. */
import type { PageDiff } from "./diff.ts"
import { LineFallback } from "./LineFallback.tsx"

export interface LineDiffProps {
  readonly base: string
  readonly head: string
  readonly diff: PageDiff
}

export const LineDiff = (props: LineDiffProps) => {
  const lines = props.diff.kind === "lines" ? props.diff : null
  const rows = lines?.rows ?? []
  return (
    <div className="review-lines">
      {lines && <p className="muted">{lines.reason}</p>}
      {lines === null ? <LineFallback base={props.base} head={props.head} /> : (
        <pre>{rows.map((r, i) => <div key={i} id={`row-${i}`} className={`review-line-${r.kind}`}>{r.kind === "added" ? "+ " : r.kind === "removed" ? "- " : "  "}{r.text}</div>)}</pre>
      )}
    </div>
  )
}
