/** A line diff of two markdown texts, as `+`/`-` lines. */
import { useMemo } from "react"
import { lineDiff } from "./diff.ts"

export interface LineFallbackProps {
  readonly base: string
  readonly head: string
}

export const LineFallback = (props: LineFallbackProps) => {
  const rows = useMemo(() => lineDiff(props.base, props.head, "").rows, [props.base, props.head])
  return <pre>{rows.map((r, i) => <div key={i} className={`review-line-${r.kind}`}>{r.kind === "added" ? "+ " : r.kind === "removed" ? "- " : "  "}{r.text}</div>)}</pre>
}
