/**
 * A published site's MCP server, at GitBook's path: `<site>/~gitbook/mcp` (under `/~sites/<id>/`
 * or on the site's own hostname), streamable HTTP, stateless. It signs nobody in: the MCP
 * request's cookies and query (a share link's key, a visitor token) are the visitor's, and every
 * tool reads the site with them, so an agent sees what that visitor sees. A site whose page actions
 * leave out `mcp` offers none (404).
 */
import { Cause, Context, Effect, Exit, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { SignInSessions } from "@quire/identity"
import { AgentFeedbackInput, type PublishedSite, PublishedSites, SiteChanges, SiteInsights } from "@quire/sites"
import { describeIssue, envelope, issueField } from "./ErrorEnvelope.ts"
import { FastPages } from "./FastPages.ts"
import { answerMcp, dispatcher } from "./mcp/McpHttp.ts"
import { mcpOffered, type SendFeedback, type SiteGet, siteInstructions, siteTools } from "./mcp/SiteTools.ts"
import { toolServer, ToolError } from "./mcp/Tools.ts"
import { hostOf, sitesPrefix } from "./PublishedSiteRoutes.ts"
import { PublicUrl } from "./PublicUrl.ts"
import { DispatchedVisitor, siteLimits, siteVisitorOf, TrustProxy } from "./RateLimits.ts"
import { insightsSuffix, serveInsights } from "./SiteInsightsRoute.ts"

const mcpSuffix = "~gitbook/mcp"

const decodeFeedback = Schema.decodeUnknownExit(AgentFeedbackInput)

const noServer = () => envelope(404, "This site offers no MCP server")

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const published = yield* PublishedSites
  const publicUrl = yield* PublicUrl
  const dispatch = yield* dispatcher(router)
  const insights = yield* SiteInsights
  const sessions = yield* SignInSessions
  const changes = yield* SiteChanges
  const fastPages = yield* FastPages
  const limits = yield* siteLimits
  const trustProxy = yield* Effect.orDie(TrustProxy)

  /** The MCP request answered for the site found, whose pages are at `root` (reached in process at `inner`, with `host`). */
  const serve = (found: Option.Option<PublishedSite>, root: string, inner: string, host: string) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (Option.isNone(found) || !mcpOffered(found.value.customization.pageActions)) return noServer()
      const queryAt = request.url.indexOf("?")
      const visitorQuery = queryAt === -1 ? "" : request.url.slice(queryAt + 1)
      // The site's reads are made for this agent: its questions spend its budget (RateLimits), not the server's.
      const visitor = yield* siteVisitorOf(request, trustProxy)
      const forVisitor = Context.make(DispatchedVisitor, visitor)
      const get: SiteGet = async (relative, accept) => {
        const joined = visitorQuery === "" ? relative : `${relative}${relative.includes("?") ? "&" : "?"}${visitorQuery}`
        const response = await dispatch(new Request(`${inner}${joined}`, {
          headers: { host, accept, ...(request.headers.cookie === undefined ? {} : { cookie: request.headers.cookie }) },
          redirect: "manual"
        }), forVisitor as Context.Context<never>)
        return { status: response.status, body: await response.text() }
      }
      // The visitor must be admitted to the site at all: the answer the site gives a page, not a server.
      const admitted = yield* Effect.promise(() => get("~search?q=", "application/json"))
      if (admitted.status === 404) return noServer()
      if (admitted.status !== 200) {
        return envelope(admitted.status === 401 || admitted.status === 403 ? admitted.status : 403, "This site's content is not open to this visitor: bring the site's share link or visitor token")
      }
      const title = found.value.site.title
      const ask = found.value.customization.ai?.mode === "assistant"
      // Agents' feedback is kept on every site (GitBook's `sendFeedback`): the site's editors read it on its insights.
      const site = { organizationId: found.value.site.organizationId, siteId: found.value.site.id, url: root }
      const agent = request.headers["user-agent"]?.slice(0, 512)
      // The request's services (its clock among them) for the tool, which the MCP server runs outside any fiber.
      const services = yield* Effect.context<never>()
      const send: SendFeedback = (input) => {
        const decoded = decodeFeedback(agent === undefined ? input : { ...(input as object), reportedBy: { userAgent: agent } })
        if (Exit.isFailure(decoded)) {
          const squashed = Cause.squash(decoded.cause)
          const message = squashed instanceof Error ? squashed.message : String(squashed)
          const field = (issueField(message) ?? "feedback").replace(/^(feedback|subject)\./, "")
          return Promise.reject(new ToolError(`${field}: ${describeIssue(message)}`))
        }
        return Effect.runPromiseWith(services)(Effect.gen(function*() {
          const refusal = yield* limits.spend("feedback", site.siteId, visitor)
          if (refusal !== undefined) return yield* Effect.fail(new ToolError(refusal.message))
          return yield* insights.agentFeedbackFromSite(site, decoded.value)
        }))
      }
      return yield* answerMcp(() => toolServer({ name: title, version: "1.0.0" }, siteInstructions(title, ask, true), siteTools(get, root, ask, send)))
    })

  // Under `/~sites/<id>/`: the one POST route of a published site (its MCP server and its insights).
  yield* router.add("POST", `${sitesPrefix}*`, Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const path = request.url.split("?")[0] ?? ""
    const match = /^([^/]{1,100})\/(.*)$/.exec(path.slice(sitesPrefix.length))
    if (match !== null && match[2] === insightsSuffix) {
      let id: string
      try {
        id = decodeURIComponent(match[1]!)
      } catch {
        return envelope(404, "Not found")
      }
      const stamp = changes.stamp()
      return yield* serveInsights(yield* published.byId(id), `${publicUrl.base}${sitesPrefix}${match[1]}/`, () => changes.stamp() === stamp).pipe(
        Effect.provideService(PublishedSites, published),
        Effect.provideService(SiteInsights, insights),
        Effect.provideService(SignInSessions, sessions),
        Effect.provideService(FastPages, fastPages)
      )
    }
    if (match === null || match[2] !== mcpSuffix) return envelope(404, "Not found")
    let siteId: string
    try {
      siteId = decodeURIComponent(match[1]!)
    } catch {
      return noServer()
    }
    const host = request.headers.host ?? new URL(publicUrl.base).host
    const inner = `http://${host}${sitesPrefix}${match[1]}/`
    return yield* serve(yield* published.byId(siteId), `${publicUrl.base}${sitesPrefix}${match[1]}/`, inner, host)
  }))
  // On a site's own hostname (published sites answer only GET there; a POST comes here).
  yield* router.add("POST", `/${mcpSuffix}`, Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const host = hostOf(request)
    if (host === undefined) return noServer()
    const proto = request.headers["x-forwarded-proto"]?.split(",")[0]?.trim() === "https" ? "https" : "http"
    return yield* serve(yield* published.byHostname(host), `${proto}://${host}/`, `http://${request.headers.host}/`, request.headers.host!)
  }))
}))
