/**
 * `AtomHttpApi.Service` (effect/reactivity) with the same type and behaviour, built for a page's
 * first load: effect's builds the typed client of every endpoint of the API before the first
 * request (a noticeable part of the app's first second, for hundreds of endpoints of which a
 * screen calls a few; docs/web.md), and gives each mutation a serialization schema for server rendering, which
 * the app does not do. Here each endpoint's client is built on its first call
 * (`HttpApiClient.endpoint`), and atoms are plain. Query and mutation atoms, reactivity keys and
 * the runtime behave as effect's do (its source: effect/dist/reactivity/AtomHttpApi.js).
 */
import { Context, Duration, Effect, Layer, Schema } from "effect"
import { HttpClient, HttpClientError } from "effect/http"
import { type HttpApi, HttpApiClient, type HttpApiGroup } from "effect/http-api"
import { Atom, type AtomHttpApi, Reactivity } from "effect/reactivity"

type Options<ApiId extends string, Groups extends HttpApiGroup.Constraint> = {
  readonly api: HttpApi.HttpApi<ApiId, Groups>
  readonly httpClient: Layer.Layer<HttpApiGroup.ClientServices<Groups> | HttpClient.HttpClient>
  readonly baseUrl?: URL | string | undefined
}

type AnyFn = (request: unknown) => Effect.Effect<unknown, unknown>

/** What this module reads of a group: whether its endpoints sit on the client itself, and their names. */
interface GroupShape {
  readonly topLevel: boolean
  readonly endpoints: Record<string, unknown>
}

/** A client object with one lazily built method per endpoint, grouped as HttpApiClient.make groups them. */
const lazyClient = <ApiId extends string, Groups extends HttpApiGroup.Constraint>(options: Options<ApiId, Groups>) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<HttpClient.HttpClient>()
    const httpClient = yield* HttpClient.HttpClient
    const client: Record<string, unknown> = {}
    for (const [groupId, group] of Object.entries(options.api.groups as unknown as Record<string, GroupShape>)) {
      const target: Record<string, unknown> = group.topLevel ? client : (client[groupId] = {})
      for (const endpointId of Object.keys(group.endpoints)) {
        let built: AnyFn | undefined
        Object.defineProperty(target, endpointId, {
          enumerable: true,
          get: () => {
            built ??= Effect.runSyncWith(context)(
              HttpApiClient.endpoint(options.api as unknown as HttpApi.HttpApi<string, HttpApiGroup.Constraint>, { group: groupId as never, endpoint: endpointId as never, httpClient, baseUrl: options.baseUrl })
            ) as unknown as AnyFn
            return built
          }
        })
      }
    }
    return client
  })

/** Schema and transport failures are defects, as effect's AtomHttpApi makes them. */
const catchErrors = Effect.catch((e: unknown) => Schema.isSchemaError(e) || HttpClientError.isHttpClientError(e) ? Effect.die(e) : Effect.fail(e))

export const Service = <Self>() =>
<const Id extends string, ApiId extends string, Groups extends HttpApiGroup.Constraint>(id: Id, options: Options<ApiId, Groups>): AtomHttpApi.AtomHttpApiClient<Self, Id, Groups> => {
  const self = Context.Service<Self, Record<string, unknown>>()(id) as unknown as Record<string, unknown> & Context.Service<Self, Record<string, unknown>>
  const runtime = Atom.runtime(Layer.provide(Layer.effect(self, lazyClient(options)), options.httpClient))
  const groups = options.api.groups as unknown as Record<string, GroupShape>
  const methodOf = (client: Record<string, unknown>, group: string, endpoint: string): AnyFn =>
    ((groups[group]!.topLevel ? client : client[group]) as Record<string, AnyFn>)[endpoint]!
  const mutations = Atom.family((key: string) => {
    const [group = "", endpoint = "", responseMode = "decoded-only"] = key.split("\n")
    return runtime.fn(Effect.fnUntraced(function*(request: { readonly reactivityKeys?: Reactivity.KeysInput | undefined }) {
      const effect = catchErrors(methodOf(yield* self, group, endpoint)({ ...request, responseMode }))
      return yield* request.reactivityKeys ? Reactivity.mutation(effect, request.reactivityKeys) : effect
    }))
  })
  interface QueryKey {
    readonly group: string
    readonly endpoint: string
    readonly request: Record<string, unknown> & { readonly reactivityKeys?: Reactivity.KeysInput; readonly timeToLive?: Duration.Input }
  }
  // Keyed by structure (Atom.family compares keys with Equal, as effect's does for its key object).
  const queries = Atom.family((key: string) => {
    const { group, endpoint, request } = JSON.parse(key) as QueryKey
    let atom: Atom.Atom<unknown> = runtime.atom(self.use((client) => catchErrors(methodOf(client as Record<string, unknown>, group, endpoint)(request))))
    if (request.reactivityKeys) atom = runtime.factory.withReactivity(request.reactivityKeys)(atom)
    if (request.timeToLive !== undefined) {
      const ttl = Duration.fromInputUnsafe(request.timeToLive)
      atom = Duration.isFinite(ttl) ? Atom.setIdleTTL(atom, ttl) : Atom.keepAlive(atom)
    }
    return atom
  })
  return Object.assign(self, {
    runtime,
    mutation: (group: string, endpoint: string, mode?: { readonly responseMode?: string }) => mutations(`${group}\n${endpoint}\n${mode?.responseMode ?? "decoded-only"}`),
    query: (group: string, endpoint: string, request: QueryKey["request"]) => queries(JSON.stringify({ group, endpoint, request }))
  }) as unknown as AtomHttpApi.AtomHttpApiClient<Self, Id, Groups>
}
