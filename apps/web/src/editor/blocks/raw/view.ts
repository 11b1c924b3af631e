import { atomView, field, setAttrs } from "../shared/view.ts"

/** Markdown the editor does not model, shown and edited as its source: never dropped. */
export const rawView = atomView((props, node) =>
  field("Markdown", node.attrs.text as string, (text) => setAttrs({ ...props, node }, { text }), true).root
)
