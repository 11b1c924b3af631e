/**
 * Use cases on site redirects: members of the site's organization read them, admins write them
 * (as the site's other settings). Destinations are checked against the site's structure and the
 * pages its spaces show; a `path` destination is stored as the page it names.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Actor, Errors, Ids, Pagination, Transactor } from "@quire/kernel"
import {
  matchRedirect,
  type RedirectDestination,
  type RedirectInputDestination,
  type RedirectOrder,
  RedirectTaken,
  type SiteRedirect
} from "./domain/Redirect.ts"
import * as RedirectDestinations from "./RedirectDestinations.ts"
import { redirectKeyShape, RedirectsRepo } from "./RedirectsRepo.ts"
import * as SiteGuard from "./SiteGuard.ts"

type Denied = Errors.NotFound | Errors.Forbidden
type Failure = Denied | Errors.InvalidInput | Errors.Conflict

export interface RedirectListRequest extends Pagination.PageRequest {
  readonly draft?: boolean | undefined
  readonly search?: string | undefined
  readonly orderBy?: RedirectOrder | undefined
}

export interface RedirectInput {
  readonly source: string
  readonly destination: RedirectInputDestination
  readonly captureWildcard?: boolean | undefined
  readonly draft?: boolean | undefined
  readonly permanent?: boolean | undefined
}

export interface RedirectUpdate {
  readonly source?: string | undefined
  readonly destination?: RedirectDestination | undefined
  readonly captureWildcard?: boolean | undefined
  readonly draft?: boolean | undefined
  readonly permanent?: boolean | undefined
}

/** One operation of a bulk upsert (GitBook's two item shapes). */
export type BulkItem =
  | { readonly source: string; readonly intent: "publish" }
  | {
    readonly source: string
    readonly intent?: "live" | "draft" | undefined
    readonly destination: RedirectInputDestination | null
    readonly captureWildcard?: boolean | undefined
    readonly permanent?: boolean | undefined
  }

export type BulkResult =
  | { readonly status: "created" | "updated" | "published"; readonly source: string; readonly draft: boolean; readonly id: string }
  | { readonly status: "deleted"; readonly source: string; readonly draft: boolean }
  | { readonly status: "error"; readonly source: string; readonly draft: boolean; readonly error: string }

export interface SiteRedirectsShape {
  /** The site's live (or draft) redirects, newest first unless ordered otherwise. */
  readonly list: (organizationId: string, siteId: string, request: RedirectListRequest) => Effect.Effect<Pagination.Page<SiteRedirect>, Denied | Errors.InvalidInput, Actor.Actor>
  readonly get: (organizationId: string, siteId: string, redirectId: string) => Effect.Effect<SiteRedirect, Denied, Actor.Actor>
  /** The live redirect a path of the site answers to (exact, else the longest wildcard), with the rest the wildcard matched. */
  readonly bySource: (organizationId: string, siteId: string, source: string) => Effect.Effect<{ readonly redirect: SiteRedirect; readonly rest: string }, Denied, Actor.Actor>
  readonly create: (organizationId: string, siteId: string, input: RedirectInput) => Effect.Effect<SiteRedirect, Failure, Actor.Actor>
  readonly update: (organizationId: string, siteId: string, redirectId: string, update: RedirectUpdate) => Effect.Effect<SiteRedirect, Failure, Actor.Actor>
  /** Whether one was deleted (nothing happens when it does not exist). */
  readonly remove: (organizationId: string, siteId: string, redirectId: string) => Effect.Effect<boolean, Errors.Forbidden, Actor.Actor>
  /** Each item on its own (its failure is its result), all in one transaction. */
  readonly bulkUpsert: (organizationId: string, siteId: string, items: ReadonlyArray<BulkItem>) => Effect.Effect<ReadonlyArray<BulkResult>, Denied, Actor.Actor>
}

const invalid = (field: string, reason: string) => new Errors.InvalidInput({ field, reason })

const taken = (e: RedirectTaken) =>
  new Errors.Conflict({ reason: `The site already has a ${e.draft ? "draft" : "live"} redirect from ${e.source}` })

