/**
 * Use cases on OpenAPI specifications: create, replace the source, change visibility, delete,
 * read versions and their content; and processing, which runs as the `specs.process` job.
 * The fetch time limit is `QUIRE_SPECS_FETCH_TIMEOUT_MS` (default 20 s). Members of the organization read; `createOpenAPISpec` (role `create` and up) changes;
 * outsiders and guests get NotFound.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Actor, Errors, Ids, Pagination, Roles } from "@quire/kernel"
import { ContentAccess } from "@quire/content"
import { JobQueue, type PermanentJobFailure } from "@quire/queue"
import { maxUrlLength, slugPattern, type Spec, type SpecSource, type SpecVersion, type SpecVisibility } from "./domain/Spec.ts"
import * as Processing from "./Processing.ts"
import * as ProcessingRuns from "./ProcessingRuns.ts"
import * as SourceCredentials from "./SourceCredentials.ts"
import { keyShape, SpecsRepo } from "./SpecsRepo.ts"

/** What the caller may do with a spec (GitBook's `OpenAPISpec.permissions`). */
export interface SpecPermissions {
  readonly view: boolean
  readonly edit: boolean
}

/** A spec as the caller sees it. */
export interface SpecAccess {
  readonly spec: Spec
  readonly permissions: SpecPermissions
}

/** The task name of processing runs. */
export const processTask = "specs.process"

/** `latest` or a version id. */
export type VersionRef = "latest" | { readonly id: string }

