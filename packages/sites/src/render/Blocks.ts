/**
 * GitBook blocks beyond the basic ones, as its published pages show them: `{% updates %}` and
 * `{% update date= tags= %}` (a changelog), `{% prompt %}`, `{% if %}` conditional content,
 * `{% embed %}` of a known provider (a player loaded on click), integration blocks
 * (`{% @github-files/github-code-block url= %}`) as link cards, and `{% include %}` through the
 * caller's hook. Each returns hast; what the page's script must do (play, copy) is marked by classes.
 */
import * as Syntax from "@quire/document/syntax"
import type { Element, ElementContent } from "hast"
import type { Nodes } from "mdast"
import * as Audience from "../Audience.ts"
import { playerOf } from "./Embeds.ts"
import type { GitbookBlock } from "./GitbookTags.ts"
import { element, text } from "./Hast.ts"
import { iconSvg } from "./Icons.ts"

/** What the blocks need of the render. */
export interface BlockContext {
  /** The markdown inside a block (or any nodes) as hast. */
  readonly inner: (block: GitbookBlock | { readonly type: "root"; readonly children: Array<Nodes> }) => Array<ElementContent>
  /** HTML the renderer made itself (an icon's SVG), inserted as it is after sanitizing. */
  readonly raw: (html: string) => Element
  /** The visitor's claims, which `{% if %}` conditions read. */
  readonly claims: Readonly<Record<string, unknown>>
  /** Records what the page needs of the site's assets (its script for players and prompts). */
  readonly need: (asset: "script") => void
}

const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

/** A date as GitBook's update shows it: `full` (December 25, 2025), `short` (Dec 25, 2025) or `numeric` (12/25/2025). */
export const updateDate = (date: string, format: string): string => {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date.trim())
  if (match === null) return date
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const name = months[month - 1]
  if (name === undefined || day < 1 || day > 31) return date
  if (format === "numeric") return `${month}/${day}/${year}`
  return `${format === "short" ? name.slice(0, 3) : name} ${day}, ${year}`
}

/** One `{% update %}`: its date, its tags, its content. */
const updateEntry = (context: BlockContext, update: GitbookBlock, format: string): Element => {
  const date = (update.attributes["date"] ?? "").trim()
  const tags = (update.attributes["tags"] ?? "").split(",").map((t) => t.trim()).filter((t) => t !== "")
  const meta: Array<ElementContent> = []
  if (date !== "") meta.push(element("time", /^\d{4}-\d{2}-\d{2}$/.test(date) ? { dateTime: date } : {}, [text(updateDate(date, format))]))
  if (tags.length > 0) {
    meta.push(element("span", { className: ["update-tags"] }, tags.map((tag) => element("span", { className: ["update-tag"] }, [text(tag)]))))
  }
  return element("article", { className: ["update"] }, [
    element("div", { className: ["update-meta"] }, meta),
    element("div", { className: ["update-body"] }, context.inner(update))
  ])
}

/** `{% updates format= %}` holding `{% update %}` entries (one alone is an entry too). */
export const updatesBlock = (context: BlockContext, block: GitbookBlock): Element => {
  const format = block.attributes["format"] ?? "full"
  if (block.name === "update") return element("div", { className: ["updates"] }, [updateEntry(context, block, format)])
  const entries: Array<ElementContent> = (block.children as ReadonlyArray<Nodes | GitbookBlock>).flatMap((child) =>
    child.type === "gitbookBlock" && (child as GitbookBlock).name === "update"
      ? [updateEntry(context, child as GitbookBlock, format)]
      : context.inner({ type: "root", children: [child as Nodes] }))
  return element("div", { className: ["updates"] }, entries)
}

/** `{% prompt description= icon= defaultExpanded= %}`: the prompt with its description and a copy button. */
export const promptBlock = (context: BlockContext, block: GitbookBlock): Element => {
  context.need("script")
  const description = (block.attributes["description"] ?? "").trim()
  const icon = iconSvg(block.attributes["icon"] ?? "") ?? iconSvg("terminal")
  const header = element("div", { className: ["prompt-header"] }, [
    ...(icon === undefined ? [] : [context.raw(icon)]),
    element("span", { className: ["prompt-description"] }, [text(description === "" ? "Prompt" : description)]),
    element("button", { type: "button", className: ["prompt-copy"] }, [text("Copy prompt")])
  ])
  const body = element("div", { className: ["prompt-body"] }, context.inner(block))
  const label = description === "" ? "Prompt" : `Prompt: ${description}`
  if ((block.attributes["defaultExpanded"] ?? "").toLowerCase() === "hidden") {
    return element("div", { className: ["prompt"], role: "group", ariaLabel: label }, [
      header,
      element("details", {}, [element("summary", {}, [text("Show prompt")]), body])
    ])
  }
  const partial = (block.attributes["defaultExpanded"] ?? "").toLowerCase() === "partial"
  return element("div", { className: partial ? ["prompt", "prompt-partial"] : ["prompt"], role: "group", ariaLabel: label }, [header, body])
}

/** The expression of `{% if visitor.claims.plan === "pro" %}`: what follows `if`. */
export const conditionOf = (source: string): string => Syntax.readTag(source)?.args ?? ""