export class SiteRedirects extends Context.Service<SiteRedirects, SiteRedirectsShape>()("@quire/sites/SiteRedirects") {
  static readonly layer = Layer.effect(
    SiteRedirects,
    Effect.gen(function*() {
      const guard = yield* SiteGuard.make
      const repo = yield* RedirectsRepo
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const checked = yield* RedirectDestinations.checker

      const redirectOf = Effect.fnUntraced(function*(siteId: string, redirectId: string) {
        const found = yield* repo.find(redirectId)
        if (Option.isNone(found) || found.value.siteId !== siteId) return yield* new Errors.NotFound({ resource: "SiteRedirect", id: redirectId })
        return found.value
      })

      const insert = Effect.fnUntraced(function*(siteId: string, input: RedirectInput) {
        const redirect: SiteRedirect = {
          id: yield* ids.make,
          siteId,
          source: input.source,
          draft: input.draft ?? false,
          captureWildcard: input.captureWildcard ?? false,
          permanent: input.permanent ?? false,
          destination: yield* checked(siteId, input.destination),
          createdAt: yield* now,
          updatedAt: null
        }
        yield* Effect.mapError(repo.insert(redirect), taken)
        return redirect
      })

      const patch = Effect.fnUntraced(function*(redirect: SiteRedirect, update: RedirectUpdate) {
        const destination = update.destination === undefined ? undefined : yield* checked(redirect.siteId, update.destination)
        const updated = yield* Effect.mapError(
          repo.update(redirect.id, {
            ...(update.source === undefined ? {} : { source: update.source }),
            ...(update.draft === undefined ? {} : { draft: update.draft }),
            ...(update.captureWildcard === undefined ? {} : { captureWildcard: update.captureWildcard }),
            ...(update.permanent === undefined ? {} : { permanent: update.permanent }),
            ...(destination === undefined ? {} : { destination }),
            updatedAt: yield* now
          }),
          taken
        )
        if (Option.isNone(updated)) return yield* new Errors.NotFound({ resource: "SiteRedirect", id: redirect.id })
        return updated.value
      })

      /** One bulk item, inside the bulk's transaction; a failure is that item's result. */
      const bulkItem = (siteId: string, item: BulkItem): Effect.Effect<BulkResult> => {
        const draft = item.intent === "draft"
        const work: Effect.Effect<BulkResult, Errors.InvalidInput | Errors.Conflict | Errors.NotFound> = Effect.gen(function*() {
          if (item.intent === "publish") {
            const pending = yield* repo.findBySource(siteId, item.source, true)
            if (Option.isNone(pending)) return yield* invalid("source", "has no draft redirect to publish")
            const live = yield* repo.findBySource(siteId, item.source, false)
            const settings = { captureWildcard: pending.value.captureWildcard, permanent: pending.value.permanent, destination: pending.value.destination }
            yield* repo.remove(pending.value.id)
            const id = Option.isSome(live)
              ? (yield* patch(live.value, settings)).id
              : (yield* insert(siteId, { source: item.source, ...settings })).id
            return { status: "published", source: item.source, draft: false, id }
          }
          const existing = yield* repo.findBySource(siteId, item.source, draft)
          if (item.destination === null) {
            if (Option.isNone(existing)) return yield* invalid("source", `has no ${draft ? "draft" : "live"} redirect to delete`)
            yield* repo.remove(existing.value.id)
            return { status: "deleted", source: item.source, draft }
          }
          const destination = item.destination
          if (Option.isSome(existing)) {
            const updated = yield* patch(existing.value, {
              destination: yield* checked(siteId, destination),
              captureWildcard: item.captureWildcard ?? false,
              ...(item.permanent === undefined ? {} : { permanent: item.permanent })
            })
            return { status: "updated", source: item.source, draft, id: updated.id }
          }
          const created = yield* insert(siteId, { ...item, destination, draft })
          return { status: "created", source: item.source, draft, id: created.id }
        })
        // A savepoint per item: a failed one leaves nothing half written, the others stay.
        return work.pipe(
          transactor.transaction,
          Effect.catch((e) => Effect.succeed<BulkResult>({ status: "error", source: item.source, draft, error: e.message }))
        )
      }

      return SiteRedirects.of({
        list: Effect.fn("SiteRedirects.list")(function*(organizationId, siteId, request) {
          yield* guard.site(organizationId, siteId)
          const orderBy = request.orderBy ?? "createdAt"
          const after = yield* Pagination.afterOf(request, redirectKeyShape(orderBy))
          const search = request.search === undefined || request.search === "" ? {} : { search: request.search }
          return yield* repo.list(siteId, { draft: request.draft ?? false, orderBy, ...search }, after, Pagination.limitOf(request))
        }),
        get: Effect.fn("SiteRedirects.get")(function*(organizationId, siteId, redirectId) {
          yield* guard.site(organizationId, siteId)
          return yield* redirectOf(siteId, redirectId)
        }),
        bySource: Effect.fn("SiteRedirects.bySource")(function*(organizationId, siteId, source) {
          yield* guard.site(organizationId, siteId)
          const found = matchRedirect(yield* repo.candidates(siteId, source), source)
          if (found === undefined) return yield* new Errors.NotFound({ resource: "SiteRedirect", id: source })
          return found
        }),
        create: Effect.fn("SiteRedirects.create")(function*(organizationId, siteId, input) {
          yield* guard.editor(organizationId, siteId, "change this site's redirects")
          return yield* insert(siteId, input)
        }, transactor.transaction),
        update: Effect.fn("SiteRedirects.update")(function*(organizationId, siteId, redirectId, update) {
          yield* guard.editor(organizationId, siteId, "change this site's redirects")
          return yield* patch(yield* redirectOf(siteId, redirectId), update)
        }, transactor.transaction),
        remove: Effect.fn("SiteRedirects.remove")(function*(organizationId, siteId, redirectId) {
          return yield* Effect.catchIf(
            Effect.gen(function*() {
              yield* guard.editor(organizationId, siteId, "change this site's redirects")
              const found = yield* repo.find(redirectId)
              if (Option.isNone(found) || found.value.siteId !== siteId) return false
              yield* repo.remove(redirectId)
              return true
            }),
            (e): e is Errors.NotFound => e instanceof Errors.NotFound,
            () => Effect.succeed(false)
          )
        }),
        bulkUpsert: Effect.fn("SiteRedirects.bulkUpsert")(function*(organizationId, siteId, items) {
          yield* guard.editor(organizationId, siteId, "change this site's redirects")
          const results: Array<BulkResult> = []
          for (const item of items) results.push(yield* bulkItem(siteId, item))
          return results
        }, transactor.transaction)
      })
    })
  )
}
