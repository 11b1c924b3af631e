/** One changed page's diff, loaded with import(): rendered blocks (inline or side by side), next/previous change, the markdown diff a click away, block comments. */
import type { Node as PMNode } from "@tiptap/pm/model"
import { type ReactElement, useEffect, useMemo, useState } from "react"
import { createMarkdownCodec, createSchema } from "@quire/document"
import { linkRenderStylesheet } from "../../ui/render-stylesheet.ts"
import { fileUrls, type StoredFile } from "../files/file-urls.ts"
import { anchorAt, blockText, encodeAnchor } from "./anchors.ts"
import { lineDiff, nextStop, pageDiff, type BlockRow, type PageDiff, type Range, type RenderedDiff } from "./diff.ts"
import { blockDrawer } from "./render.ts"

const schema = createSchema()
const codec = createMarkdownCodec(schema)

/** A block's drawing (HTML) as the published site draws it. */
type Draw = (node: PMNode) => string

/** The stored files of each side: the diff's images load from them. */
export interface DiffFiles {
  readonly base: ReadonlyArray<StoredFile>
  readonly head: ReadonlyArray<StoredFile>
}

/** One drawer per side, each resolving a file among its own side's files first, then the other's. */
const useDrawers = (files: DiffFiles | undefined): { readonly base: Draw; readonly head: Draw } =>
  useMemo(() => {
    const base = fileUrls(files?.base)
    const head = fileUrls(files?.head)
    return {
      base: blockDrawer(schema, (src) => base.resolve(src) ?? head.resolve(src)),
      head: blockDrawer(schema, (src) => head.resolve(src) ?? base.resolve(src))
    }
  }, [files])

/** Blocks whose change is shown as text with insertions and deletions; any other changed block is shown before and after. */
const textual = new Set(["paragraph", "heading", "blockquote", "bulletList", "orderedList", "taskList", "hint"])