/**
 * `{% if %}` shows its content when its condition holds for the visitor's claims (as a section's
 * does: one that does not parse holds for nobody), else what follows its `{% else %}`, if any.
 */
export const conditionalBlock = (context: BlockContext, block: GitbookBlock): Array<ElementContent> => {
  const children = block.children as ReadonlyArray<Nodes | GitbookBlock>
  const at = children.findIndex((child) => child.type === "gitbookBlock" && ["else", "elseif", "elsif", "elif"].includes((child as GitbookBlock).name))
  const then = at === -1 ? children : children.slice(0, at)
  if (Audience.visible(conditionOf(block.source), context.claims)) return context.inner({ type: "root", children: then as Array<Nodes> })
  if (at === -1) return []
  const next = children[at] as GitbookBlock
  const rest = children.slice(at + 1)
  if (next.name === "else") return context.inner({ type: "root", children: rest as Array<Nodes> })
  // `{% elseif x %}` is an `{% if x %}` of what follows it.
  return conditionalBlock(context, { ...next, children: rest as GitbookBlock["children"] })
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname.replace(/^www\./, "")
  } catch {
    return url
  }
}

/** `{% embed url= %}`: a player loaded on click for a known provider, else a link card; the caption follows. */
export const embedBlock = (context: BlockContext, block: GitbookBlock): Element => {
  const url = block.attributes["url"] ?? ""
  const caption = context.inner(block)
  const captionPart = caption.length === 0 ? [] : [element("div", { className: ["embed-caption"] }, caption)]
  const player = playerOf(url)
  if (player === undefined) {
    return element("div", { className: ["embed"] }, [
      element("a", { href: url, className: ["embed-link"] }, [
        element("span", { className: ["embed-host"] }, [text(hostOf(url))]),
        element("span", { className: ["embed-url"] }, [text(url)])
      ]),
      ...captionPart
    ])
  }
  context.need("script")
  const play = iconSvg("play", "solid")
  return element("div", { className: ["embed", "embed-player"] }, [
    element("button", {
      type: "button",
      className: ["embed-play"],
      dataEmbedSrc: player.src,
      dataEmbedTitle: `${player.provider}: ${url}`,
      ariaLabel: `Play ${player.provider} content: ${url}`
    }, [
      ...(play === undefined ? [] : [element("span", { className: ["embed-play-icon"] }, [context.raw(play)])]),
      element("span", { className: ["embed-provider"] }, [text(player.provider)]),
      element("span", { className: ["embed-url"] }, [text(url)]),
      element("span", { className: ["embed-notice"] }, [text(`Loads content from ${hostOf(player.src)} when you click.`)])
    ]),
    element("a", { href: url, className: ["embed-open"] }, [text(`Open on ${player.provider}`)]),
    ...captionPart
  ])
}

const integrationNames: Readonly<Record<string, string>> = {
  "github-files": "GitHub",
  "gitlab-files": "GitLab",
  "figma": "Figma",
  "loom": "Loom",
  "miro": "Miro",
  "mermaid": "Mermaid",
  "codesandbox": "CodeSandbox",
  "runkit": "RunKit",
  "jira": "Jira",
  "lucid": "Lucid",
  "youtube": "YouTube",
  "vimeo": "Vimeo",
  "arcade": "Arcade",
  "supademo": "Supademo",
  "storylane": "Storylane",
  "swagger-editor": "Swagger Editor"
}

const words = (name: string): string =>
  name.split(/[-_]/).filter((w) => w !== "").map((w) => w[0]!.toUpperCase() + w.slice(1)).join(" ")

/** The title of an integration block: `@github-files/github-code-block` is "GitHub code block". */
export const integrationTitle = (name: string): string => {
  const [integration = "", kind = ""] = name.replace(/^@/, "").split("/")
  const title = integrationNames[integration] ?? words(integration)
  // `github-code-block` of `github-files` reads "GitHub code block", `embed` of `figma` "Figma embed".
  const first = integration.split("-")[0]
  const rest = kind.split("-").filter((word, i) => !(i === 0 && word === first))
  const what = words(rest.join("-")).toLowerCase()
  return what === "" ? title : `${title} ${what}`
}

/** An integration block (`{% @figma/embed url= %}`): a card titled by the integration, linking to its URL. */
export const integrationBlock = (context: BlockContext, block: GitbookBlock): Element => {
  const url = (block.attributes["url"] ?? block.attributes["src"] ?? block.attributes["href"] ?? "").trim()
  const title = integrationTitle(block.name)
  const detail = url !== "" ? url : Object.values(block.attributes).find((value) => value.trim() !== "" && value.length <= 200) ?? ""
  const label = [
    element("span", { className: ["integration-title"] }, [text(title)]),
    ...(detail === "" ? [] : [element("span", { className: ["embed-url"] }, [text(detail)])])
  ]
  return element("div", { className: ["embed", "integration"] }, [
    /^https?:\/\//i.test(url) ? element("a", { href: url, className: ["embed-link"] }, label) : element("div", { className: ["embed-link"] }, label),
    ...context.inner(block)
  ])
}
