/** Attribute specs for source style: kept in the document, never rendered to HTML. */
export const attr = <A>(value: A): { default: A; rendered: false; keepOnSplit: false } => ({ default: value, rendered: false, keepOnSplit: false })

/** Every block keeps the markdown slice it was parsed from (see markdown/serialize.ts). */
export const sourceAttr = { source: attr<string | null>(null) }