/** A slice of text with the marks a reader sees (bold, italic, code, strike; a link's text underlined, its target in the title). */
const withMarks = (node: PMNode, text: string, key: string): ReactElement => {
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
const inlineText = (head: PMNode, base: PMNode, block: Range, row: BlockRow) => {
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

/** What the badge of a changed block says: only its formatting changed, or it changed. */
const changedLabel = (row: BlockRow) =>
  (row.formatted ?? []).length > 0 && (row.inserted ?? []).length === 0 && (row.deleted ?? []).length === 0 && (row.attributes ?? []).length === 0 ? "Formatting changed" : "Changed"

interface BlockProps {
  readonly doc: PMNode
  readonly index: number
  readonly kind: string
  readonly draw: Draw
}

const Block = (props: BlockProps) => (
  <div className={`review-block review-${props.kind} markdown`} data-kind={props.kind} dangerouslySetInnerHTML={{ __html: props.draw(props.doc.child(props.index)) }} />
)

interface ChangedBlockProps {
  readonly diff: RenderedDiff
  readonly row: BlockRow
  readonly draw: { readonly base: Draw; readonly head: Draw }
}

/**
 * A changed block: its text with what was inserted and deleted marked (code and formulas keep their
 * lines); a block of another kind (an image, tabs, cards) drawn as it was and as it is.
 */
const ChangedBlock = (props: ChangedBlockProps) => {
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
      {row.base && <Block doc={diff.base} index={row.base.index} kind="removed" draw={props.draw.base} />}
      <Block doc={diff.head} index={row.head!.index} kind="added" draw={props.draw.head} />
    </>
  )
}

const kindLabel: Record<string, string> = { added: "Added", removed: "Removed", changed: "Changed", same: "" }

interface DiffViewProps {
  readonly base: string
  readonly head: string
  /** The files of each side, for images; without them an image keeps its src. */
  readonly files?: DiffFiles | undefined
  readonly onComment: (node: string, quote: string) => void
}

export const DiffView = (props: DiffViewProps) => {
  useEffect(linkRenderStylesheet, [])
  const draw = useDrawers(props.files)
  const diff: PageDiff = useMemo(() => pageDiff(codec, props.base, props.head), [props.base, props.head])
  const [mode, setMode] = useState<"inline" | "split" | "markdown">("inline")
  const [stop, setStop] = useState(-1)
  const count = diff.changes.length
  const go = (dir: 1 | -1) => {
    const next = nextStop(count, stop, dir)
    setStop(next)
    const row = diff.kind === "rendered" ? diff.changes[next]?.row : diff.changes[next]?.from
    document.getElementById(`row-${row}`)?.scrollIntoView({ block: "center" })
    document.getElementById(`row-${row}`)?.focus()
  }
  const comment = (row: BlockRow) => {
    if (diff.kind !== "rendered" || row.head === undefined) return
    const block = diff.head.child(row.head.index)
    const text = blockText(block)
    props.onComment(encodeAnchor(anchorAt(diff.head, row.head.index, 0, Math.min(text.length, 40))), text.slice(0, 80))
  }
  return (
    <div className="review-diff">
      <div className="review-toolbar" role="toolbar" aria-label="Diff view">
        <button type="button" aria-pressed={mode === "inline"} onClick={() => setMode("inline")}>Inline</button>
        <button type="button" aria-pressed={mode === "split"} onClick={() => setMode("split")}>Side by side</button>
        <button type="button" aria-pressed={mode === "markdown"} onClick={() => setMode("markdown")}>Markdown</button>
        <span className="muted">{count} change{count === 1 ? "" : "s"}</span>
        <button type="button" onClick={() => go(-1)} disabled={count === 0}>Previous change</button>
        <button type="button" onClick={() => go(1)} disabled={count === 0}>Next change</button>
      </div>
      {diff.kind === "lines" || mode === "markdown" ? <Lines base={props.base} head={props.head} diff={diff} /> : mode === "split" ? (
        <div className="review-split">
          {diff.split.map((row, i) => (
            <div key={i} className="review-split-row" id={`row-${row.headRow ?? row.baseRow}`} tabIndex={-1}>
              <div>{row.base && <Block doc={diff.base} index={row.base.index} kind={row.kind === "same" ? "same" : "removed"} draw={draw.base} />}</div>
              <div>{row.head && <Block doc={diff.head} index={row.head.index} kind={row.kind === "same" ? "same" : "added"} draw={draw.head} />}</div>
            </div>
          ))}
        </div>
      ) : (
        <div className="review-unified">
          {diff.markdownOnly && <p className="muted">Only how the markdown is written changed; nothing a reader sees. Open the markdown diff.</p>}
          {diff.rows.map((row, i) => (
            <div key={i} id={`row-${i}`} tabIndex={-1} className="review-row">
              {row.kind !== "same" && <span className={`review-badge review-badge-${row.kind}`}>{row.kind === "changed" ? changedLabel(row) : kindLabel[row.kind]}</span>}
              {row.kind === "removed" && row.base && <Block doc={diff.base} index={row.base.index} kind="removed" draw={draw.base} />}
              {(row.kind === "added" || row.kind === "same") && row.head && <Block doc={diff.head} index={row.head.index} kind={row.kind} draw={draw.head} />}
              {row.kind === "changed" && row.head && <ChangedBlock diff={diff} row={row} draw={draw} />}
              {row.head && row.kind !== "removed" && (
                <button type="button" className="review-comment-block" onClick={() => comment(row)} aria-label={`Comment on block ${i + 1}`}>Comment</button>
              )}
            </div>
          ))}
        </div>
      )}
    </div>
  )
}

const Lines = (props: { readonly base: string; readonly head: string; readonly diff: PageDiff }) => {
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

const LineFallback = (props: { readonly base: string; readonly head: string }) => {
  const rows = useMemo(() => lineDiff(props.base, props.head, "").rows, [props.base, props.head])
  return <pre>{rows.map((r, i) => <div key={i} className={`review-line-${r.kind}`}>{r.kind === "added" ? "+ " : r.kind === "removed" ? "- " : "  "}{r.text}</div>)}</pre>
}
