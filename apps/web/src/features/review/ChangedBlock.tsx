/**
 * A changed block of the inline diff: its text with what was inserted and deleted marked (code and
 * formulas keep their lines); a block of another kind (an image, tabs, cards) drawn as it was and as it is.
 */
import type { Node as PMNode } from "@tiptap/pm/model"
import type { ReactElement } from "react"
import { type BlockRow, type Range, type RenderedDiff } from "./diff.ts"
import { DiffBlock, type Draw } from "./DiffBlock.tsx"

/** Blocks whose change is shown as text with insertions and deletions; any other changed block is shown before and after. */
export const textual = new Set(["paragraph", "heading", "blockquote", "bulletList", "orderedList", "taskList", "hint"])

/** A slice of text with the marks a reader sees (bold, italic, code, strike; a link's text underlined, its target in the title). */
export const withMarks = (node: PMNode, text: string, key: string): ReactElement => {
  let out: ReactElement = <span key={key}>{text}</span>
  for (const mark of node.marks) {
    const name = mark.type.name
    out = name === "bold" ? <strong key={key}>{out}</strong>
      : name === "italic" ? <em key={key}>{out}</em>
      : name === "code" ? <code key={key}>{out}</code>
      : name === "strike" ? <s key={key}>{out}</s>
      : name === "highlight" ? <mark key={key}>{out}</mark>
      : name === "link" ? <span key={key} className="review-link" title={String(mark.attrs.href ?? "")}>{out}</span>
      : out
  }
  return out
}

/** A changed block's text with insertions, deletions and reformatted text marked (positions of the head and base documents). */
export const inlineText = (head: PMNode, base: PMNode, block: Range, row: BlockRow) => {
  const inserted = row.inserted ?? []
  const formatted = row.formatted ?? []
  const parts: Array<ReactElement> = []
  const dels = (row.deleted ?? []).toSorted((a, b) => a.at - b.at)
  let d = 0
  const flushDeletions = (pos: number) => {
    while (d < dels.length && dels[d]!.at <= pos) {
      const del = dels[d]!
      parts.push(<del key={`d${d}`}>{base.textBetween(del.from, del.to, " ")}</del>)
      d++
    }
  }
  const cuts = [...inserted, ...formatted].flatMap((r) => [r.from, r.to])
  head.nodesBetween(block.from, block.to, (node, pos) => {
    if (!node.isText || node.text === undefined) return true
    const text = node.text
    let i = 0
    while (i < text.length) {
      const at = pos + i
      flushDeletions(at)
      const nextDel = d < dels.length && dels[d]!.at > at ? dels[d]!.at : Infinity
      const boundary = Math.min(pos + text.length, nextDel, ...cuts.filter((c) => c > at))
      const slice = withMarks(node, text.slice(i, boundary - pos), `t${at}`)
      const ins = inserted.some((r) => r.from <= at && at < r.to)
      const reformatted = formatted.some((r) => r.from <= at && at < r.to)
      parts.push(ins ? <ins key={`i${at}`}>{slice}</ins>
        : reformatted ? <span key={`f${at}`} className="review-formatted" title="Formatting changed">{slice}<span className="visually-hidden"> (formatting changed)</span></span>
        : slice)
      i = boundary - pos
    }
    return false
  })
  flushDeletions(Infinity)
  return parts
}

export interface ChangedBlockProps {
  readonly diff: RenderedDiff
  readonly row: BlockRow
  readonly draw: { readonly base: Draw; readonly head: Draw }
}

/**
 * A changed block: its text with what was inserted and deleted marked (code and formulas keep their
 * lines); a block of another kind (an image, tabs, cards) drawn as it was and as it is.
 */
export const ChangedBlock = (props: ChangedBlockProps) => {
  const { diff, row } = props
  const head = diff.head.child(row.head!.index)
  if (textual.has(head.type.name) || head.type.name === "codeBlock" || head.type.name === "mathBlock") {
    const text = inlineText(diff.head, diff.base, row.head!, row)
    return (
      <div className="review-block review-changed markdown" data-kind="changed">
        {head.type.name === "codeBlock" || head.type.name === "mathBlock" ? <pre><code>{text}</code></pre> : <p>{text}</p>}
      </div>
    )
  }
  return (
    <>
      {row.base && <DiffBlock doc={diff.base} index={row.base.index} kind="removed" draw={props.draw.base} />}
      <DiffBlock doc={diff.head} index={row.head!.index} kind="added" draw={props.draw.head} />
    </>
  )
}
