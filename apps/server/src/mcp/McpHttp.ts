/**
 * What the MCP endpoints share: requests to this server's own routes made in process (the tools'
 * way of acting as their caller), and one JSON-RPC request answered by a fresh stateless server.
 */
import { Effect, Option, type Scope } from "effect"
import { HttpEffect, type HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { envelope } from "../ErrorEnvelope.ts"

/** A Web handler over `router`: a request takes the path any client's does, middleware included. */
export const dispatcher = (router: HttpRouter.HttpRouter) =>
  Effect.map(
    Effect.context<never>(),
    (context) => HttpEffect.toWebHandlerWith<never, HttpServerRequest.HttpServerRequest | Scope.Scope>(context)(router.asHttpEffect())
  )

/** The current request answered by `make()`'s server: stateless, JSON answers, no session. */
export const answerMcp = (make: () => Server) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const web = yield* Effect.option(HttpServerRequest.toWeb(request))
    if (Option.isNone(web)) return envelope(400, "The request's body could not be read")
    const answer = yield* Effect.promise(async () => {
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
      const server = make()
      await server.connect(transport)
      try {
        return await transport.handleRequest(web.value)
      } finally {
        await server.close()
      }
    })
    return HttpServerResponse.fromWeb(answer)
  })

/** GET and DELETE of a stateless MCP endpoint: there is no stream to resume and no session to end. */
export const statelessOnly = HttpServerResponse.setHeader(envelope(405, "This MCP server is stateless: send JSON-RPC requests with POST"), "allow", "POST")
