/**
 * GitBook's API blocks as a reader sees them: `{% openapi-operation spec= path= method= %}` and the
 * older `{% openapi src= path= method= %}` from the spec when it is found, `{% swagger %}` from the
 * parameters and responses written inside it, and otherwise a card naming the method and path;
 * `{% openapi-schemas %}` and `{% openapi-webhook %}` as cards naming what they show.
 */
import * as Syntax from "@quire/document/syntax"
import type { Element, ElementContent } from "hast"
import type { Code, Nodes } from "mdast"
import { toString } from "mdast-util-to-string"
import { childBlocks, type GitbookBlock } from "./GitbookTags.ts"
import { element, text } from "./Hast.ts"
import type { OperationData, OperationParameter, OperationResponse } from "./OpenApiOperation.ts"

/** What the API blocks need of the render: the markdown inside a block as hast, and the spec's operation. */
export interface ApiContext {
  readonly inner: (block: GitbookBlock | { readonly type: "root"; readonly children: Array<Nodes> }) => Array<ElementContent>
  readonly resolveOperation?: ((spec: string, path: string, method: string) => OperationData | undefined) | undefined
  /** Code as the render draws it (`Highlighting.highlight`). */
  readonly highlight: Highlight
}

/** Draws a block of code in a language. */
export type Highlight = (code: string, lang: string) => Element

const th = (label: string) => element("th", { scope: "col" }, [text(label)])

const sectionTitle = (title: string): Element => element("div", { className: ["openapi-section-title"] }, [text(title)])

const exampleBlock = (highlight: Highlight, label: string, example: string, lang = "json"): Element =>
  element("div", { className: ["openapi-example"], role: "group", ariaLabel: label }, [highlight(example, lang)])

const methodBadge = (method: string): Element =>
  element("span", { className: ["openapi-method", `openapi-method-${/^[a-z]+$/.test(method) ? method : "other"}`] }, [text(method.toUpperCase())])

/** An operation as the block shows it; `description` (the markdown written inside a swagger block) replaces the spec's. */
export const operationView = (highlight: Highlight, found: OperationData, description?: Array<ElementContent>): Element => {
  const verb = found.method.toUpperCase()
  const children: Array<ElementContent> = [
    element("div", { className: ["openapi-header"] }, [
      methodBadge(found.method),
      text(" "),
      element("code", { className: ["openapi-path"] }, [text(found.path)]),
      ...(found.deprecated ? [text(" "), element("span", { className: ["openapi-deprecated"] }, [text("Deprecated")])] : [])
    ])
  ]
  if (found.summary !== undefined) children.push(element("p", { className: ["openapi-summary"] }, [text(found.summary)]))
  if (description !== undefined && description.length > 0) children.push(element("div", { className: ["openapi-description"] }, description))
  else if (found.description !== undefined) children.push(element("p", { className: ["openapi-description"] }, [text(found.description)]))
  if (found.parameters.length > 0) {
    children.push(
      sectionTitle("Parameters"),
      element("table", { className: ["openapi-parameters"] }, [
        element("thead", {}, [element("tr", {}, [th("Name"), th("In"), th("Type"), th("Required"), th("Description")])]),
        element("tbody", {}, found.parameters.map((p) =>
          element("tr", {}, [
            element("td", {}, [element("code", {}, [text(p.name)])]),
            element("td", {}, [text(p.in)]),
            element("td", {}, [text(p.type ?? "")]),
            element("td", {}, [text(p.required ? "required" : "optional")]),
            element("td", {}, [text(p.description ?? "")])
          ])))
      ])
    )
  }
  const body = found.requestBody
  if (body !== undefined) {
    const facts = [body.contentType, body.schema, body.required ? "required" : undefined].filter((f) => f !== undefined)
    children.push(
      sectionTitle("Request body"),
      element("div", { className: ["openapi-body"] }, [
        ...(facts.length === 0 ? [] : [element("p", { className: ["openapi-schema"] }, [text(facts.join(" · "))])]),
        ...(body.description === undefined ? [] : [element("p", {}, [text(body.description)])]),
        ...(body.example === undefined ? [] : [exampleBlock(highlight, "Request example", body.example)])
      ])
    )
  }
  if (found.responses.length > 0) {
    children.push(
      sectionTitle("Responses"),
      element("ul", { className: ["openapi-responses"] }, found.responses.map((r) =>
        element("li", { className: ["openapi-response"] }, [
          element("span", { className: ["openapi-status"] }, [text(r.status)]),
          ...(r.description === undefined ? [] : [text(" "), element("span", {}, [text(r.description)])]),
          ...(r.contentType === undefined ? [] : [text(" "), element("span", { className: ["openapi-schema"] }, [text(r.contentType)])]),
          ...(r.example === undefined ? [] : [exampleBlock(highlight, `Example response ${r.status}`, r.example, r.contentType === "json" ? "json" : "text")])
        ])))
    )
  }
  return element("section", { className: ["openapi-operation"], ariaLabel: `${verb} ${found.path}` }, children)
}

