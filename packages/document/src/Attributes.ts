/**
 * The one check of a node's or mark's attributes against the block schema (the `validate` each block
 * declares with its attributes, blocks/shared/attrs.ts), with a message that names the node and the
 * attribute: what live editing tells an editor whose change it refused.
 */
import type { MarkType, NodeType } from "@tiptap/pm/model"

/** Why `attrs` do not fit `type` (an attribute it lacks, a value out of its range), or undefined when they do. */
export const attributeProblem = (type: NodeType | MarkType, attrs: Readonly<Record<string, unknown>>): string | undefined => {
  const specs = type.spec.attrs ?? {}
  for (const name of Object.keys(attrs)) {
    if (!Object.hasOwn(specs, name)) return `${type.name} has no attribute ${JSON.stringify(name.slice(0, 64))}`
  }
  for (const [name, spec] of Object.entries(specs)) {
    const validate = spec.validate
    if (typeof validate !== "function" || !Object.hasOwn(attrs, name)) continue
    try {
      validate(attrs[name])
    } catch (error) {
      return `${type.name}'s ${name} ${error instanceof Error ? error.message : String(error)}`
    }
  }
  return undefined
}
