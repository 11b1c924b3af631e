/**
 * One page's markdown to what its published page shows: sanitized HTML (GFM, heading anchors,
 * Shiki highlighting in light and dark, GitBook's blocks), the headings for its table of contents
 * and its plain text. Pure: links and files are resolved by the functions the caller passes. The
 * document model (frontmatter, parsing, heading anchors) is `@quire/markdown`'s; the HTML is this module's.
 */
import { headingIds, headingText, parseBody, splitFrontmatter } from "@quire/markdown"
import type { Element, ElementContent, Properties, Root as HastRoot, RootContent as HastContent } from "hast"
import type { Heading, Nodes, Root } from "mdast"
import { toString } from "mdast-util-to-string"
import rehypeSanitize from "rehype-sanitize"
import rehypeStringify from "rehype-stringify"
import remarkRehype, { type Options as RemarkRehypeOptions } from "remark-rehype"
import { unified } from "unified"
import { visit } from "unist-util-visit"
import { type GitbookBlock, type GitbookTag, markTags, stitchTags } from "./GitbookTags.ts"
import { clearHighlightCache, highlight, highlighter, loadLanguages, themes } from "./Highlight.ts"
import { type HtmlElement, stitchHtml } from "./HtmlFragment.ts"
import type { OperationData } from "./OpenApiOperation.ts"
import { schema } from "./Sanitize.ts"

/** A file of the revision as a page links to it. */
export interface ResolvedFile {
  readonly url: string
  readonly name?: string
  readonly contentType?: string
}

/** How a page's links and files become published URLs. */
export interface RenderOptions {
  /**
   * The published URL of a link in any of GitBook's forms (`./other.md`, `/pages/<id>#x`,
   * `/files/<id>`...); undefined keeps an external URL as it is and marks an internal one broken.
   */
  readonly resolveLink: (url: string) => string | undefined
  /** An image's or `{% file %}`'s reference (`/files/<id>`, `.gitbook/assets/x.png`) to its URL. */
  readonly resolveFile: (ref: string) => ResolvedFile | undefined
  /** The title of the page a link points to, for `{% content-ref %}` cards; default the link's text. */
  readonly resolveTitle?: (url: string) => string | undefined
  /**
   * The operation a `{% openapi-operation spec="slug" path="/pets" method="get" %}` block shows,
   * from the spec's latest version; undefined shows "operation not found".
   */
  readonly resolveOperation?: (spec: string, path: string, method: string) => OperationData | undefined
}

/** A heading of the table of contents. */
export interface TocHeading {
  readonly depth: 2 | 3
  readonly id: string
  readonly text: string
}

/** A rendered page. */
export interface RenderedPage {
  /** A sanitized HTML fragment. */
  readonly html: string
  /** The page's `##` and `###` headings, in order, with their anchors. */
  readonly headings: ReadonlyArray<TocHeading>
  /** The words a reader sees, one line per block. */
  readonly text: string
}

type Handlers = NonNullable<RemarkRehypeOptions["handlers"]>
type State = Parameters<NonNullable<Handlers["paragraph"]>>[0]
type Handler = (state: State, node: never) => Element | Array<ElementContent> | undefined

/** What one render's handlers and plugins share: passed to each, so no render sees another's. */
interface Context {
  readonly options: RenderOptions
  /** Links and images whose URL the renderer has set already. */
  readonly resolved: WeakSet<Element>
  readonly ids: Map<Heading, string>
  tabs: number
}

const element = (tagName: string, properties: Properties, children: Array<ElementContent>): Element => ({
  type: "element", tagName, properties, children
})
const text = (value: string): ElementContent => ({ type: "text", value })

const hintStyles: Record<string, string> = { info: "Info", success: "Success", warning: "Warning", danger: "Danger" }

const childBlocks = (block: GitbookBlock, name: string): ReadonlyArray<GitbookBlock> =>
  (block.children as ReadonlyArray<Nodes | GitbookBlock>).filter((child): child is GitbookBlock =>
    child.type === "gitbookBlock" && (child as GitbookBlock).name === name)

