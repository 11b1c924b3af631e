/**
 * Whether a value sent as GitBook's `JSONDocument` is one in shape: a document of blocks, each
 * block or inline with a type and nodes, texts of leaves, bounded in depth. What a payload's
 * document is checked with before it is read (a translation's instructions, a change request's
 * description); the breach names the field, so that a 400 can say where.
 */

/** How deep nodes may nest; GitBook's deepest blocks (a table in a tab in an expandable) stay well within. */
export const maxDocumentDepth = 32

/** What is wrong with a document, and where (`description.nodes[0].leaves[1].text`). */
export interface DocumentBreach {
  readonly field: string
  readonly reason: string
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const breach = (field: string, reason: string): DocumentBreach => ({ field, reason })

const leafBreach = (leaf: unknown, field: string): DocumentBreach | undefined => {
  if (!isObject(leaf) || typeof leaf["text"] !== "string") return breach(`${field}.text`, "must be a string")
  const marks = leaf["marks"]
  if (marks === undefined) return undefined
  if (!Array.isArray(marks)) return breach(`${field}.marks`, "must be an array")
  for (const [i, mark] of marks.entries()) {
    if (!isObject(mark) || typeof mark["type"] !== "string") return breach(`${field}.marks[${i}].type`, "must be a string")
  }
  return undefined
}

const nodeBreach = (value: unknown, field: string, depth: number): DocumentBreach | undefined => {
  if (depth > maxDocumentDepth) return breach(field, `nests deeper than ${maxDocumentDepth} levels`)
  if (!isObject(value)) return breach(field, "must be an object")
  const kind = value["object"]
  if (kind === "text") {
    const leaves = value["leaves"]
    if (leaves === undefined) return undefined
    if (!Array.isArray(leaves)) return breach(`${field}.leaves`, "must be an array")
    for (const [i, leaf] of leaves.entries()) {
      const found = leafBreach(leaf, `${field}.leaves[${i}]`)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (kind !== "block" && kind !== "inline") return breach(`${field}.object`, "must be block, inline or text")
  if (typeof value["type"] !== "string" || value["type"] === "") return breach(`${field}.type`, "must be a non-empty string")
  if (value["isVoid"] !== undefined && typeof value["isVoid"] !== "boolean") return breach(`${field}.isVoid`, "must be a boolean")
  if (value["data"] !== undefined && !isObject(value["data"])) return breach(`${field}.data`, "must be an object")
  for (const list of ["nodes", "fragments"] as const) {
    const children = value[list]
    if (children === undefined) continue
    if (!Array.isArray(children)) return breach(`${field}.${list}`, "must be an array")
    for (const [i, child] of children.entries()) {
      const at = `${field}.${list}[${i}]`
      // A fragment (a tab's or a code block's part) holds nodes as a block does.
      const found = list === "fragments" && isObject(child) && child["object"] === "fragment"
        ? nodeBreach({ ...child, object: "block" }, at, depth + 1)
        : nodeBreach(child, at, depth + 1)
      if (found !== undefined) return found
    }
  }
  return undefined
}

/** What makes `value` no GitBook document, under `field`; undefined when it is one in shape. */
export const documentBreach = (value: unknown, field: string): DocumentBreach | undefined => {
  if (!isObject(value)) return breach(field, "must be a document object")
  if (value["object"] !== "document") return breach(`${field}.object`, "must be \"document\"")
  const data = value["data"]
  if (!isObject(data)) return breach(`${field}.data`, "must be an object")
  if (data["schemaVersion"] !== undefined && !Number.isInteger(data["schemaVersion"])) return breach(`${field}.data.schemaVersion`, "must be an integer")
  const nodes = value["nodes"]
  if (!Array.isArray(nodes)) return breach(`${field}.nodes`, "must be an array")
  for (const [i, child] of nodes.entries()) {
    if (!isObject(child) || child["object"] !== "block") return breach(`${field}.nodes[${i}].object`, "must be \"block\"")
    const found = nodeBreach(child, `${field}.nodes[${i}]`, 1)
    if (found !== undefined) return found
  }
  return undefined
}
