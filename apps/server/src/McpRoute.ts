/**
 * `/mcp`: a Model Context Protocol server for authors (streamable HTTP, stateless, JSON answers),
 * signed in with an API token. Each tool is a request to this server's own `/v1` API, dispatched in
 * process with the caller's `Authorization` header, so a tool can never do more than the token's
 * owner can through the API: the same roles, merge rules, validation and error messages apply.
 */
import { Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Users } from "@quire/identity"
import { envelope } from "./ErrorEnvelope.ts"
import { type ApiCall, authorTools } from "./mcp/AuthorTools.ts"
import { answerMcp, dispatcher, statelessOnly } from "./mcp/McpHttp.ts"
import { toolServer } from "./mcp/Tools.ts"

export const mcpPath = "/mcp"

/** The server's name and version as MCP clients see them on `initialize`. */
const serverInfo = { name: "quire", version: "1.0.0" }

const instructions =
  "Quire's documentation workspace. Spaces hold pages; edits are made in change requests, which are reviewed and merged. " +
  "Read with listSpaces, listPages, getPage and search; write by opening a change request (createChangeRequest), writing pages " +
  "into it (writePage), commenting, requesting a review and, where your role and the space's merge rules allow, merging."

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const users = yield* Users
  // The API as a Web handler over this same router: the tools' requests take the path any client's do.
  const dispatch = yield* dispatcher(router)

  const handle = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const authorization = request.headers.authorization?.trim() ?? ""
    const token = /^Bearer\s+(.+)$/i.exec(authorization)?.[1]
    const caller = token === undefined ? Option.none() : yield* users.caller(token)
    if (Option.isNone(caller)) {
      return HttpServerResponse.setHeader(
        envelope(401, "The MCP server needs an API token: Authorization: Bearer <token> (create one in Settings or with `quire tokens create`)"),
        "www-authenticate",
        "Bearer"
      )
    }
    const host = request.headers.host ?? "localhost"
    const call: ApiCall = async (method, path, body) => {
      const response = await dispatch(new Request(`http://${host}/v1${path}`, {
        method,
        headers: {
          authorization,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(request.headers["x-forwarded-proto"] === undefined ? {} : { "x-forwarded-proto": request.headers["x-forwarded-proto"] })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      }))
      const text = await response.text()
      return { status: response.status, body: text === "" ? undefined : JSON.parse(text) as unknown }
    }
    return yield* answerMcp(() => toolServer(serverInfo, instructions, authorTools(call)))
  })
  yield* router.add("POST", mcpPath, handle)
  yield* router.add("GET", mcpPath, statelessOnly)
  yield* router.add("DELETE", mcpPath, statelessOnly)
}))
