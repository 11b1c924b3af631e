/**
 * One page's markdown to what its published page shows: sanitized HTML (GFM, heading anchors,
 * Shiki highlighting in light and dark, GitBook's blocks), the headings for its table of contents
 * and its plain text. Pure: links and files are resolved by the functions the caller passes. The
 * document model (frontmatter, parsing, heading anchors) is `@quire/markdown`'s; the HTML is this module's.
 */
import { describeBreach, gitbookSlug, type MarkdownLimitBreach, markdownLimitBreach, splitFrontmatter, takeFreeId } from "@quire/markdown"
import { escapeHtml } from "@quire/kernel"
import type { Element, ElementContent, Root as HastRoot, RootContent as HastContent } from "hast"
import type { Nodes } from "mdast"
import { toString } from "mdast-util-to-string"
import rehypeSanitize from "rehype-sanitize"
import rehypeStringify from "rehype-stringify"
import { unified } from "unified"
import { SKIP, visit } from "unist-util-visit"
import { type ApiContext, operationBlock, schemasBlock, swaggerBlock, webhookBlock } from "./ApiBlocks.ts"
import { assetFiles, type PageAsset } from "./Assets.ts"
import { type BlockContext, conditionalBlock, conditionOf, embedBlock, integrationBlock, promptBlock, updatesBlock } from "./Blocks.ts"
import { childBlocks, type GitbookBlock } from "./GitbookTags.ts"
import { element, text } from "./Hast.ts"
import { type Highlighting, themes } from "./Highlight.ts"
import { formulaHtml } from "./Math.ts"
import type { OperationData } from "./OpenApiOperation.ts"
import { schema } from "./Sanitize.ts"
import { type TagBlock, type TagChild, treeHast } from "./TreeHtml.ts"

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
  /** The visitor's claims, which `{% if %}` conditions read (none by default: an anonymous reader). */
  readonly claims?: Readonly<Record<string, unknown>>
  /** The URL of a site asset (`blocks.js`, `katex/katex.min.css`); without it, pages link to none. */
  readonly assetUrl?: (name: string) => string
  /** What highlights code (the server's `CodeHighlighter`); without it, code is shown plain. */
  readonly highlighter?: Highlighting
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
  /** The site assets the page loads (its CSP must allow them). */
  readonly assets: ReadonlyArray<PageAsset>
  /** The conditions of its `{% if %}` blocks: what they read of the claims tells its audiences apart. */
  readonly conditions: ReadonlyArray<string>
}

/** How a tag's form draws what it holds: a block's children, each drawing its own. */
interface State {
  readonly all: (parent: unknown) => Array<ElementContent>
}

/** What one render's handlers and plugins share: passed to each, so no render sees another's. */
interface Context {
  readonly options: RenderOptions
  /** Links and images whose URL the renderer has set already. */
  readonly resolved: WeakSet<Element>
  /** The ids the page's elements have taken: its headings' first, then tabs' and expandables'. */
  readonly taken: Set<string>
  tabs: number
  /** HTML the renderer made itself (formulas, icons), put in place after sanitizing. */
  readonly raws: Array<string>
  readonly assets: Set<PageAsset>
  readonly conditions: Array<string>
  footnotes: number
}

/** A placeholder for HTML the renderer made itself, replaced by it after sanitizing. */
const raw = (context: Context, html: string): Element =>
  element("span", { className: ["quire-raw"], id: `quire-raw-${context.raws.push(html) - 1}` }, [])

const hintStyles: Record<string, string> = { info: "Info", success: "Success", warning: "Warning", danger: "Danger" }

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
      // GitBook's id of a tab is its title's, so a link to `page#title` selects it (blocks.js).
      if (tabs.length > 0) context.assets.add("script")
      tabs.forEach((tab, index) => {
        const title = tab.attributes["title"] ?? `Tab ${index + 1}`
        const slug = gitbookSlug(title.replace(/\s+/g, " ").trim())
        const id = takeFreeId(slug === "" ? `${group}-${index + 1}` : slug, context.taken)
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
    case "embed":
      return embedBlock(blocks(context, state), block)
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
    case "openapi":
      return operationBlock(api(context, state), block)
    case "swagger":
      return swaggerBlock(api(context, state), block)
    case "openapi-schemas":
      return schemasBlock(api(context, state), block)
    case "openapi-webhook":
      return webhookBlock(api(context, state), block)
    case "updates":
    case "update":
      return updatesBlock(blocks(context, state), block)
    case "prompt":
      return promptBlock(blocks(context, state), block)
    case "if":
      context.conditions.push(conditionOf(block.source))
      return conditionalBlock(blocks(context, state), block)
    case "include":
      return includeBlock()
    default:
      if (block.name.startsWith("@")) {
        // The integration that drew diagrams before GitBook had Mermaid blocks.
        if (block.name === "@mermaid/diagram" && block.attributes["content"] !== undefined) {
          return mermaidBlock(context, block.attributes["content"])
        }
        return integrationBlock(blocks(context, state), block)
      }
      // A block this renderer does not know shows what it holds.
      return inner()
  }
}

