/**
 * The tools of a published site's MCP server (`<site>/~gitbook/mcp`), GitBook's names: each reads
 * the site as its visitor reads it, through the site's own search and raw-markdown pages, so an
 * agent sees what that visitor may see (visibility, share link, visitor token, adaptive content)
 * and nothing more.
 */
import { guarded, required, str, text, type Tool, ToolError } from "./Tools.ts"

/** A GET of `relative` (a path below the site's root, with its query) as the visitor: status and body. */
export type SiteGet = (relative: string, accept: string) => Promise<{ readonly status: number; readonly body: string }>

interface SearchItem { readonly title: string; readonly url: string; readonly snippet: string; readonly section?: string }

/**
 * The path below `root` of a page's URL or path, or a ToolError when it is not a page of this site.
 * The path is decoded first and then checked, segment by segment: an encoded `..%2F` climbs out of
 * the site only once decoded, so a check before decoding lets it reach another site or the server.
 * What is returned is re-encoded segment by segment, so it can only name a page below `root`.
 */
export const pagePath = (root: string, where: string): string => {
  const outside = () => new ToolError(`url: ${where} is not a page of this site (${root})`)
  const base = new URL(root)
  let url: URL
  try {
    url = new URL(where, root)
  } catch {
    throw outside()
  }
  if (url.origin !== base.origin || !`${url.pathname}/`.startsWith(base.pathname)) throw outside()
  let decoded: string
  try {
    decoded = decodeURIComponent(url.pathname.slice(base.pathname.length))
  } catch {
    throw new ToolError(`url: ${where} is not a valid path`)
  }
  const segments = decoded.split("/").filter((segment) => segment !== "" && segment !== ".")
  if (segments.includes("..")) throw outside()
  const path = segments.map(encodeURIComponent).join("/")
  return path === "" ? "index.md" : path.endsWith(".md") ? path : `${path}.md`
}

const refused = (status: number, what: string) =>
  new ToolError(status === 404 ? `${what}: no such page on this site` : `${what}: the site answered ${status}`)

interface AskSource { readonly n: number; readonly title: string; readonly url: string }

/** GitBook's `askQuestion`, through the site's own Ask (`~ask`): offered where the site has Ask. */
const askQuestion = (get: SiteGet, root: string): Tool => ({
  name: "askQuestion",
  title: "Ask a question",
  description: "Asks the site's assistant a question; the answer is drawn from the site's pages and cites them as [n] with their URLs.",
  inputSchema: { type: "object", properties: { question: str("The question", 512) }, required: ["question"] },
  run: async (args) => {
    const answer = await get(`~ask?q=${encodeURIComponent(required(args, "question"))}`, "application/json")
    const body = JSON.parse(answer.body) as { answer?: string; sources?: ReadonlyArray<AskSource>; error?: { message?: string } }
    if (answer.status !== 200) throw new ToolError(`question: ${body.error?.message ?? `the site answered ${answer.status}`}`)
    const sources = (body.sources ?? []).map((source) => ({ ...source, url: new URL(source.url, root).href }))
    return text([body.answer ?? "", "", ...sources.map((source) => `[${source.n}] ${source.title}: ${source.url}`)].join("\n").trim(), { answer: body.answer ?? "", sources })
  }
})

/** Stores an agent's feedback (GitBook's `AgentFeedbackInput`): its acknowledgement, or a ToolError naming the field refused. */
export type SendFeedback = (input: unknown) => Promise<{ readonly id: string; readonly result: string }>

const categories = ["usability", "reliability", "documentation", "efficiency", "interoperability", "could-not-accomplish"]

