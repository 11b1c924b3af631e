/** One changed page's diff, loaded with import(): rendered blocks (inline or side by side), next/previous change, the markdown diff a click away, block comments. */
import { useEffect, useMemo, useState } from "react"
import { createMarkdownCodec, createSchema } from "@quire/document"
import { linkRenderStylesheet } from "../../ui/render-stylesheet.ts"
import { fileUrls, type StoredFile } from "../files/file-urls.ts"
import { anchorAt, blockText, encodeAnchor } from "./anchors.ts"
import { nextStop, pageDiff, type BlockRow, type PageDiff } from "./diff.ts"
import { blockDrawer } from "./render.ts"
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
const useDrawers = (files: DiffFiles | undefined): { readonly base: Draw; readonly head: Draw } =>
  useMemo(() => {
    const base = fileUrls(files?.base)
    const head = fileUrls(files?.head)
    return {
      base: blockDrawer(schema, (src) => base.resolve(src) ?? head.resolve(src)),
      head: blockDrawer(schema, (src) => head.resolve(src) ?? base.resolve(src))
    }
  }, [files])

/** What the badge of a changed block says: only its formatting changed, or it changed. */
const changedLabel = (row: BlockRow) =>
  (row.formatted ?? []).length > 0 && (row.inserted ?? []).length === 0 && (row.deleted ?? []).length === 0 && (row.attributes ?? []).length === 0 ? "Formatting changed" : "Changed"

const kindLabel: Record<string, string> = { added: "Added", removed: "Removed", changed: "Changed", same: "" }

export interface DiffViewProps {
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
        <div className="review-unified">
          {diff.markdownOnly && <p className="muted">Only how the markdown is written changed; nothing a reader sees. Open the markdown diff.</p>}
          {diff.rows.map((row, i) => (
            <div key={i} id={`row-${i}`} tabIndex={-1} className="review-row">
              {row.kind !== "same" && <span className={`review-badge review-badge-${row.kind}`}>{row.kind === "changed" ? changedLabel(row) : kindLabel[row.kind]}</span>}
              {row.kind === "removed" && row.base && <DiffBlock doc={diff.base} index={row.base.index} kind="removed" draw={draw.base} />}
              {(row.kind === "added" || row.kind === "same") && row.head && <DiffBlock doc={diff.head} index={row.head.index} kind={row.kind} draw={draw.head} />}
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