const allOf = (state: State) => (node: GitbookBlock | { readonly type: "root"; readonly children: Array<Nodes> }) =>
  state.all(node as never)

const blocks = (context: Context, state: State): BlockContext => ({
  inner: allOf(state),
  raw: (html) => raw(context, html),
  claims: context.options.claims ?? {},
  need: (asset) => context.assets.add(asset)
})

const api = (context: Context, state: State): ApiContext => ({
  inner: allOf(state),
  resolveOperation: context.options.resolveOperation,
  highlight: (code, lang) => highlight(context, code, lang)
})

const highlight = (context: Context, code: string, lang: string | null | undefined): Element =>
  context.options.highlighter?.highlight(code, lang) ?? plainCode(code)

const plainCode = (code: string): Element =>
  element("pre", { className: ["shiki"] }, [element("code", {}, [text(code)])])

/** A ```mermaid block: its code, drawn as a diagram by the page's script (the code stays if it cannot be). */
const mermaidBlock = (context: Context, code: string): Element => {
  context.assets.add("script")
  context.assets.add("mermaid")
  return element("pre", { className: ["mermaid"] }, [text(code)])
}

/**
 * `{% include "<ref>" %}` left in a page: Includes.ts put every reusable content the page names in
 * its place before it was parsed, so one left names none, and shows nothing.
 */
const includeBlock = (): Array<ElementContent> => []

const addClass = (node: Element, name: string) => {
  const existing = node.properties["className"]
  node.properties["className"] = [...(Array.isArray(existing) ? existing : []), name]
}

// Links to pages and files through the caller's resolvers; external ones keep their URL.
const rehypeLinks = ({ options, resolved }: Context) => (tree: HastRoot) => {
  visit(tree, "element", (node: Element, index, parent) => {
    if (resolved.has(node)) return
    // An image with no source (`![]()`, `<img src="">`) is nothing, as on GitBook: its figure keeps its caption.
    if (node.tagName === "img" && parent !== undefined && index !== undefined && String(node.properties["src"] ?? "").trim() === "") {
      parent.children.splice(index, 1)
      return [SKIP, index]
    }
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
        // A source Quire does not hold: hidden, as the image it names cannot be shown.
        delete node.properties["src"]
        addClass(node, "broken-image")
      }
    }
  })
}

const hastText = (node: ElementContent): string =>
  node.type === "text" ? node.value : node.type === "element" ? node.children.map(hastText).join("") : ""

/**
 * Expandables (`<details><summary>Admin</summary>`) get GitBook's id from their summary's words
 * (`#admin`), unique among the page's ids, so that links to them land; the page script opens the
 * one the URL's hash names.
 */
const rehypeExpandables = (context: Context) => (tree: HastRoot) => {
  const taken = context.taken
  visit(tree, "element", (node: Element) => {
    if (node.tagName !== "details" || node.properties["id"] !== undefined) return
    const summary = node.children.find((child): child is Element => child.type === "element" && child.tagName === "summary")
    const base = summary === undefined ? "" : gitbookSlug(hastText(summary).replace(/\s+/g, " ").trim())
    if (base === "") return
    node.properties["id"] = takeFreeId(base, taken)
    context.assets.add("script")
  })
}

// The HTML the renderer made itself (formulas, icons) in place of its placeholders, after sanitizing.
const rehypeRaws = (context: Context) => (tree: HastRoot) => {
  if (context.raws.length === 0) return
  visit(tree, "element", (node: Element, index, parent) => {
    const id = node.properties["id"]
    const className = node.properties["className"]
    if (node.tagName !== "span" || parent === undefined || index === undefined || typeof id !== "string" || !id.startsWith("quire-raw-")) return
    if (!Array.isArray(className) || !className.includes("quire-raw")) return
    const html = context.raws[Number(id.slice("quire-raw-".length))]
    if (html !== undefined) parent.children[index] = { type: "raw", value: html } as unknown as ElementContent
  })
}

/**
 * Every table but a card grid takes the keyboard's focus: page-body.css lets a table scroll sideways
 * where it is wider than the page (a phone), and a region that scrolls must be reachable without a mouse.
 */
const rehypeScrollableTables = () => (tree: HastRoot) => {
  visit(tree, "element", (node: Element) => {
    const className = node.properties["className"]
    if (node.tagName === "table" && !(Array.isArray(className) && className.includes("cards"))) node.properties["tabIndex"] = 0
  })
}

