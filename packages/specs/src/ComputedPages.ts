/**
 * Content drawn from an OpenAPI document without being stored (GitBook's computed content of a
 * `builtin:openapi` source): documents of `openapi-operation` and `openapi-schemas` blocks, the
 * blocks a page of Quire shows a spec's operations with, and the pages a spec would give, one per
 * tag or per operation. Pure: the same document and seed give the same ids and keys.
 */
import { createHash } from "node:crypto"

/** A block or text of a JSON document, as GitBook's editor model writes them. */
export type Node = Readonly<Record<string, unknown>>

export interface ComputedDocument {
  readonly object: "document"
  readonly data: Readonly<Record<string, unknown>>
  readonly nodes: ReadonlyArray<Node>
}

/** A computed page in GitBook's `RevisionPage` shape. */
export interface ComputedPage {
  readonly id: string
  readonly title: string
  readonly kind: "sheet" | "group"
  readonly type: "document" | "group"
  readonly slug: string
  readonly path: string
  readonly hidden: boolean
  readonly document?: ComputedDocument
  readonly pages: ReadonlyArray<ComputedPage>
}

/** Which document of the spec to draw (GitBook's `ComputedContentSourceDocumentOpenAPI` props). */
export type DocumentProps =
  | { readonly doc: "models" }
  | { readonly doc: "operations" | "info" | "tag"; readonly page: string }
  | { readonly doc: "operation"; readonly page: string; readonly method: string }

export interface RevisionProps {
  readonly models: boolean
  readonly grouping?: "by-tag" | "by-operation" | undefined
}

/** What cannot be drawn: the spec has no such tag or operation. */
export interface Missing {
  readonly missing: string
}

interface Operation {
  readonly path: string
  readonly method: string
  readonly tags: ReadonlyArray<string>
  readonly title: string
}

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const

const record = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {}

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined)

/** An id of 16 characters drawn from the seed and what it names. */
export const seededId = (seed: string, name: string): string =>
  createHash("sha256").update(`${seed}\u0000${name}`).digest("base64url").replace(/[-_]/g, "x").slice(0, 16)

const slugOf = (title: string): string =>
  title.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "page"

/** The document's operations in its order, with their tags (`default` for none). */
const operationsOf = (document: Readonly<Record<string, unknown>>): ReadonlyArray<Operation> =>
  Object.entries(record(document["paths"])).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const operation = record(record(item)[method])
      if (Object.keys(operation).length === 0) return []
      const tags = Array.isArray(operation["tags"]) ? operation["tags"].filter((t): t is string => typeof t === "string") : []
      return [{ path, method, tags: tags.length === 0 ? ["default"] : tags, title: text(operation["summary"]) ?? text(operation["operationId"]) ?? `${method.toUpperCase()} ${path}` }]
    }))

/** The tags in the document's order (its `tags`, then those only operations name). */
const tagsOf = (document: Readonly<Record<string, unknown>>, operations: ReadonlyArray<Operation>): ReadonlyArray<string> => {
  const declared = Array.isArray(document["tags"]) ? document["tags"].map((t) => text(record(t)["name"])).filter((t): t is string => t !== undefined) : []
  const used = operations.flatMap((o) => o.tags)
  return [...new Set([...declared.filter((t) => used.includes(t)), ...used])]
}

const leaf = (value: string): Node => ({ object: "text", leaves: [{ object: "leaf", text: value, marks: [] }] })

const documentOf = (nodes: ReadonlyArray<Node>): ComputedDocument => ({ object: "document", data: {}, nodes })

export const computeDocument = (
  spec: { readonly slug: string; readonly document: Readonly<Record<string, unknown>> },
  props: DocumentProps,
  seed: string
): ComputedDocument | Missing => {
  const key = (name: string) => seededId(seed, name)
  const ref = { kind: "openapi", spec: spec.slug }
  const operation = (o: Operation): Node => ({ object: "block", type: "openapi-operation", isVoid: true, key: key(`${o.method} ${o.path}`), data: { ref, path: o.path, method: o.method } })
  const operations = operationsOf(spec.document)
  switch (props.doc) {
    case "models": {
      const schemas = Object.keys(record(record(spec.document["components"])["schemas"]))
      return documentOf([{ object: "block", type: "openapi-schemas", isVoid: true, key: key("models"), data: { ref, schemas } }])
    }
    case "info": {
      const info = record(spec.document["info"])
      const description = text(record(tagOf(spec.document, props.page))["description"]) ?? text(info["description"])
      return documentOf([
        { object: "block", type: "heading-1", key: key("info-title"), nodes: [leaf(text(info["title"]) ?? props.page)] },
        ...(description === undefined ? [] : [{ object: "block", type: "paragraph", key: key("info-description"), nodes: [leaf(description)] }])
      ])
    }
    case "operations":
    case "tag": {
      const tagged = operations.filter((o) => o.tags.includes(props.page))
      if (tagged.length === 0) return { missing: `the spec has no operation tagged ${JSON.stringify(props.page)}` }
      const description = text(record(tagOf(spec.document, props.page))["description"])
      const intro = props.doc === "tag" && description !== undefined ? [{ object: "block", type: "paragraph", key: key(`tag ${props.page}`), nodes: [leaf(description)] }] : []
      return documentOf([...intro, ...tagged.map(operation)])
    }
    case "operation": {
      const found = operations.find((o) => o.path === props.page && o.method === props.method)
      return found === undefined ? { missing: `the spec has no operation ${props.method.toUpperCase()} ${props.page}` } : documentOf([operation(found)])
    }
  }
}

const tagOf = (document: Readonly<Record<string, unknown>>, name: string): unknown =>
  (Array.isArray(document["tags"]) ? document["tags"] : []).find((t) => record(t)["name"] === name)

/** The pages the spec would give: one per tag (or per operation, under a group per tag), and `Models`. */
export const computeRevision = (
  spec: { readonly slug: string; readonly document: Readonly<Record<string, unknown>> },
  props: RevisionProps,
  seed: string
): ReadonlyArray<ComputedPage> => {
  const operations = operationsOf(spec.document)
  const taken = new Set<string>()
  const unique = (slug: string) => {
    let candidate = slug
    for (let n = 2; taken.has(candidate); n++) candidate = `${slug}-${n}`
    taken.add(candidate)
    return candidate
  }
  const sheet = (title: string, path: string, document: ComputedDocument): ComputedPage => ({
    id: seededId(seed, `page ${path}`),
    title,
    kind: "sheet",
    type: "document",
    slug: path.split("/").pop()!,
    path,
    hidden: false,
    document,
    pages: []
  })
  const pages = tagsOf(spec.document, operations).map((tag): ComputedPage => {
    const slug = unique(slugOf(tag))
    if (props.grouping !== "by-operation") {
      return sheet(tag, slug, computeDocument(spec, { doc: "tag", page: tag }, seed) as ComputedDocument)
    }
    const inner = new Set<string>()
    const children = operations.filter((o) => o.tags.includes(tag)).map((o) => {
      let child = slugOf(o.title)
      for (let n = 2; inner.has(child); n++) child = `${slugOf(o.title)}-${n}`
      inner.add(child)
      return sheet(o.title, `${slug}/${child}`, computeDocument(spec, { doc: "operation", page: o.path, method: o.method }, seed) as ComputedDocument)
    })
    return { id: seededId(seed, `group ${slug}`), title: tag, kind: "group", type: "group", slug, path: slug, hidden: false, pages: children }
  })
  if (!props.models) return pages
  return [...pages, sheet("Models", unique("models"), computeDocument(spec, { doc: "models" }, seed) as ComputedDocument)]
}
