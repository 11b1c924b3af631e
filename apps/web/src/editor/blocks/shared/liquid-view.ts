import type { NodeViewRenderer, NodeViewRendererProps } from "@tiptap/core"
import type { Node as PMNode } from "@tiptap/pm/model"
import { getParam, type LiquidParam, setParam } from "@quire/document"
import { atomView, field, h, setAttrs } from "./view.ts"

/**
 * A GitBook `{% tag %}` atom: its main parameter and its body (caption or link) as fields. `bodyFor`, when
 * given, says what the body becomes when the main parameter changes (undefined: it stays).
 */
export const liquidAtomView = (
  label: string,
  mainParam: string | null,
  bodyFor?: (main: string, body: string | null) => string | undefined,
  /** A control shown before the main parameter's field (a page link card's page picker). */
  before?: (props: NodeViewRendererProps, node: PMNode) => HTMLElement
): NodeViewRenderer =>
  atomView((props, node) => {
    const params = node.attrs.params as ReadonlyArray<LiquidParam>
    const main = mainParam === null ? (params.find((p) => p.key === null)?.value ?? "") : (getParam(params, mainParam) ?? "")
    const body = node.attrs.body as string | null
    const setMain = (value: string) => {
      const followed = bodyFor?.(value, body)
      setAttrs(
        { ...props, node },
        {
          params: mainParam === null ? params.map((p) => (p.key === null ? { ...p, value } : p)) : setParam(params, mainParam, value),
          ...(followed === undefined ? {} : { body: followed })
        }
      )
    }
    return h(
      "div",
      {},
      h("strong", {}, label),
      ...(before === undefined ? [] : [before(props, node)]),
      field(mainParam ?? "path", main, setMain).root,
      ...(body === null && node.attrs.endTag === null ? [] : [field("Caption", body ?? "", (b) => setAttrs({ ...props, node }, { body: b === "" ? null : b }), { multiline: true }).root])
    )
  })