export interface SpecsShape {
  readonly list: (organizationId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<SpecAccess>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** Creates the spec and queues its processing (`pending`). */
  readonly create: (organizationId: string, slug: string, source: SpecSource) => Effect.Effect<SpecAccess, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  readonly get: (organizationId: string, slug: string) => Effect.Effect<SpecAccess, Errors.NotFound, Actor.Actor>
  /** Creates the spec or replaces its source, and queues processing; `created` tells which. */
  readonly put: (organizationId: string, slug: string, source: SpecSource) => Effect.Effect<{ readonly access: SpecAccess; readonly created: boolean }, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
  readonly update: (organizationId: string, slug: string, visibility: SpecVisibility) => Effect.Effect<SpecAccess, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /** Deletes the spec and its versions; nothing happens when it does not exist or is hidden. */
  readonly remove: (organizationId: string, slug: string) => Effect.Effect<void, Errors.Forbidden, Actor.Actor>
  /** Versions, newest first. */
  readonly versions: (organizationId: string, slug: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<SpecVersion>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly version: (organizationId: string, slug: string, ref: VersionRef) => Effect.Effect<{ readonly spec: Spec; readonly version: SpecVersion }, Errors.NotFound, Actor.Actor>
  /** A public spec's latest version, for anyone; NotFound for private specs. */
  readonly published: (organizationId: string, slug: string) => Effect.Effect<{ readonly spec: Spec; readonly version: SpecVersion }, Errors.NotFound>
  /**
   * A spec's latest version whatever its visibility, for a published site's reader when a page the
   * site shows names it (the caller has checked that it does): the site draws it to every reader.
   */
  readonly shownOnSite: (organizationId: string, slug: string) => Effect.Effect<{ readonly spec: Spec; readonly version: SpecVersion }, Errors.NotFound>
  /**
   * One processing run (the `specs.process` job): pending → progress → complete, with a new version
   * when the content changed. A document that cannot become a version (unparsable, invalid, too
   * large or deep) is recorded on the spec and fails the job permanently.
   */
  readonly process: (specId: string) => Effect.Effect<void, PermanentJobFailure>
  /**
   * The queue gave up a processing run (its worker died on the last attempt, or it kept failing
   * outside the run's own error handling): a spec still `pending` or in `progress` is recorded as
   * failed with `reason`, so it never stays in progress; saving it again runs it again.
   */
  readonly giveUp: (specId: string, reason: string) => Effect.Effect<void>
  /** Processes URL specs whose last run is older than the polling interval, and runs that were lost (the `specs.poll` job). */
  readonly pollDue: Effect.Effect<number>
}

export const specPermissions = (role: Roles.MemberRole | null): SpecPermissions => ({
  view: true,
  edit: Roles.atLeast(role, "create")
})

const checkSlug = (slug: string): Effect.Effect<void, Errors.InvalidInput> =>
  slug.length < 1 || slug.length > 100 || !slugPattern.test(slug)
    ? Effect.fail(new Errors.InvalidInput({ field: "slug", reason: `must be 1 to 100 characters matching ${slugPattern.source}` }))
    : Effect.void

const checkSource = (source: SpecSource): Effect.Effect<void, Errors.InvalidInput> => {
  if ("url" in source) {
    if (source.url.length > maxUrlLength) return Effect.fail(new Errors.InvalidInput({ field: "source.url", reason: `must be at most ${maxUrlLength} characters` }))
    let protocol: string
    try {
      protocol = new URL(source.url).protocol
    } catch {
      return Effect.fail(new Errors.InvalidInput({ field: "source.url", reason: "must be an absolute URL" }))
    }
    return protocol === "http:" || protocol === "https:"
      ? Effect.void
      : Effect.fail(new Errors.InvalidInput({ field: "source.url", reason: "must be an http or https URL" }))
  }
  return source.text.length === 0
    ? Effect.fail(new Errors.InvalidInput({ field: "source.text", reason: "must not be empty" }))
    // What the text expands to is known now: past a bound, it is refused rather than stored to fail later.
    : Processing.checkText(source.text).pipe(
      Effect.mapError((failure) => new Errors.InvalidInput({ field: "source.text", reason: failure.errors[0]?.message ?? "is too large" }))
    )
}

export class Specs extends Context.Service<Specs, SpecsShape>()("@quire/specs/Specs") {
  static readonly layer = Layer.effect(
    Specs,
    Effect.gen(function*() {
      const repo = yield* SpecsRepo
      const access = yield* ContentAccess
      const ids = yield* Ids.Ids
      const jobs = yield* JobQueue
      const secrets = yield* SourceCredentials.SpecSecrets
      const runs = yield* ProcessingRuns.make
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const member = access.organizationMember

      const editor = (organizationId: string) =>
        Effect.flatMap(member(organizationId), (role) =>
          Roles.atLeast(role, "create")
            ? Effect.succeed(role)
            : Effect.fail(new Errors.Forbidden({ reason: "You need the create role in the organization to change OpenAPI specs" })))

      const bySlug = (organizationId: string, slug: string) =>
        Effect.flatMap(repo.findBySlug(organizationId, slug), (found) =>
          Option.match(found, {
            onNone: () => Effect.fail(new Errors.NotFound({ resource: "OpenAPISpec", id: slug })),
            onSome: Effect.succeed
          }))

      /** Queues a processing run (a pending one of the same spec is replaced). */
      const queue = (specId: string) =>
        jobs.enqueue(processTask, { specId }, { jobKey: `${processTask}:${specId}`, maxAttempts: 3 })

      const listPage = Effect.fnUntraced(function*(organizationId: string, page: Pagination.PageRequest) {
        const role = yield* member(organizationId)
        const after = yield* Pagination.afterOf(page, keyShape)
        const result = yield* repo.list(organizationId, after, Pagination.limitOf(page))
        return { ...result, items: result.items.map((spec) => ({ spec, permissions: specPermissions(role) })) }
      })

      const create = Effect.fnUntraced(function*(organizationId: string, slug: string, source: SpecSource) {
        const role = yield* editor(organizationId)
        yield* checkSlug(slug)
        yield* checkSource(source)
        const at = yield* now
        const spec: Spec = {
          id: yield* ids.make,
          organizationId,
          slug,
          visibility: "private",
          source: SourceCredentials.seal(secrets, source),
          processingState: "pending",
          lastProcessErrorCode: null,
          lastProcessedErrors: [],
          lastProcessedAt: null,
          lastVersionId: null,
          createdAt: at,
          updatedAt: at
        }
        yield* repo.insert(spec)
        yield* queue(spec.id)
        return { spec, permissions: specPermissions(role) }
      })

      const replace = Effect.fnUntraced(function*(spec: Spec, source: SpecSource, role: Roles.MemberRole) {
        const updated = yield* repo.update(spec.id, { source: SourceCredentials.seal(secrets, source), processingState: "pending", updatedAt: yield* now })
        yield* queue(spec.id)
        return { spec: Option.getOrElse(updated, () => spec), permissions: specPermissions(role) }
      })

      const put = Effect.fnUntraced(function*(organizationId: string, slug: string, source: SpecSource) {
        const role = yield* editor(organizationId)
        yield* checkSlug(slug)
        yield* checkSource(source)
        const found = yield* repo.findBySlug(organizationId, slug)
        if (Option.isSome(found)) return { access: yield* replace(found.value, source, role), created: false }
        const created = yield* create(organizationId, slug, source).pipe(
          Effect.map((access) => ({ access, created: true })),
          // Another writer created it in between: replace its source instead.
          Effect.catchTag("Conflict", () =>
            Effect.flatMap(bySlug(organizationId, slug), (spec) => Effect.map(replace(spec, source, role), (access) => ({ access, created: false }))))
        )
        return created
      })

      const versionOf = Effect.fnUntraced(function*(spec: Spec, ref: VersionRef) {
        const id = ref === "latest" ? spec.lastVersionId : ref.id
        const version = id === null ? Option.none() : yield* repo.findVersion(spec.id, id)
        if (Option.isNone(version)) {
          return yield* new Errors.NotFound({ resource: "OpenAPISpecVersion", id: ref === "latest" ? "latest" : ref.id })
        }
        return { spec, version: version.value }
      })

      return Specs.of({
        list: listPage,
        create,
        get: (organizationId, slug) =>
          Effect.gen(function*() {
            const role = yield* member(organizationId)
            return { spec: yield* bySlug(organizationId, slug), permissions: specPermissions(role) }
          }),
        put,
        update: (organizationId, slug, visibility) =>
          Effect.gen(function*() {
            const role = yield* member(organizationId)
            const spec = yield* bySlug(organizationId, slug)
            yield* editor(organizationId)
            const updated = yield* repo.update(spec.id, { visibility, updatedAt: yield* now })
            return { spec: Option.getOrElse(updated, () => spec), permissions: specPermissions(role) }
          }),
        remove: (organizationId, slug) =>
          Effect.gen(function*() {
            const role = yield* access.organizationRole(organizationId)
            if (Option.isNone(role) || role.value === null) return
            const found = yield* repo.findBySlug(organizationId, slug)
            if (Option.isNone(found)) return
            if (!Roles.atLeast(role.value, "create")) {
              return yield* new Errors.Forbidden({ reason: "You need the create role in the organization to delete OpenAPI specs" })
            }
            yield* repo.remove(found.value.id)
          }),
        versions: (organizationId, slug, page) =>
          Effect.gen(function*() {
            yield* member(organizationId)
            const spec = yield* bySlug(organizationId, slug)
            const after = yield* Pagination.afterOf(page, keyShape)
            return yield* repo.listVersions(spec.id, after, Pagination.limitOf(page))
          }),
        version: (organizationId, slug, ref) =>
          Effect.gen(function*() {
            yield* member(organizationId)
            return yield* versionOf(yield* bySlug(organizationId, slug), ref)
          }),
        published: (organizationId, slug) =>
          Effect.gen(function*() {
            const spec = yield* bySlug(organizationId, slug)
            if (spec.visibility !== "public") return yield* new Errors.NotFound({ resource: "OpenAPISpec", id: slug })
            return yield* versionOf(spec, "latest")
          }),
        shownOnSite: (organizationId, slug) => Effect.flatMap(bySlug(organizationId, slug), (spec) => versionOf(spec, "latest")),
        process: runs.process,
        giveUp: runs.giveUp,
        pollDue: runs.pollDue
      })
    })
  )
}