const others = (block: GitbookBlock, name: string): GitbookBlock => ({
  ...block,
  children: block.children.filter((child) => !(child.type as string === "gitbookBlock" && (child as unknown as GitbookBlock).name === name))
})

const isWeb = (url: string) => /^https?:\/\//i.test(url)
const isExternal = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i

const basename = (ref: string): string => {
  const path = ref.split(/[?#]/)[0] ?? ref
  const last = path.split("/").filter((segment) => segment !== "").at(-1) ?? ref
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

const blockHandler = (context: Context, state: State, block: GitbookBlock): Element | Array<ElementContent> => {
  const { options, resolved } = context
  const inner = () => state.all(block as never)
  switch (block.name) {
    case "hint": {
      const style = Object.hasOwn(hintStyles, block.attributes["style"] ?? "") ? block.attributes["style"]! : "info"
      return element("div", { className: ["hint", `hint-${style}`], role: "note", ariaLabel: hintStyles[style]! }, inner())
    }
    case "tabs": {
      const group = `quire-tabs-${++context.tabs}`
      const tabs = childBlocks(block, "tab")
      const children: Array<ElementContent> = [...state.all(others(block, "tab") as never)]
      tabs.forEach((tab, index) => {
        const id = `${group}-${index + 1}`
        const title = tab.attributes["title"] ?? `Tab ${index + 1}`
        children.push(
          element("input", { type: "radio", name: group, id, className: ["tab-input"], checked: index === 0 }, []),
          element("label", { htmlFor: [id], className: ["tab-label"] }, [text(title)]),
          element("div", { className: ["tab-panel"], role: "group", ariaLabel: title }, state.all(tab as never))
        )
      })
      return element("div", { className: ["tabs"] }, children)
    }
    case "tab":
    case "step":
    case "column":
      // Outside their container they are plain sections.
      return element("div", { className: [block.name] }, inner())
    case "stepper":
      return element("ol", { className: ["stepper"] },
        childBlocks(block, "step").map((step) => element("li", { className: ["step"] }, state.all(step as never))))
    case "columns":
      return element("div", { className: ["columns"] },
        childBlocks(block, "column").map((column) => element("div", { className: ["column"] }, state.all(column as never))))
    case "code": {
      const className = ["code-block"]
      if (block.attributes["overflow"] === "wrap") className.push("code-wrap")
      if (block.attributes["lineNumbers"] === "true") className.push("line-numbers")
      const title = block.attributes["title"]
      return element("div", { className }, [
        ...(title === undefined || title === "" ? [] : [element("div", { className: ["code-title"] }, [text(title)])]),
        ...inner()
      ])
    }
    case "embed": {
      const url = block.attributes["url"] ?? ""
      const caption = inner()
      let host = url
      if (isWeb(url)) host = new URL(url).hostname.replace(/^www\./, "")
      return element("div", { className: ["embed"] }, [
        element("a", { href: url, className: ["embed-link"] }, [
          element("span", { className: ["embed-host"] }, [text(host)]),
          element("span", { className: ["embed-url"] }, [text(url)])
        ]),
        ...(caption.length === 0 ? [] : [element("div", { className: ["embed-caption"] }, caption)])
      ])
    }
    case "content-ref": {
      const url = block.attributes["url"] ?? ""
      let title = options.resolveTitle?.(url)
      if (title === undefined) {
        let linkText: string | undefined
        visit(block as never, "link", (link: Nodes) => {
          linkText ??= toString(link).trim() || undefined
        })
        title = linkText ?? url
      }
      return element("div", { className: ["content-ref"] }, [
        element("a", { href: url, className: ["content-ref-link"] }, [
          element("span", { className: ["content-ref-title"] }, [text(title)])
        ])
      ])
    }
    case "file": {
      const src = block.attributes["src"] ?? ""
      const file = options.resolveFile(src)
      const name = file?.name ?? basename(src)
      const caption = inner()
      const label = [
        element("span", { className: ["file-name"] }, [text(name)]),
        ...(file?.contentType === undefined ? [] : [element("span", { className: ["file-type"] }, [text(file.contentType)])])
      ]
      const link = file === undefined
        ? element("span", { className: ["file-link", "broken-link"] }, label)
        : element("a", { href: file.url, download: name, className: ["file-link"] }, label)
      if (file !== undefined) resolved.add(link)
      return element("div", { className: ["file"] }, [
        link,
        ...(caption.length === 0 ? [] : [element("div", { className: ["file-caption"] }, caption)])
      ])
    }
    case "openapi-operation":
      return operationBlock(options, block.attributes["spec"] ?? "", block.attributes["path"] ?? "", block.attributes["method"] ?? "", inner)
    default:
      return inner()
  }
}

const sectionTitle = (title: string): Element => element("div", { className: ["openapi-section-title"] }, [text(title)])

const exampleBlock = (label: string, example: string): Element =>
  element("div", { className: ["openapi-example"], role: "group", ariaLabel: label }, [highlight(example, "json")])

/** GitBook's `{% openapi-operation %}`: the operation of a spec's latest version, or a note that it is missing. */
const operationBlock = (
  options: RenderOptions,
  spec: string,
  path: string,
  method: string,
  inner: () => Array<ElementContent>
): Element | Array<ElementContent> => {
  const found = spec === "" || path === "" || method === "" ? undefined : options.resolveOperation?.(spec, path, method)
  if (found === undefined) {
    const what = `${method.toUpperCase()} ${path}`.trim()
    // What the author wrote inside the block (GitBook's exports put a link to the spec there) follows the note.
    return [
      element("div", { className: ["openapi-missing"], role: "note" }, [
        text(`OpenAPI operation not found: ${what === "" ? "(no operation named)" : what} in spec "${spec}".`)
      ]),
      ...inner()
    ]
  }
  const verb = found.method.toUpperCase()
  const children: Array<ElementContent> = [
    element("div", { className: ["openapi-header"] }, [
      element("span", { className: ["openapi-method", `openapi-method-${found.method}`] }, [text(verb)]),
      text(" "),
      element("code", { className: ["openapi-path"] }, [text(found.path)]),
      ...(found.deprecated ? [text(" "), element("span", { className: ["openapi-deprecated"] }, [text("Deprecated")])] : [])
    ])
  ]
  if (found.summary !== undefined) children.push(element("p", { className: ["openapi-summary"] }, [text(found.summary)]))
  if (found.description !== undefined) children.push(element("p", { className: ["openapi-description"] }, [text(found.description)]))
  if (found.parameters.length > 0) {
    const th = (label: string) => element("th", { scope: "col" }, [text(label)])
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
        ...(body.example === undefined ? [] : [exampleBlock("Request example", body.example)])
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
          ...(r.example === undefined ? [] : [exampleBlock(`Example response ${r.status}`, r.example)])
        ])))
    )
  }
  return element("section", { className: ["openapi-operation"], ariaLabel: `${verb} ${found.path}` }, children)
}

