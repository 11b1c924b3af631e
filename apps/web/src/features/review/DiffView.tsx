/**
 * One changed page's diff, loaded with import(): rendered blocks (inline or side by side),
 * next/previous change, the markdown diff a click away; in the review, the comments on each block
 * beside it in the margin (under it on a narrow screen), and "Comment" opening the comment box
 * right there; words selected in a block get a "Comment on the selection" of their own, the comment
 * then anchored on those words.
 */
import { type ReactNode, useEffect, useMemo, useState } from "react"
import { createMarkdownCodec, createSchema } from "@quire/document"
import { linkRenderStylesheet } from "../../ui/render-stylesheet.ts"
import { fileUrls, type StoredFile } from "../files/file-urls.ts"
import { anchorAt, blockText, encodeAnchor, placeComments } from "./anchors.ts"
import { nearestOccurrence, selectedIn } from "./selection.ts"
import type { ThreadData } from "./Threads.tsx"
import { nextStop, pageDiff, type BlockRow, type PageDiff } from "./diff.ts"
import { blockDrawer, type Typeset } from "./render.ts"
import { DiffBlock, type Draw } from "./DiffBlock.tsx"
import { ChangedBlock } from "./ChangedBlock.tsx"
import { LineDiff } from "./LineDiff.tsx"

const schema = createSchema()
const codec = createMarkdownCodec(schema)

/** The stored files of each side: the diff's images load from them. */
export interface DiffFiles {
  readonly base: ReadonlyArray<StoredFile>
  readonly head: ReadonlyArray<StoredFile>
}

/** One drawer per side, each resolving a file among its own side's files first, then the other's. */
const useDrawers = (files: DiffFiles | undefined, typeset: Typeset | undefined): { readonly base: Draw; readonly head: Draw } =>
  useMemo(() => {
    const base = fileUrls(files?.base)
    const head = fileUrls(files?.head)
    return {
      base: blockDrawer(schema, (src) => base.find(src) ?? head.find(src), typeset),
      head: blockDrawer(schema, (src) => head.find(src) ?? base.find(src), typeset)
    }
  }, [files, typeset])

/** KaTeX, loaded only for a page that has a formula on either side; until then formulas show their TeX. */
const useTypeset = (hasMath: boolean): Typeset | undefined => {
  const [typeset, setTypeset] = useState<Typeset | undefined>(undefined)
  useEffect(() => {
    if (!hasMath) return
    let live = true
    void import("katex").then(({ default: katex }) => {
      if (!live) return
      setTypeset(() => (tex: string) =>
        katex.renderToString(tex, { displayMode: true, throwOnError: false, output: "htmlAndMathml", trust: false, strict: "ignore", maxSize: 50, maxExpand: 1000 }))
    })
    return () => void (live = false)
  }, [hasMath])
  return typeset
}

/** What the badge of a changed block says: only its formatting changed, or it changed. */
const changedLabel = (row: BlockRow) =>
  (row.formatted ?? []).length > 0 && (row.inserted ?? []).length === 0 && (row.deleted ?? []).length === 0 && (row.attributes ?? []).length === 0 ? "Formatting changed" : "Changed"

const kindLabel: Record<string, string> = { added: "Added", removed: "Removed", changed: "Changed", same: "" }

/** A comment's place: the row of its block, its anchor (the comment's `node`) and the words it quotes. */
interface Picked {
  readonly row: number
  readonly node: string
  readonly quote: string
}

/** The review's comments on the page's blocks: each thread drawn by the screen, and the box of a new one. */
export interface BlockComments {
  /** The page's threads anchored on a block (the anchor in `comment.target.node`). */
  readonly threads: ReadonlyArray<ThreadData>
  readonly renderThread: (thread: ThreadData) => ReactNode
  /** The box of a new comment on the block `node` names (`quote`: its text); `close` after posting or cancelling. */
  readonly renderComposer: (node: string, quote: string, close: () => void) => ReactNode
}

