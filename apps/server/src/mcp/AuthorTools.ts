/**
 * The author MCP server's tools. Each one is a request (or a few) to Quire's `/v1` API made as the
 * caller; an API refusal comes back as the tool's error, in the API's own words.
 */
import { arg, guarded, id, required, str, text, type Tool, ToolError } from "./Tools.ts"

/** A request to the `/v1` API as the MCP client's caller: `path` starts after `/v1`. */
export type ApiCall = (method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", path: string, body?: unknown) => Promise<{
  readonly status: number
  readonly body: unknown
}>

const segment = (value: string) => encodeURIComponent(value)

/** The API's answer, or a ToolError with the API's message and status. */
const ok = async (call: ApiCall, method: Parameters<ApiCall>[0], path: string, body?: unknown): Promise<any> => {
  const answer = await call(method, path, body)
  if (answer.status >= 400) {
    const error = (answer.body as { error?: { message?: string; field?: string } } | undefined)?.error
    const field = error?.field === undefined ? "" : ` (${error.field})`
    throw new ToolError(`${answer.status}: ${error?.message ?? "the request was refused"}${field}`)
  }
  return answer.body
}

interface PageNode { readonly id: string; readonly title: string; readonly path?: string; readonly type?: string; readonly pages?: ReadonlyArray<PageNode> }

/** The page tree as indented lines: id, path and title. */
const pageLines = (pages: ReadonlyArray<PageNode>, depth = 0): Array<string> =>
  pages.flatMap((page) => [
    `${"  ".repeat(depth)}- ${page.title} (id ${page.id}${page.path === undefined ? "" : `, path ${page.path}`}${page.type === undefined || page.type === "document" ? "" : `, ${page.type}`})`,
    ...pageLines(page.pages ?? [], depth + 1)
  ])

/** Where a space's or a change request's content is read. */
const contentOf = (spaceId: string, changeRequestId: string | undefined) =>
  `/spaces/${segment(spaceId)}${changeRequestId === undefined ? "" : `/change-requests/${segment(changeRequestId)}`}/content`

const changeRequestOf = (args: Record<string, unknown>) =>
  `/spaces/${segment(required(args, "spaceId"))}/change-requests/${segment(required(args, "changeRequestId"))}`

const spaceAndChange = {
  spaceId: { ...id, description: "The space's id" },
  changeRequestId: { ...id, description: "The change request's id or its number in the space, as createChangeRequest answers" }
}

