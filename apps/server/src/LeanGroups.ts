/**
 * API groups whose handlers run in the request's own context.
 *
 * `HttpApiBuilder.group` keeps every service its layer was built with (the whole application, about
 * ninety) and gives them to each request of the group with `Effect.provideContext`, which copies
 * the request's context into a new map and sets each of those services in it again: per request,
 * work and garbage in proportion to the application's size. Quire's handlers take the services
 * they use when their group is built (`yield*` in the group's builder) and need nothing of that
 * context while they answer, but the middlewares the endpoints declare (`Authentication`), which
 * the builder reads from it as it makes the routes.
 *
 * `lean` rebuilds a group's routes with a context that holds those middlewares only, and that
 * reads as empty to `Context.merge`, so that providing it leaves the request's context as it is
 * (a context whose map is empty merges as the other one: Effect's `Context.merge`, which
 * patches/effect@4.1.0.patch makes test the empty side first, so that the request's context is not
 * flattened into a copy either). The services a
 * request needs then come from the request's context, as everywhere else in the server. A test
 * (LeanGroups.test.ts) fails if Effect's context stops merging so, or a handler needs a service at
 * request time that only its group's layer had.
 */
import { Context, Effect, Layer } from "effect"
import { type HttpApi, HttpApiBuilder, type HttpApiEndpoint, type HttpApiGroup } from "effect/http-api"
import type { HttpRouter } from "effect/http"

/** An API, as far as its routes are made from it. */
type AnyApi = Pick<HttpApi.Top, "annotations"> & { readonly groups: object }

/** A handler as `HttpApiBuilder.group` keeps it. */
interface HandlerRuntime {
  readonly endpoint: HttpApiEndpoint.Top
  readonly handler: unknown
  readonly isRaw: boolean
  readonly uninterruptible: boolean
}

/** What `HttpApiBuilder.group` provides under its group's key (its routes and their handlers). */
interface GroupService {
  readonly routes: Array<HttpRouter.Route<any, any>>
  readonly handlers: Map<string, HandlerRuntime>
}

/**
 * The builder's own maker of a route from a handler and the context its middlewares come from
 * (exported by `effect/http-api`, not declared in its types).
 */
const handlerToRoute = (HttpApiBuilder as unknown as {
  readonly handlerToRoute?: (api: AnyApi, group: HttpApiGroup.Top, handler: HandlerRuntime, context: Context.Context<never>) => HttpRouter.Route<any, any>
}).handlerToRoute
if (typeof handlerToRoute !== "function") throw new Error("effect/http-api no longer exports HttpApiBuilder.handlerToRoute: LeanGroups.ts needs another way")

/**
 * `services` (the endpoints' middlewares) in a context that lookups find and `Context.merge` takes
 * for empty. Its map is kept aside as the flattened form Effect's context reads for merging.
 */
export const invisible = (services: ReadonlyMap<string, unknown>): Context.Context<never> => {
  const context = Context.makeUnsafe<never>(new Map(services))
  Reflect.set(context, "_flat", new Map())
  return context
}

/** `groupLayers` (of `HttpApiBuilder.group(api, ...)`, merged) whose routes give the request no services of their own. */
export const lean = (api: AnyApi) => <A, E, R>(groupLayers: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> =>
  Layer.effectContext(Effect.gen(function*() {
    const groups = Object.values(api.groups) as ReadonlyArray<HttpApiGroup.Top>
    const built = yield* Layer.build(groupLayers)
    const context = yield* Effect.context<R>()
    const entries = Array.from(built.mapUnsafe)
    const rebuilt = new Map<string, unknown>()
    for (const [key, value] of entries) {
      const definition = groups.find((candidate) => candidate.key === key)
      if (definition === undefined) {
        rebuilt.set(key, value)
        continue
      }
      const service = value as GroupService
      const middlewares = new Map<string, unknown>()
      for (const { endpoint } of service.handlers.values()) {
        for (const middleware of endpoint.middlewares) middlewares.set(middleware.key, Context.getUnsafe(context, middleware))
      }
      const requestContext = invisible(middlewares)
      const routes = Array.from(service.handlers.values(), (handler) => handlerToRoute(api, definition, handler, requestContext))
      rebuilt.set(key, { routes, handlers: service.handlers } satisfies GroupService)
    }
    return Context.makeUnsafe<A>(rebuilt)
  }))