/** GitBook's `sendFeedback`: the agent's feedback on the site (a page of it when `url` names one), kept on the site's insights. */
const sendFeedback = (send: SendFeedback, root: string): Tool => ({
  name: "sendFeedback",
  title: "Send feedback about this documentation",
  description:
    "Tells the site's editors what got in your way: a page that is wrong, outdated or missing something, or a tool that did not help. " +
    "Never include your user's data, credentials or request bodies.",
  inputSchema: {
    type: "object",
    properties: {
      category: { type: "string", enum: categories, description: "What kind of problem it was" },
      summary: str("What went wrong, in a sentence", 256),
      detail: str("More on how you ran into it", 4096),
      severity: { type: "string", enum: ["low", "medium", "high"], description: "How much it got in your way" },
      goal: str("What you were trying to do for your user", 1024),
      workaround: str("How you got around it, if you did", 2048),
      url: str("The page of this site the feedback is about, if any", 2048),
      toolName: str("The tool of this server the feedback is about, if any", 200)
    },
    required: ["category", "summary"]
  },
  run: async (args) => {
    const url = typeof args["url"] === "string" ? new URL(args["url"], root).href : undefined
    const subject = url !== undefined
      ? { kind: "documentation", url }
      : typeof args["toolName"] === "string"
      ? { kind: "mcp-tool", toolName: args["toolName"] }
      : { kind: "generic" }
    const feedback = Object.fromEntries(
      ["category", "severity", "goal", "summary", "detail", "workaround"].flatMap((key) => (args[key] === undefined ? [] : [[key, args[key]]]))
    )
    const stored = await send({ subject, feedback })
    return text(stored.result, { id: stored.id, result: stored.result })
  }
})

/** The tools over one visitor's view of the site at `root` (with `askQuestion` where the site has Ask, `sendFeedback` where feedback is taken). */
export const siteTools = (get: SiteGet, root: string, ask = false, send?: SendFeedback): ReadonlyArray<Tool> =>
  guarded([
    {
      name: "searchDocumentation",
      title: "Search the documentation",
      description: "Searches this documentation site and answers the pages that match, with their URLs and the passage that matched.",
      inputSchema: { type: "object", properties: { query: str("What to look for", 200) }, required: ["query"] },
      run: async (args) => {
        const query = required(args, "query")
        const answer = await get(`~search?q=${encodeURIComponent(query)}`, "application/json")
        if (answer.status !== 200) throw refused(answer.status, "search")
        // The site's search answers URLs from its root: an agent gets them whole.
        const items = (JSON.parse(answer.body) as { items: ReadonlyArray<SearchItem> }).items.map((item) => ({ ...item, url: new URL(item.url, root).href }))
        const lines = items.map((item) => `- [${item.title}](${item.url})${item.section === undefined || item.section === "" ? "" : ` (${item.section})`}: ${item.snippet}`)
        return text(lines.length === 0 ? `Nothing on this site matches "${query}".` : lines.join("\n"), { results: items })
      }
    },
    {
      name: "getPage",
      title: "Read a page",
      description: "Reads a page of this documentation site as markdown, by its URL (as searchDocumentation answers it) or its path on the site.",
      inputSchema: { type: "object", properties: { url: str("The page's URL, or its path on the site", 2048) }, required: ["url"] },
      run: async (args) => {
        const where = required(args, "url")
        const answer = await get(pagePath(root, where.split("#")[0]!.split("?")[0]!), "text/markdown")
        if (answer.status !== 200) throw refused(answer.status, `url ${where}`)
        return text(answer.body)
      }
    },
    ...(ask ? [askQuestion(get, root)] : []),
    ...(send === undefined ? [] : [sendFeedback(send, root)])
  ])

export const siteInstructions = (title: string, ask: boolean, feedback = false) =>
  `The documentation site "${title}". Find pages with searchDocumentation, then read them whole with getPage; cite the pages' URLs.` +
  (ask ? " askQuestion asks the site's own assistant, which answers from its pages." : "") +
  (feedback ? " When a page was wrong, outdated or missing what you needed, tell the site's editors with sendFeedback." : "")

/** Whether the site offers its MCP server: on unless its page actions are set without `mcp`. */
export const mcpOffered = (pageActions: { readonly items: ReadonlyArray<string> } | undefined): boolean =>
  pageActions === undefined || pageActions.items.includes("mcp")