/** The tools that read: spaces, pages, search. */
const readingTools = (call: ApiCall): Array<Tool> => [
  {
    name: "listSpaces",
    title: "List spaces",
    description: "Lists the spaces you can read, in every organization you belong to (or in one), with their ids.",
    inputSchema: { type: "object", properties: { organizationId: { ...id, description: "Only this organization's spaces" } } },
    run: async (args) => {
      const only = arg(args, "organizationId", true)
      const orgs = only === undefined
        ? ((await ok(call, "GET", "/orgs?limit=100")).items as Array<{ id: string; title: string }>)
        : [await ok(call, "GET", `/orgs/${segment(only)}`) as { id: string; title: string }]
      const lines: Array<string> = []
      const spaces: Array<Record<string, unknown>> = []
      for (const org of orgs) {
        const list = (await ok(call, "GET", `/orgs/${segment(org.id)}/spaces?limit=100`)).items as Array<{ id: string; title: string; visibility?: string }>
        lines.push(`${org.title} (organization ${org.id}):`, ...list.map((space) => `- ${space.title} (id ${space.id})`))
        spaces.push(...list.map((space) => ({ id: space.id, title: space.title, organization: org.id })))
      }
      return text(lines.length === 0 ? "You belong to no organization." : lines.join("\n"), { spaces })
    }
  },
  {
    name: "listPages",
    title: "List pages",
    description: "Lists a space's pages as a tree (ids, paths, titles): as published, or as a change request has them.",
    inputSchema: { type: "object", properties: { spaceId: spaceAndChange.spaceId, changeRequestId: spaceAndChange.changeRequestId }, required: ["spaceId"] },
    run: async (args) => {
      const answer = await ok(call, "GET", `${contentOf(required(args, "spaceId"), arg(args, "changeRequestId", true))}/pages`)
      const pages = answer.pages as ReadonlyArray<PageNode>
      return text(pages.length === 0 ? "The space has no pages." : pageLines(pages).join("\n"), { pages })
    }
  },
  {
    name: "getPage",
    title: "Read a page",
    description: "Reads a page as GitBook markdown, by its id or its path, from the space or from a change request.",
    inputSchema: {
      type: "object",
      properties: { ...spaceAndChange, pageId: { ...id, description: "The page's id" }, path: str("The page's path, as listPages shows it") },
      required: ["spaceId"]
    },
    run: async (args) => {
      const content = contentOf(required(args, "spaceId"), arg(args, "changeRequestId", true))
      const pageId = arg(args, "pageId", true)
      const path = arg(args, "path", true)
      if ((pageId === undefined) === (path === undefined)) throw new ToolError("pageId or path: give one of them")
      const page = await ok(
        call,
        "GET",
        pageId !== undefined ? `${content}/page/${segment(pageId)}?format=markdown` : `${content}/path/${path!.split("/").map(segment).join("/")}?format=markdown`
      )
      return text(`# ${page.title}\n\n${page.markdown ?? ""}`, { id: page.id, title: page.title, path: page.path, markdown: page.markdown ?? "" })
    }
  },
  {
    name: "search",
    title: "Search",
    description: "Full-text search of a space's pages, or of every space of an organization; answers pages with matching sections.",
    inputSchema: {
      type: "object",
      properties: { query: str("What to look for"), spaceId: { ...id, description: "Search this space" }, organizationId: { ...id, description: "Search this organization's spaces" } },
      required: ["query"]
    },
    run: async (args) => {
      const query = encodeURIComponent(required(args, "query"))
      const spaceId = arg(args, "spaceId", true)
      const organizationId = arg(args, "organizationId", true)
      if ((spaceId === undefined) === (organizationId === undefined)) throw new ToolError("spaceId or organizationId: give one of them")
      const found = spaceId !== undefined
        ? { spaces: [{ id: spaceId, title: "", pages: (await ok(call, "GET", `/spaces/${segment(spaceId)}/search?query=${query}&limit=20`)).items }] }
        : { spaces: (await ok(call, "GET", `/orgs/${segment(organizationId!)}/search?query=${query}&limit=20`)).items }
      const lines = (found.spaces as Array<{ id: string; title: string; pages: Array<{ id: string; title: string; path: string; sections: Array<{ title: string; body?: string }> }> }>)
        .flatMap((space) =>
          space.pages.map((page) =>
            `- ${page.title} (space ${space.id}, page ${page.id}, path ${page.path})${page.sections.slice(0, 2).map((section) => `\n    ${section.title}: ${section.body ?? ""}`).join("")}`
          )
        )
      return text(lines.length === 0 ? "Nothing matches." : lines.join("\n"), found)
    }
  },
]

