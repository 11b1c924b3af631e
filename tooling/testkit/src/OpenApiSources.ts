/**
 * OpenAPI documents and a loopback server of spec sources, for the tests of OpenAPI specs (the
 * specs package's use cases and the server's API): valid documents in 3.1 and Swagger 2.0,
 * invalid, unparsable, oversized and deeply nested ones, sources behind credentials, and a
 * source that never answers.
 */
import { Effect } from "effect"
import * as LocalServer from "./LocalServer.ts"

// pet.json names tag.json beside it: references resolve relative to the file that makes them.
export const petSchema = { type: "object", properties: { name: { type: "string" }, tag: { $ref: "tag.json" } }, required: ["name"] }
export const tagSchema = { type: "string", enum: ["cat", "dog"] }

export const doc31 = (title: string) => ({
  openapi: "3.1.0",
  info: { title, version: "1.0.0" },
  paths: {
    "/pets": {
      get: {
        operationId: "listPets",
        responses: { "200": { description: "The pets", content: { "application/json": { schema: { $ref: "schemas/pet.json" } } } } }
      }
    }
  }
})

export const swagger2 = `swagger: "2.0"
info:
  title: Legacy
  version: "1"
paths:
  /things:
    get:
      responses:
        "200":
          description: ok
`

/** A valid 3.1 document of 200 KB whose 99 aliases expand it past 16 MB: the database client's largest message. */
export const laughs = `openapi: 3.1.0
info:
  title: Laughs
  version: "1"
paths: {}
x-big: &big "${"ha".repeat(100_000)}"
x-copies:
${"  - *big\n".repeat(99)}`

/** A JSON document nested 100,000 levels deep. */
export const deepJson = `{"openapi":"3.1.0","info":{"title":"Deep","version":"1"},"paths":{},"x-deep":${"[".repeat(100_000)}${"]".repeat(100_000)}}`

/** A loopback server whose answers a test can change, and one that never answers. */
export const sources = Effect.gen(function*() {
  const state = { title: "Pets" }
  const server = yield* LocalServer.serve((req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" })
      res.end(typeof body === "string" ? body : JSON.stringify(body))
    }
    // Sources behind credentials: basic auth of user:s3cret-pass, or the query token tok-abc123.
    if (req.url?.startsWith("/private.json")) {
      return req.headers.authorization === `Basic ${Buffer.from("user:s3cret-pass").toString("base64")}` ? json(200, doc31("Private")) : json(401, "who are you")
    }
    if (req.url?.startsWith("/token.json")) {
      return new URL(req.url, "http://x").searchParams.get("token") === "tok-abc123" ? json(200, doc31("Token")) : json(403, "no token")
    }
    switch (req.url) {
      case "/openapi.json":
        return json(200, doc31(state.title))
      case "/schemas/pet.json":
        return json(200, petSchema)
      case "/schemas/tag.json":
        return json(200, tagSchema)
      case "/swagger.yaml":
        res.writeHead(200, { "content-type": "application/yaml" })
        return res.end(swagger2)
      case "/invalid.json":
        return json(200, { openapi: "3.1.0", info: { version: "1" }, paths: { "/x": "nope" } })
      case "/garbage":
        return json(200, "{ this is: not [ json or yaml")
      case "/broken":
        return json(500, { error: "boom" })
      case "/dangling.json":
        return json(200, { ...doc31("Dangling"), components: { schemas: { Gone: { $ref: "missing.json" } } } })
      case "/laughs.yaml":
        res.writeHead(200, { "content-type": "application/yaml" })
        return res.end(laughs)
      case "/deep.json":
        return json(200, deepJson)
      case "/slow":
        // Never answers: the fetch's time limit ends it.
        return
      default:
        return json(404, "not found")
    }
  })
  return { state, origin: server.origin }
})
