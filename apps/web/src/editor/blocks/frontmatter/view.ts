import { h, atomView, field, setAttrs } from "../shared/view.ts"

export const frontmatterView = atomView((props, node) =>
  h("details", {}, h("summary", {}, "Page frontmatter"), field("YAML", node.attrs.text as string, (text) => setAttrs({ ...props, node }, { text }), { multiline: true }).root)
)
