/**
 * `AtomHttpApi.Service` (effect/reactivity) with the same type and behaviour, built for a page's
 * first load: effect's builds the typed client of every endpoint of the API before the first
 * request, and the contract's modules build every endpoint as they load (a fifth of a cold load's
 * scripting, for hundreds of endpoints of which a screen calls a few; docs/web.md), and gives each
 * mutation a serialization schema for server rendering, which the app does not do. Here the
 * contract is a type, and each group a module loaded on the first call of one of its endpoints
 * (`groups`); each endpoint's client is built on its first call (`HttpApiClient.endpoint` over
 * an API of its group alone), and atoms are plain. A top-level group (the contract's `system`,
 * which the app never calls) is reached as `client.system.<endpoint>` too: whether a group is
 * top-level is known only once it is loaded. Query and mutation atoms, reactivity keys and
 * the runtime behave as effect's do (its source: effect/dist/reactivity/AtomHttpApi.js).
 */
import { Context, Duration, Effect, Layer, Schema } from "effect"
import { HttpClient, HttpClientError } from "effect/http"
import { HttpApi, HttpApiClient, type HttpApiGroup } from "effect/http-api"
import { Atom, type AtomHttpApi, Reactivity } from "effect/reactivity"

type Options<ApiId extends string, Groups extends HttpApiGroup.Constraint> = {
  /** The contract's type only: its groups are loaded by `groups` when first called. */
  readonly api?: HttpApi.HttpApi<ApiId, Groups> | undefined
  /** Each group of the contract by identifier, loaded (its module evaluated) on its first call. */
  readonly groups: Record<string, () => Promise<HttpApiGroup.Constraint>>
  readonly httpClient: Layer.Layer<HttpApiGroup.ClientServices<Groups> | HttpClient.HttpClient>
  readonly baseUrl?: URL | string | undefined
}

type AnyFn = (request: unknown) => Effect.Effect<unknown, unknown>

/**
 * A client object with one method per endpoint, grouped as HttpApiClient.make groups them; a
 * group's module is loaded on the first call of one of its endpoints, and each endpoint's client
 * is built on its first call, over an API of that group alone.
 */
const lazyClient = <ApiId extends string, Groups extends HttpApiGroup.Constraint>(options: Options<ApiId, Groups>) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<HttpClient.HttpClient>()
    const httpClient = yield* HttpClient.HttpClient
    const apis = new Map<string, Promise<HttpApi.HttpApi<string, HttpApiGroup.Constraint>>>()
    const apiOf = (groupId: string) => {
      let api = apis.get(groupId)
      if (api === undefined) {
        const load = options.groups[groupId]
        if (load === undefined) return Promise.reject(new Error(`the API has no group ${groupId}`))
        api = load().then((group) => HttpApi.make("quire").add(group as never) as unknown as HttpApi.HttpApi<string, HttpApiGroup.Constraint>)
        apis.set(groupId, api)
      }
      return api
    }
    const built = new Map<string, AnyFn>()
    const call = (groupId: string, endpointId: string, request: unknown) =>
      Effect.flatMap(Effect.promise(() => apiOf(groupId)), (api) => {
        const key = `${groupId}\n${endpointId}`
        let method = built.get(key)
        if (method === undefined) {
          method = Effect.runSyncWith(context)(
            HttpApiClient.endpoint(api, { group: groupId as never, endpoint: endpointId as never, httpClient, baseUrl: options.baseUrl })
          ) as unknown as AnyFn
          built.set(key, method)
        }
        return method(request)
      })
    const client: Record<string, unknown> = {}
    for (const groupId of Object.keys(options.groups)) {
      const methods: Record<string, AnyFn> = {}
      client[groupId] = new Proxy(methods, {
        get: (target, endpointId) => typeof endpointId !== "string" ? undefined : (target[endpointId] ??= (request: unknown) => call(groupId, endpointId, request))
      })
    }
    return client
  })

const methodOf = (client: Record<string, unknown>, group: string, endpoint: string): AnyFn =>
  (client[group] as Record<string, AnyFn>)[endpoint]!

/** Schema and transport failures are defects, as effect's AtomHttpApi makes them. */
const catchErrors = Effect.catch((e: unknown) => Schema.isSchemaError(e) || HttpClientError.isHttpClientError(e) ? Effect.die(e) : Effect.fail(e))

export const Service = <Self>() =>
<const Id extends string, ApiId extends string, Groups extends HttpApiGroup.Constraint>(id: Id, options: Options<ApiId, Groups>): AtomHttpApi.AtomHttpApiClient<Self, Id, Groups> => {
  const self = Context.Service<Self, Record<string, unknown>>()(id) as unknown as Record<string, unknown> & Context.Service<Self, Record<string, unknown>>
  const runtime = Atom.runtime(Layer.provide(Layer.effect(self, lazyClient(options)), options.httpClient))
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
