import { Node } from "@tiptap/core"
import type { LiquidParam } from "../../syntax/Liquid.ts"
import { attr, is, isParam, sourceAttr } from "../shared/attrs.ts"

/**
 * A fenced code block. `fence`/`close` keep the fence as written (`close` is empty when the fence is never
 * closed, not null: a shared document leaves null attributes out and would read the default back); `wrapper`
 * holds the parameters of GitBook's `{% code title="…" lineNumbers="true" %}` around it (null when there is
 * none).
 */
export const CodeBlock = Node.create({
  name: "codeBlock",
  group: "block",
  content: "text*",
  marks: "",
  code: true,
  defining: true,
  addAttributes: () => ({
    ...sourceAttr,
    language: { default: "", rendered: false, validate: is.string() },
    fence: attr("```", is.string()),
    close: attr<string | null>("```", is.nullable(is.string())),
    indent: attr(0, is.int(0, 3)),
    emptyLine: attr(false, is.boolean),
    wrapper: attr<ReadonlyArray<LiquidParam> | null>(null, is.nullable(is.list(isParam))),
    wrapperTag: attr<string | null>(null, is.nullable(is.string())),
    wrapperEnd: attr<string | null>(null, is.nullable(is.string()))
  }),
  parseHTML: () => [{ tag: "pre", preserveWhitespace: "full" }],
  renderHTML: ({ node }) => ["pre", { "data-language": node.attrs.language as string }, ["code", 0]]
})