/** mdast to hast for one render: GitBook's blocks, raw HTML elements, highlighted code, anchored headings. */
const handlersFor = (context: Context): Handlers => {
  const custom: Record<string, Handler> = {
    gitbookBlock: (state, node: GitbookBlock) => blockHandler(context, state, node),
    htmlElement: (state, node: HtmlElement) => element(node.tagName, { ...node.properties }, state.all(node as never))
  }
  return {
    ...(custom as Handlers),
    code: (_state, node) => highlight(node.value, node.lang),
    heading: (state, node) => {
      const id = context.ids.get(node)
      const children = state.all(node)
      if (id !== undefined) {
        children.push(text(" "), element("a", { href: `#${id}`, className: ["heading-anchor"], ariaLabel: "Link to this section" }, [text("#")]))
        context.resolved.add(children.at(-1) as Element)
      }
      const result = element(`h${node.depth}`, id === undefined ? {} : { id }, children)
      state.patch(node, result)
      return state.applyData(node, result)
    }
  }
}

const addClass = (node: Element, name: string) => {
  const existing = node.properties["className"]
  node.properties["className"] = [...(Array.isArray(existing) ? existing : []), name]
}

// Links to pages and files through the caller's resolvers; external ones keep their URL.
const rehypeLinks = ({ options, resolved }: Context) => (tree: HastRoot) => {
  visit(tree, "element", (node: Element) => {
    if (resolved.has(node)) return
    if (node.tagName === "a" && typeof node.properties["href"] === "string") {
      const href = node.properties["href"].trim()
      if (href.startsWith("#")) return
      // A link may point at a file (`.gitbook/assets/x.pdf`, as GitBook's card tables write them).
      const to = options.resolveLink(href) ?? (isExternal.test(href) ? undefined : options.resolveFile(href)?.url)
      if (to !== undefined) node.properties["href"] = to
      else if (/^(?:https?:)?\/\//i.test(href)) node.properties["rel"] = ["noopener"]
      else if (!/^(?:mailto|tel):/i.test(href)) {
        delete node.properties["href"]
        addClass(node, "broken-link")
        node.properties["title"] = "Broken link"
      }
    } else if (node.tagName === "source" && typeof node.properties["srcSet"] === "string") {
      // GitBook's image with a dark variant: <picture><source srcset=dark media=...><img src=light>.
      const ref = node.properties["srcSet"].trim()
      const file = options.resolveFile(ref)
      if (file !== undefined) node.properties["srcSet"] = file.url
      else if (!isWeb(ref) || /[\s,]/.test(ref)) delete node.properties["srcSet"]
    } else if (node.tagName === "img" && typeof node.properties["src"] === "string") {
      const src = node.properties["src"].trim()
      const file = options.resolveFile(src)
      node.properties["loading"] = "lazy"
      if (file !== undefined) node.properties["src"] = file.url
      else if (!isWeb(src)) {
        delete node.properties["src"]
        addClass(node, "broken-image")
      }
    }
  })
}

/** The hast of one render: its handlers and plugins are given its context. */
const toHast = (context: Context) =>
  unified()
    .use(remarkRehype, { handlers: handlersFor(context) })
    .use(rehypeLinks, context)
    .use(rehypeSanitize, schema)
const serializer = unified().use(rehypeStringify).freeze()

interface Parsed {
  readonly tree: Root
  readonly tags: ReadonlyArray<GitbookTag>
}

const parse = (markdown: string): Parsed => {
  const marked = markTags(splitFrontmatter(markdown).body)
  return { tree: parseBody(marked.markdown), tags: marked.tags }
}

const blockElements = new Set([
  "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "pre", "blockquote", "tr", "table", "figure", "figcaption",
  "details", "summary", "section", "ol", "ul", "dl", "dt", "dd", "label", "hr", "br"
])

// The parts of a card, each a line of its own in the text.
const separated = new Set(["embed-host", "embed-url", "file-name", "file-type", "content-ref-title"])

const plainText = (tree: HastRoot): string => {
  const parts: Array<string> = []
  const walk = (node: HastContent | HastRoot) => {
    if (node.type === "text") parts.push(node.value)
    else if (node.type === "element") {
      const className = node.properties["className"]
      if (Array.isArray(className) && className.includes("heading-anchor")) return
      const block = blockElements.has(node.tagName) || (Array.isArray(className) && className.some((name) => separated.has(String(name))))
      if (block) parts.push("\n")
      for (const child of node.children) walk(child)
      if (block) parts.push("\n")
      else if (node.tagName === "td" || node.tagName === "th") parts.push(" ")
    } else if (node.type === "root") for (const child of node.children) walk(child)
  }
  walk(tree)
  return parts.join("").split("\n").map((line) => line.replace(/\s+/g, " ").trim()).filter((line) => line !== "").join("\n")
}

const render = ({ tags, tree }: Parsed, options: RenderOptions): RenderedPage => {
  const ids = headingIds(tree)
  const headings: Array<TocHeading> = []
  visit(tree, "heading", (node) => {
    const id = ids.get(node)
    if ((node.depth === 2 || node.depth === 3) && id !== undefined) headings.push({ depth: node.depth, id, text: headingText(node) })
  })
  stitchTags(tree, tags)
  stitchHtml(tree)
  const hast = toHast({ options, resolved: new WeakSet(), ids, tabs: 0 }).runSync(tree) as HastRoot
  return { html: serializer.stringify(hast), headings, text: plainText(hast) }
}

/** Renders a page's markdown (its body: frontmatter is skipped), loading the grammars its code needs. */
export const renderPage = async (markdown: string, options: RenderOptions): Promise<RenderedPage> => {
  const parsed = parse(markdown)
  const langs: Array<string | null | undefined> = []
  visit(parsed.tree, "code", (node) => {
    langs.push(node.lang)
  })
  if (langs.length > 0) {
    // Without a highlighter (it failed to start), code is shown plain rather than the page failing.
    await highlighter().then((hl) => loadLanguages(hl, langs), () => undefined)
  }
  return render(parsed, options)
}

/**
 * `renderPage` without waiting: code is highlighted in the languages loaded so far (plain text
 * for others, and for all before `warmUp` has completed).
 */
export const renderPageSync = (markdown: string, options: RenderOptions): RenderedPage => render(parse(markdown), options)

/** Creates the highlighter and loads `languages`, so that the first page renders at full speed. */
export const warmUp = async (languages: Iterable<string> = []): Promise<void> => {
  await loadLanguages(await highlighter(), languages)
}

/** A typical page: a few KB of prose, a table, a hint, tabs and two code blocks. */
export const samplePage = `Quire publishes a space as a site. This page shows **what a typical page** holds.

## Installing

Install the package with your package manager, then start the server. See [the guide](./guide.md) and
[the API reference](https://example.com/api) for details.

\`\`\`bash
npm install @quire/cli
quire serve --port 8080 --data ./data
\`\`\`

{% hint style="info" %}
The server reads its settings from the environment; see [Configuration](configuration.md#env).
{% endhint %}

### Configuration

| Variable | Default | Meaning |
| --- | --- | --- |
| \`QUIRE_PORT\` | \`8080\` | The port the server listens on |
| \`QUIRE_DATA\` | \`./data\` | Where spaces are stored |
| \`QUIRE_PUBLIC_URL\` | none | The URL readers open |

## Using the API

{% tabs %}
{% tab title="TypeScript" %}
\`\`\`typescript
import { createClient } from "@quire/client"

interface Space { readonly id: string; readonly title: string }

export const listSpaces = async (token: string): Promise<ReadonlyArray<Space>> => {
  const client = createClient({ baseUrl: "https://quire.example.com", token })
  const response = await client.get("/v1/orgs/acme/spaces")
  return response.items.map((item: Space) => ({ id: item.id, title: item.title }))
}
\`\`\`
{% endtab %}
{% tab title="Notes" %}
Every request needs a token. Tokens are created in the settings and can be revoked at any time.
{% endtab %}
{% endtabs %}

- [x] Spaces and pages
- [ ] Custom domains

Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore
magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo
consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur.

<figure><img src="../.gitbook/assets/diagram.png" alt="The architecture"><figcaption><p>The architecture</p></figcaption></figure>

{% content-ref url="reference/api.md" %}
[api.md](reference/api.md)
{% endcontent-ref %}
`

/** Figures of `benchmarkRender`, in milliseconds. */
export interface RenderBenchmark {
  readonly iterations: number
  readonly medianMs: number
  readonly p95Ms: number
  readonly meanMs: number
  readonly bytes: number
}

/**
 * Renders `markdown` (default `samplePage`) `iterations` times after a warm-up and reports the
 * time per render, with resolvers like the site's. `coldCode` empties the cache of highlighted
 * code before each render, as for a page whose code was never shown before.
 */
export const benchmarkRender = async (
  iterations = 200,
  markdown: string = samplePage,
  { coldCode = false }: { readonly coldCode?: boolean } = {}
): Promise<RenderBenchmark> => {
  const options: RenderOptions = {
    resolveLink: (url) => (/^https?:/.test(url) ? undefined : `/docs/${url.replace(/\.md(?=#|$)/, "")}`),
    resolveFile: (ref) => ({ url: `/files/${encodeURIComponent(ref)}`, name: ref })
  }
  for (let i = 0; i < 20; i++) await renderPage(markdown, options)
  const times: Array<number> = []
  let bytes = 0
  for (let i = 0; i < iterations; i++) {
    if (coldCode) clearHighlightCache()
    const start = performance.now()
    bytes = (await renderPage(markdown, options)).html.length
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  return {
    iterations,
    medianMs: times[Math.floor(times.length / 2)]!,
    p95Ms: times[Math.min(times.length - 1, Math.floor(times.length * 0.95))]!,
    meanMs: times.reduce((sum, t) => sum + t, 0) / times.length,
    bytes
  }
}

/**
 * The stylesheet the rendered HTML expects: both code themes (`darkSelector` names the element
 * that switches to dark, e.g. `[data-theme="dark"]`), radio tabs that work without JavaScript,
 * hints, cards, steps and broken links.
 */
export const markdownCss = (darkSelector = `[data-theme="dark"]`): string => `
.shiki { color: var(--shiki-light); background-color: var(--shiki-light-bg); overflow-x: auto; padding: 1em; border-radius: 6px; }
.shiki span { color: var(--shiki-light); font-style: var(--shiki-light-font-style); font-weight: var(--shiki-light-font-weight); text-decoration: var(--shiki-light-text-decoration); }
${darkSelector} .shiki { color: var(--shiki-dark); background-color: var(--shiki-dark-bg); }
${darkSelector} .shiki span { color: var(--shiki-dark); font-style: var(--shiki-dark-font-style); font-weight: var(--shiki-dark-font-weight); text-decoration: var(--shiki-dark-text-decoration); }
.code-wrap .shiki { white-space: pre-wrap; overflow-wrap: anywhere; }
.line-numbers .shiki code { counter-reset: line; }
.line-numbers .shiki .line::before { counter-increment: line; content: counter(line); display: inline-block; width: 2.5em; margin-right: 1em; text-align: right; opacity: .5; }
.code-title { font-family: monospace; font-size: .875em; padding: .4em 1em; border-bottom: 1px solid rgba(127,127,127,.3); }
.hint { border-left: 4px solid var(--hint-color, #3b82f6); padding: .5em 1em; margin: 1em 0; border-radius: 4px; background: color-mix(in srgb, var(--hint-color, #3b82f6) 10%, transparent); }
.hint-success { --hint-color: #16a34a; } .hint-warning { --hint-color: #d97706; } .hint-danger { --hint-color: #dc2626; }
.tabs { display: flex; flex-wrap: wrap; margin: 1em 0; border: 1px solid rgba(127,127,127,.3); border-radius: 6px; }
.tabs > .tab-input { position: absolute; opacity: 0; width: 1px; height: 1px; }
.tabs > .tab-label { order: 1; padding: .5em 1em; cursor: pointer; border-bottom: 2px solid transparent; }
.tabs > .tab-panel { order: 2; width: 100%; display: none; padding: 0 1em; border-top: 1px solid rgba(127,127,127,.3); }
.tabs > .tab-input:checked + .tab-label { border-bottom-color: currentColor; font-weight: 600; }
.tabs > .tab-input:focus-visible + .tab-label { outline: 2px solid currentColor; }
.tabs > .tab-input:checked + .tab-label + .tab-panel { display: block; }
.stepper { counter-reset: step; list-style: none; padding-left: 0; }
.stepper > .step { counter-increment: step; position: relative; padding-left: 2.5em; }
.stepper > .step::before { content: counter(step); position: absolute; left: 0; width: 1.75em; height: 1.75em; border-radius: 50%; text-align: center; border: 1px solid currentColor; }
.columns { display: flex; gap: 1.5em; flex-wrap: wrap; } .columns > .column { flex: 1 1 16em; }
.embed, .content-ref, .file { margin: 1em 0; border: 1px solid rgba(127,127,127,.3); border-radius: 6px; }
.embed-link, .content-ref-link, .file-link { display: flex; flex-direction: column; padding: .75em 1em; text-decoration: none; }
.embed-url, .file-type { font-size: .875em; opacity: .7; overflow-wrap: anywhere; }
.embed-caption, .file-caption { padding: 0 1em; }
.broken-link { text-decoration: line-through wavy; color: #dc2626; cursor: not-allowed; }
.broken-image { display: none; }
.heading-anchor { opacity: 0; text-decoration: none; } :is(h1,h2,h3,h4,h5,h6):hover > .heading-anchor, .heading-anchor:focus { opacity: .6; }
`

/** The themes of highlighted code. */
export const codeThemes = themes