/** The tools that write, each in a change request: open, write, comment, ask for a review, merge. */
const writingTools = (call: ApiCall): Array<Tool> => [
  {
    name: "createChangeRequest",
    title: "Open a change request",
    description: "Opens a change request on a space, where pages are written before a review and a merge. Answers its id.",
    inputSchema: { type: "object", properties: { spaceId: spaceAndChange.spaceId, subject: str("What the change is about", 500) }, required: ["spaceId", "subject"] },
    run: async (args) => {
      const change = await ok(call, "POST", `/spaces/${segment(required(args, "spaceId"))}/change-requests`, { subject: required(args, "subject") })
      return text(`Change request ${change.number} opened (id ${change.id}): ${change.urls?.app ?? ""}`, { id: change.id, number: change.number, status: change.status })
    }
  },
  {
    name: "writePage",
    title: "Write a page",
    description:
      "Writes a page's GitBook markdown in a change request: replaces the page given by pageId, or adds a new page titled `title` (under parentPageId, if given).",
    inputSchema: {
      type: "object",
      properties: {
        ...spaceAndChange,
        markdown: { type: "string", maxLength: 8_388_608, description: "The page's whole content, GitBook markdown" },
        pageId: { ...id, description: "The page to replace" },
        title: str("The new page's title (or a new title for pageId)", 256),
        parentPageId: { ...id, description: "The new page's parent page" }
      },
      required: ["spaceId", "changeRequestId", "markdown"]
    },
    run: async (args) => {
      const markdown = args["markdown"]
      if (typeof markdown !== "string") throw new ToolError("markdown: a string is required")
      const pageId = arg(args, "pageId", true)
      const title = arg(args, "title", true)
      const parent = arg(args, "parentPageId", true)
      if (pageId === undefined && title === undefined) throw new ToolError("title: a new page needs a title (or give pageId to replace a page)")
      const change = pageId !== undefined
        ? { operation: "update_page", page: pageId, ...(title === undefined ? {} : { title }), document: { markdown } }
        : { operation: "insert_page", ref: "new", title, document: { markdown }, ...(parent === undefined ? {} : { into: parent }) }
      const answer = await ok(call, "POST", `${changeRequestOf(args)}/content`, { changes: [change] })
      return text(`Written in change request ${answer.number}.`, { changeRequest: answer.id, revision: answer.revision })
    }
  },
  {
    name: "comment",
    title: "Comment on a change request",
    description: "Posts a comment (markdown) on a change request, on one of its pages if pageId is given.",
    inputSchema: {
      type: "object",
      properties: { ...spaceAndChange, markdown: str("The comment", 20_000), pageId: { ...id, description: "The page the comment is about" } },
      required: ["spaceId", "changeRequestId", "markdown"]
    },
    run: async (args) => {
      const page = arg(args, "pageId", true)
      const comment = await ok(call, "POST", `${changeRequestOf(args)}/comments`, { body: { markdown: required(args, "markdown") }, ...(page === undefined ? {} : { page }) })
      return text(`Comment ${comment.id} posted.`, { id: comment.id })
    }
  },
  {
    name: "requestReview",
    title: "Request a review",
    description: "Asks members of the organization (by user id) to review a change request.",
    inputSchema: {
      type: "object",
      properties: { ...spaceAndChange, reviewers: { type: "array", items: id, minItems: 1, maxItems: 50, description: "The reviewers' user ids" } },
      required: ["spaceId", "changeRequestId", "reviewers"]
    },
    run: async (args) => {
      const reviewers = args["reviewers"]
      if (!Array.isArray(reviewers) || reviewers.length === 0 || !reviewers.every((value) => typeof value === "string")) {
        throw new ToolError("reviewers: a list of user ids is required")
      }
      const answer = await ok(call, "POST", `${changeRequestOf(args)}/requested-reviewers`, { users: reviewers })
      return text(`Review requested from ${(answer.users as Array<unknown>).length} reviewer(s).`, answer)
    }
  },
  {
    name: "mergeChangeRequest",
    title: "Merge a change request",
    description: "Merges a change request into its space, where your role and the space's merge rules allow it.",
    inputSchema: { type: "object", properties: spaceAndChange, required: ["spaceId", "changeRequestId"] },
    run: async (args) => {
      const answer = await ok(call, "POST", `${changeRequestOf(args)}/merge`)
      return text(`Merged: the space is at revision ${answer.revision}.`, answer)
    }
  }
]

/** The tools, over one caller's API. */
export const authorTools = (call: ApiCall): ReadonlyArray<Tool> => guarded([...readingTools(call), ...writingTools(call)])
