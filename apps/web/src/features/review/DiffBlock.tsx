/** One block of a diff's side, drawn as the published site draws it, marked added, removed or the same. */
import type { Node as PMNode } from "@tiptap/pm/model"

/** A block's drawing (HTML) as the published site draws it. */
export type Draw = (node: PMNode) => string

export interface DiffBlockProps {
  readonly doc: PMNode
  readonly index: number
  readonly kind: string
  readonly draw: Draw
}

export const DiffBlock = (props: DiffBlockProps) => (
  <div className={`review-block review-${props.kind} markdown`} data-kind={props.kind} dangerouslySetInnerHTML={{ __html: props.draw(props.doc.child(props.index)) }} />
)
