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

/** The path below `root` of a page's URL or path, or a ToolError when it is another site's. */
const pagePath = (root: string, where: string): string => {
  const url = new URL(where, root)
  if (!url.href.startsWith(root) && `${url.href}/` !== root) throw new ToolError(`url: ${where} is not a page of this site (${root})`)
  const path = decodeURIComponent(url.pathname.slice(new URL(root).pathname.length)).replace(/\/+$/, "")
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

/** The tools over one visitor's view of the site at `root` (with `askQuestion` where the site has Ask). */
export const siteTools = (get: SiteGet, root: string, ask = false): ReadonlyArray<Tool> =>
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
    ...(ask ? [askQuestion(get, root)] : [])
  ])

export const siteInstructions = (title: string, ask: boolean) =>
  `The documentation site "${title}". Find pages with searchDocumentation, then read them whole with getPage; cite the pages' URLs.` +
  (ask ? " askQuestion asks the site's own assistant, which answers from its pages." : "")

/** Whether the site offers its MCP server: on unless its page actions are set without `mcp`. */
export const mcpOffered = (pageActions: { readonly items: ReadonlyArray<string> } | undefined): boolean =>
  pageActions === undefined || pageActions.items.includes("mcp")
