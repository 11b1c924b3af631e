import type { NodeViewRenderer } from "@tiptap/core"
import { getParam, type LiquidParam, setParam } from "@quire/document"
import { atomView, field, h, setAttrs } from "./view.ts"

/** A GitBook `{% tag %}` atom: its main parameter and its body (caption or link) as fields. */
export const liquidAtomView = (label: string, mainParam: string | null): NodeViewRenderer =>
  atomView((props, node) => {
    const params = node.attrs.params as ReadonlyArray<LiquidParam>
    const main = mainParam === null ? (params.find((p) => p.key === null)?.value ?? "") : (getParam(params, mainParam) ?? "")
    const setMain = (value: string) =>
      setAttrs(
        { ...props, node },
        { params: mainParam === null ? params.map((p) => (p.key === null ? { ...p, value } : p)) : setParam(params, mainParam, value) }
      )
    const body = node.attrs.body as string | null
    return h(
      "div",
      {},
      h("strong", {}, label),
      field(mainParam ?? "path", main, setMain).root,
      ...(body === null && node.attrs.endTag === null ? [] : [field("Caption", body ?? "", (b) => setAttrs({ ...props, node }, { body: b === "" ? null : b }), { multiline: true }).root])
    )
  })