// Raw nodes are the renderer's own: the sanitizer has dropped any other.
const serializer = unified().use(rehypeStringify, { allowDangerousHtml: true }).freeze()

/** The stylesheet and script the page's blocks need, from the site's assets. */
const assetTags = (assets: ReadonlySet<PageAsset>, url: ((name: string) => string) | undefined): readonly [string, string] => {
  if (url === undefined) return ["", ""]
  const head = assets.has("katex") ? `<link rel="stylesheet" href="${escapeHtml(url(assetFiles.katex))}">` : ""
  const mermaid = assets.has("mermaid") ? ` data-mermaid="${escapeHtml(url(assetFiles.mermaid))}"` : ""
  const tail = assets.has("script") ? `<script src="${escapeHtml(url(assetFiles.script))}" defer${mermaid}></script>` : ""
  return [head, tail]
}

const blockElements = new Set([
  "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "pre", "blockquote", "tr", "table", "figure", "figcaption",
  "details", "summary", "section", "ol", "ul", "dl", "dt", "dd", "label", "hr", "br"
])

// The parts of a card, each a line of its own in the text.
const separated = new Set(["embed-host", "embed-url", "file-name", "file-type", "content-ref-title", "footnote-popover", "embed-provider"])
// What is there for the interface, not words of the page.
const unread = new Set(["heading-anchor", "embed-notice", "prompt-copy"])