export interface DiffViewProps {
  readonly base: string
  readonly head: string
  /** The files of each side, for images; without them an image keeps its src. */
  readonly files?: DiffFiles | undefined
  /** Comments on blocks (the review); without them none is shown or offered. */
  readonly comments?: BlockComments | undefined
}

/** A thread in the margin, reached from the review's panel by its id. */
const MarginThread = (props: { readonly thread: ThreadData; readonly comments: BlockComments }) => (
  <div id={`thread-${props.thread.comment.id}`} tabIndex={-1} className="review-margin-thread">{props.comments.renderThread(props.thread)}</div>
)

export const DiffView = (props: DiffViewProps) => {
  useEffect(linkRenderStylesheet, [])
  const typeset = useTypeset(props.base.includes("$$") || props.head.includes("$$"))
  const draw = useDrawers(props.files, typeset)
  const diff: PageDiff = useMemo(() => pageDiff(codec, props.base, props.head), [props.base, props.head])
  const [mode, setMode] = useState<"inline" | "split" | "markdown">("inline")
  const [stop, setStop] = useState(-1)
  // The row whose comment box is open, and the words it is on.
  const [composing, setComposing] = useState<Picked | undefined>(undefined)
  // Words selected in a block of the head: the row, and their anchor.
  const [picked, setPicked] = useState<Picked | undefined>(undefined)
  const { comments } = props
  // Each thread on the block of the head it is anchored to now; those whose text is gone, apart.
  const placed = useMemo(() => {
    const byBlock = new Map<number, Array<ThreadData>>()
    const elsewhere: Array<ThreadData> = []
    if (comments === undefined) return { byBlock, elsewhere }
    if (diff.kind !== "rendered") return { byBlock, elsewhere: [...comments.threads] }
    const byId = new Map(comments.threads.map((thread) => [thread.comment.id, thread]))
    for (const place of placeComments(diff.head, comments.threads.map((thread) => thread.comment))) {
      const thread = byId.get(place.comment.id)!
      if (place.status === "anchored") byBlock.set(place.block, [...byBlock.get(place.block) ?? [], thread])
      else elsewhere.push(thread)
    }
    return { byBlock, elsewhere }
  }, [comments, diff])
  const inMargin = diff.kind === "rendered" && mode === "inline"
  const count = diff.changes.length
  const go = (dir: 1 | -1) => {
    const next = nextStop(count, stop, dir)
    setStop(next)
    const row = diff.kind === "rendered" ? diff.changes[next]?.row : diff.changes[next]?.from
    document.getElementById(`row-${row}`)?.scrollIntoView({ block: "center" })
    document.getElementById(`row-${row}`)?.focus()
  }
  /** The anchor of a comment on the whole of a row's block, and the words it quotes. */
  const anchorOf = (row: BlockRow, i: number): Picked | undefined => {
    if (diff.kind !== "rendered" || row.head === undefined) return undefined
    const text = blockText(diff.head.child(row.head.index))
    return { row: i, node: encodeAnchor(anchorAt(diff.head, row.head.index, 0, Math.min(text.length, 40))), quote: text.slice(0, 80) }
  }
  /** The words selected now in row `i`'s block of the head, as an anchor (none when the selection is elsewhere, or words the text does not hold). */
  const pick = (i: number, block: Element) => {
    const row = diff.kind === "rendered" ? diff.rows[i] : undefined
    const selected = selectedIn(block)
    if (diff.kind !== "rendered" || row?.head === undefined || row.kind === "removed" || selected === undefined) return setPicked(undefined)
    const text = blockText(diff.head.child(row.head.index))
    const at = nearestOccurrence(text, selected.words, selected.near)
    if (at < 0) return setPicked(undefined)
    setPicked({ row: i, node: encodeAnchor(anchorAt(diff.head, row.head.index, at, selected.words.length)), quote: selected.words })
  }
  const margin = (row: BlockRow, i: number) => {
    const anchor = anchorOf(row, i)
    if (comments === undefined || anchor === undefined || row.kind === "removed") return null
    const threads = placed.byBlock.get(row.head!.index) ?? []
    const close = () => {
      setComposing(undefined)
      requestAnimationFrame(() => document.getElementById(`comment-row-${i}`)?.focus())
    }
    const selection = picked?.row === i ? picked : undefined
    return (
      <div className="review-margin" data-threads={threads.length}>
        {threads.map((thread) => <MarginThread key={thread.comment.id} thread={thread} comments={comments} />)}
        {composing?.row === i ? comments.renderComposer(composing.node, composing.quote, close) : (
          <>
            {selection === undefined ? null : (
              // Pressing it keeps the selection (no mousedown default), so the words stay marked while the box opens.
              <button type="button" className="review-comment-selection" onMouseDown={(e) => e.preventDefault()}
                onClick={() => { setComposing(selection); setPicked(undefined) }}
                aria-label={`Comment on the selection “${selection.quote.length > 60 ? `${selection.quote.slice(0, 60)}…` : selection.quote}”`}>Comment on the selection</button>
            )}
            <button type="button" id={`comment-row-${i}`} className="review-comment-block link" onClick={() => setComposing(anchor)} aria-label={`Comment on block ${i + 1}`}>Comment</button>
          </>
        )}
      </div>
    )
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
      {comments === undefined || (inMargin && placed.elsewhere.length === 0) ? null : (
        <section className="review-page-threads" aria-label={inMargin ? "Comments on text no longer on this page" : "Comments on this page"}>
          {inMargin ? <p className="muted">The text these comments were on is no longer on this page.</p> : null}
          {(inMargin ? placed.elsewhere : comments.threads).map((thread) => <MarginThread key={thread.comment.id} thread={thread} comments={comments} />)}
        </section>
      )}
      {diff.kind === "lines" || mode === "markdown" ? <LineDiff base={props.base} head={props.head} diff={diff} /> : mode === "split" ? (
        <div className="review-split">
          {diff.split.map((row, i) => (
            <div key={i} className="review-split-row" id={`row-${row.headRow ?? row.baseRow}`} tabIndex={-1}>
              <div>{row.base && <DiffBlock doc={diff.base} index={row.base.index} kind={row.kind === "same" ? "same" : "removed"} draw={draw.base} />}</div>
              <div>{row.head && <DiffBlock doc={diff.head} index={row.head.index} kind={row.kind === "same" ? "same" : "added"} draw={draw.head} />}</div>
            </div>
          ))}
        </div>
      ) : (
        <div className={comments === undefined ? "review-unified" : "review-unified review-with-margin"}>
          {diff.markdownOnly && <p className="muted">Only how the markdown is written changed; nothing a reader sees. Open the markdown diff.</p>}
          {diff.rows.map((row, i) => (
            <div key={i} id={`row-${i}`} tabIndex={-1} className="review-row">
              <div className="review-row-block" onMouseUp={comments === undefined ? undefined : (e) => pick(i, e.currentTarget)}
                onKeyUp={comments === undefined ? undefined : (e) => pick(i, e.currentTarget)}>
                {row.kind !== "same" && <span className={`review-badge review-badge-${row.kind}`}>{row.kind === "changed" ? changedLabel(row) : kindLabel[row.kind]}</span>}
                {row.kind === "removed" && row.base && <DiffBlock doc={diff.base} index={row.base.index} kind="removed" draw={draw.base} />}
                {(row.kind === "added" || row.kind === "same") && row.head && <DiffBlock doc={diff.head} index={row.head.index} kind={row.kind} draw={draw.head} />}
                {row.kind === "changed" && row.head && <ChangedBlock diff={diff} row={row} draw={draw} />}
              </div>
              {margin(row, i)}
            </div>
          ))}
        </div>
      )}
    </div>
  )
}
