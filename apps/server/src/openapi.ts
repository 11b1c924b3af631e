/** Prints the OpenAPI document of the API (the same one the server serves at /openapi.json). */
import { OpenApi } from "effect/http-api"
import { Api } from "@quire/api"

process.stdout.write(`${JSON.stringify(OpenApi.fromApi(Api), null, 2)}\n`)