const plainText = (tree: HastRoot): string => {
  const parts: Array<string> = []
  const walk = (node: HastContent | HastRoot) => {
    if (node.type === "text") parts.push(node.value)
    else if (node.type === "element") {
      const className = node.properties["className"]
      if (Array.isArray(className) && className.some((name) => unread.has(String(name)))) return
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

/** The site's passes over hast drawn without remark (see TreeHtml.ts). */
const treePasses = (context: Context) =>
  unified()
    .use(rehypeLinks, context)
    .use(rehypeExpandables, context)
    .use(rehypeSanitize, schema)
    .use(rehypeScrollableTables)
    .use(rehypeRaws, context)

/**
 * A tag the codec keeps as raw text drawn by the same forms as remark's (Blocks.ts, ApiBlocks.ts),
 * which read an mdast block: its children given as such, each drawing its own blocks.
 */
const drawTag = (context: Context, tag: TagBlock): Array<ElementContent> => {
  type Drawable = { readonly type: string; readonly draw?: () => Array<ElementContent> }
  const asChild = (child: TagChild): unknown =>
    child.type === "tag"
      ? asBlock(child)
      : child.code === undefined ? { type: "treeBlocks", draw: child.draw, value: child.text } : { type: "code", lang: child.code.lang, value: child.code.value, draw: child.draw }
  const asBlock = (block: TagBlock): GitbookBlock =>
    ({ type: "gitbookBlock", name: block.name, attributes: block.attributes, source: block.source, children: block.children.map(asChild) }) as unknown as GitbookBlock
  const state = {
    all: (parent: { readonly children: ReadonlyArray<Drawable> }): Array<ElementContent> =>
      parent.children.flatMap((child) => {
        if (child.draw !== undefined) return child.draw()
        const drawn = blockHandler(context, state as unknown as State, child as unknown as GitbookBlock)
        return Array.isArray(drawn) ? drawn : [drawn]
      })
  }
  const drawn = blockHandler(context, state as unknown as State, asBlock(tag))
  return Array.isArray(drawn) ? drawn : [drawn]
}

const newContext = (options: RenderOptions): Context => ({
  options, resolved: new WeakSet(), taken: new Set(), tabs: 0, raws: [], assets: new Set(), conditions: [], footnotes: 0
})

/** A page's body drawn from its block tree (the editor's, `@quire/document`'s; see TreeHtml.ts). */
const drawBody = (markdown: string, options: RenderOptions): RenderedPage => {
  const context = newContext(options)
  const drawn = treeHast(markdown, {
    code: (code, language) => (language?.toLowerCase() === "mermaid" ? mermaidBlock(context, code) : highlight(context, code, language)),
    math: (tex, display) => {
      context.assets.add("katex")
      return element(display ? "div" : "span", { className: ["math", display ? "math-display" : "math-inline"] }, [raw(context, formulaHtml(tex, display))])
    },
    raw: (html) => raw(context, html),
    needScript: () => context.assets.add("script"),
    taken: context.taken,
    links: { resolveLink: options.resolveLink, resolveFile: options.resolveFile, resolveTitle: options.resolveTitle, resolved: context.resolved },
    tag: (name, attributes, inner) => {
      if (name === "content-ref") {
        const url = attributes["url"] ?? ""
        let title = options.resolveTitle?.(url)
        if (title === undefined) {
          let linkText: string | undefined
          for (const node of inner()) {
            visit(node, "element", (child: Element) => {
              if (child.tagName === "a") linkText ??= hastText(child).trim() || undefined
            })
          }
          title = linkText ?? url
        }
        return [element("div", { className: ["content-ref"] }, [
          element("a", { href: url, className: ["content-ref-link"] }, [element("span", { className: ["content-ref-title"] }, [text(title)])])
        ])]
      }
      const block = { type: "gitbookBlock", name, attributes, source: "", children: [] } as unknown as GitbookBlock
      const drawn = blockHandler(context, { all: () => inner() } as unknown as State, block)
      return Array.isArray(drawn) ? drawn : [drawn]
    },
    rawTag: (tag) => drawTag(context, tag)
  })
  // Heading anchors resolve to themselves; the rest go through the caller's resolvers.
  visit(drawn, "element", (node: Element) => {
    if (node.tagName === "a" && Array.isArray(node.properties["className"]) && node.properties["className"].includes("heading-anchor")) context.resolved.add(node)
  })
  return finish(context, drawn)
}

/**
 * A page over a markdown limit (stored before the limits, or by an older version) as plain text
 * with a note, which costs no parse.
 */
const drawPlain = (markdown: string, breach: MarkdownLimitBreach, options: RenderOptions): RenderedPage => {
  const context = newContext(options)
  const note = `This page is shown as plain text: its markdown is over ${describeBreach(breach)}.`
  return finish(context, { type: "root", children: [element("p", {}, [element("em", {}, [text(note)])]), highlight(context, markdown, "text")] })
}

/** The page's hast through the site's passes (links, sanitizer, its own HTML), with its headings, text and assets. */
const finish = (context: Context, drawn: HastRoot): RenderedPage => {
  const hast = treePasses(context).runSync(drawn) as HastRoot
  const [head, tail] = assetTags(context.assets, context.options.assetUrl)
  const headings: Array<TocHeading> = []
  visit(hast, "element", (node: Element) => {
    const depth = node.tagName === "h2" ? 2 : node.tagName === "h3" ? 3 : undefined
    const id = node.properties["id"]
    if (depth !== undefined && typeof id === "string") {
      const words = node.children.filter((child) => !(child.type === "element" && Array.isArray(child.properties["className"]) && child.properties["className"].includes("heading-anchor")))
      headings.push({ depth, id, text: words.map(hastText).join("").replace(/\s+/g, " ").trim() })
    }
  })
  return { html: head + serializer.stringify(hast) + tail, headings, text: plainText(hast), assets: [...context.assets], conditions: context.conditions }
}

/** The languages of a page's fenced code blocks, for the highlighter to load before drawing. */
const fenceLanguages = (markdown: string): Array<string> => {
  const langs: Array<string> = []
  for (const match of markdown.matchAll(/^[ \t>]*(?:[-*+]|\d+[.)])?[ \t]*(?:`{3,}|~{3,})[ \t]*([^\s`{]+)/gm)) langs.push(match[1]!)
  return langs
}

/** Renders a page's markdown (its body: frontmatter is skipped), loading the grammars its code needs. */
export const renderPage = async (markdown: string, options: RenderOptions): Promise<RenderedPage> => {
  const langs = fenceLanguages(markdown)
  // Without a highlighter (or one that failed to start), code is shown plain rather than the page failing.
  if (langs.length > 0 && options.highlighter !== undefined) await options.highlighter.load(langs)
  return renderPageSync(markdown, options)
}

/**
 * `renderPage` without waiting: code is highlighted in the languages loaded so far (plain text
 * for others, and for all before the highlighter has loaded any).
 */
export const renderPageSync = (markdown: string, options: RenderOptions): RenderedPage => {
  const body = splitFrontmatter(markdown).body
  const breach = markdownLimitBreach(body)
  return breach === undefined ? drawBody(body, options) : drawPlain(body, breach, options)
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
  highlighter: Highlighting,
  iterations = 200,
  markdown: string = samplePage,
  { coldCode = false }: { readonly coldCode?: boolean } = {}
): Promise<RenderBenchmark> => {
  const options: RenderOptions = {
    resolveLink: (url) => (/^https?:/.test(url) ? undefined : `/docs/${url.replace(/\.md(?=#|$)/, "")}`),
    resolveFile: (ref) => ({ url: `/files/${encodeURIComponent(ref)}`, name: ref }),
    highlighter
  }
  for (let i = 0; i < 20; i++) await renderPage(markdown, options)
  const times: Array<number> = []
  let bytes = 0
  for (let i = 0; i < iterations; i++) {
    if (coldCode) highlighter.clear()
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