/** A card naming an operation whose spec is not at hand, with what the author wrote inside the block. */
const operationCard = (method: string, path: string, note: Element, inner: Array<ElementContent>): Element =>
  element("section", { className: ["openapi-operation", "openapi-card"] }, [
    element("div", { className: ["openapi-header"] }, [
      ...(method === "" ? [] : [methodBadge(method.toLowerCase()), text(" ")]),
      element("code", { className: ["openapi-path"] }, [text(path === "" ? "(no path named)" : path)])
    ]),
    note,
    ...inner
  ])

const firstCode = (block: GitbookBlock): Code | undefined =>
  (block.children as ReadonlyArray<Nodes>).find((child): child is Code => child.type === "code")

/** The joined `baseUrl` and `path` of a swagger block (`https://api.example.com` + `/pets`). */
const swaggerPath = (attributes: Readonly<Record<string, string>>): string => {
  const base = (attributes["baseUrl"] ?? "").trim()
  const path = (attributes["path"] ?? "").trim()
  if (base === "") return path
  if (path === "") return base
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`
}

/** `{% swagger method= path= baseUrl= summary= %}` with its description, parameters and responses inside. */
export const swaggerBlock = (context: ApiContext, block: GitbookBlock): Element => {
  const method = (block.attributes["method"] ?? "get").toLowerCase()
  const parameters: Array<OperationParameter> = childBlocks(block, "swagger-parameter").map((p) => ({
    in: p.attributes["in"] ?? "",
    name: p.attributes["name"] ?? "",
    required: p.attributes["required"] === "true",
    type: p.attributes["type"] === undefined || p.attributes["type"] === "" ? undefined : p.attributes["type"],
    description: toString(p).trim() || undefined
  }))
  const responses: Array<OperationResponse> = childBlocks(block, "swagger-response").map((r) => {
    const code = firstCode(r)
    const [status, ...label] = (r.attributes["status"] ?? "").split(":")
    const description = (r.attributes["description"] ?? "").trim() || label.join(":").trim() || undefined
    return {
      status: (status ?? "").trim(),
      description,
      contentType: code?.lang === "json" || code?.lang === "javascript" ? "json" : undefined,
      example: code?.value
    }
  })
  const descriptions = childBlocks(block, "swagger-description")
  const description = descriptions.flatMap((d) => context.inner(d))
  // Anything else the author wrote inside is kept after the operation.
  const rest = (block.children as ReadonlyArray<Nodes | GitbookBlock>).filter((child) =>
    !(child.type === "gitbookBlock" && ["swagger-parameter", "swagger-response", "swagger-description"].includes((child as GitbookBlock).name)))
  const view = operationView(context.highlight, {
    method,
    path: swaggerPath(block.attributes),
    summary: (block.attributes["summary"] ?? "").trim() || undefined,
    description: undefined,
    deprecated: false,
    parameters,
    requestBody: undefined,
    responses
  }, description)
  if (rest.length > 0) view.children.push(...context.inner({ type: "root", children: rest as Array<Nodes> }))
  return view
}

/** `{% openapi-operation spec= %}` (a spec of the organization) or `{% openapi src= %}` (a spec file or URL). */
export const operationBlock = (context: ApiContext, block: GitbookBlock): Element => {
  const spec = block.attributes["spec"] ?? block.attributes["src"] ?? ""
  const path = block.attributes["path"] ?? ""
  const method = (block.attributes["method"] ?? "").toLowerCase()
  const found = spec === "" || path === "" || method === "" ? undefined : context.resolveOperation?.(specSlug(spec), path, method)
  if (found !== undefined) return operationView(context.highlight, found)
  const what = `${method.toUpperCase()} ${path}`.trim()
  // What the author wrote inside the block (GitBook's exports put a link to the spec there) follows the note.
  const note = block.name === "openapi"
    ? element("p", { className: ["openapi-note"] }, [text(`Described in the OpenAPI specification ${spec === "" ? "(none named)" : spec}.`)])
    : element("div", { className: ["openapi-missing"], role: "note" }, [
      text(`OpenAPI operation not found: ${what === "" ? "(no operation named)" : what} in spec "${spec}".`)
    ])
  return operationCard(method, path, note, context.inner(block))
}

const list = (value: string | undefined): ReadonlyArray<string> =>
  (value ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")

/** `{% openapi-schemas spec= schemas="Pet,Tag" %}`: the schemas it shows, named. */
export const schemasBlock = (context: ApiContext, block: GitbookBlock): Element => {
  const schemas = list(block.attributes["schemas"])
  const spec = block.attributes["spec"] ?? block.attributes["src"] ?? ""
  return element("section", { className: ["openapi-schemas", "openapi-card"], ariaLabel: "Schemas" }, [
    element("div", { className: ["openapi-section-title"] }, [text(schemas.length === 1 ? "Schema" : "Schemas")]),
    element("ul", {}, (schemas.length === 0 ? ["(all schemas)"] : schemas).map((name) => element("li", {}, [element("code", {}, [text(name)])]))),
    ...(spec === "" ? [] : [element("p", { className: ["openapi-note"] }, [text(`From the OpenAPI specification ${spec}.`)])]),
    ...context.inner(block)
  ])
}

/** `{% openapi-webhook spec= name= method= %}`: the webhook it describes, named. */
export const webhookBlock = (context: ApiContext, block: GitbookBlock): Element => {
  const name = block.attributes["name"] ?? ""
  const method = (block.attributes["method"] ?? "post").toLowerCase()
  const spec = block.attributes["spec"] ?? block.attributes["src"] ?? ""
  return element("section", { className: ["openapi-webhook", "openapi-card"] }, [
    element("div", { className: ["openapi-header"] }, [
      methodBadge(method),
      text(" "),
      element("span", { className: ["openapi-webhook-label"] }, [text("Webhook")]),
      text(" "),
      element("code", { className: ["openapi-path"] }, [text(name === "" ? "(no webhook named)" : name)])
    ]),
    ...(spec === "" ? [] : [element("p", { className: ["openapi-note"] }, [text(`From the OpenAPI specification ${spec}.`)])]),
    ...context.inner(block)
  ])
}

/**
 * The slug of the organization's spec an API block names: `spec="petstore"` as it is, and the file
 * or URL of `src=".gitbook/assets/petstore.yaml"` by its name (`petstore`), as a spec uploaded from it is called.
 */
export const specSlug = (ref: string): string => {
  if (!/[/.]/.test(ref)) return ref
  const name = (ref.split(/[?#]/)[0] ?? ref).split("/").filter((s) => s !== "").at(-1) ?? ref
  return name.replace(/\.(?:ya?ml|json)$/i, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")
}

const apiBlockNames: ReadonlySet<string> = new Set(["openapi", "openapi-operation", "openapi-schemas", "openapi-webhook"])

/** The specs a page's API blocks name (outside code or not: a spare look-up is harmless), at most 20. */
export const specsNamed = (markdown: string): ReadonlyArray<string> => {
  if (!markdown.includes("openapi")) return []
  const found = new Set<string>()
  for (const tag of Syntax.scanTags(markdown)) {
    if (!apiBlockNames.has(tag.name)) continue
    const attributes = Object.entries(Syntax.tagAttributes(tag))
    const slug = specSlug(attributes.find(([key]) => key === "spec" || key === "src")?.[1] ?? "")
    if (slug !== "" && found.size < 20) found.add(slug)
  }
  return [...found]
}
