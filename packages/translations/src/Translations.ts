/**
 * Use cases on translations: create (with its result space), list, get, update the instructions,
 * delete. Members of the organization see translations, admins change them; outsiders and guests
 * get NotFound. Creating and updating queue a run.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, Ids, Pagination, Roles, Transactor } from "@quire/kernel"
import { ContentAccess, Spaces } from "@quire/content"
import * as Instructions from "./domain/Instructions.ts"
import { emptyStats, type Translation, type TranslationLanguage } from "./domain/Translation.ts"
import { TranslationRuns } from "./TranslationRuns.ts"
import { translationKeyShape, TranslationsRepo } from "./TranslationsRepo.ts"
import { Translator } from "./Translator.ts"

type Role = Roles.MemberRole

/** GitBook's `Translation.permissions`. */
export interface TranslationPermissions {
  readonly view: boolean
  readonly edit: boolean
}

/** A translation with what the caller may do with it. */
export interface TranslationAccess {
  readonly translation: Translation
  readonly permissions: TranslationPermissions
}

export interface CreateTranslationInput {
  readonly source: { readonly space: string; readonly language: TranslationLanguage }
  readonly language: TranslationLanguage
  readonly instructions?: unknown
}

export interface TranslationsShape {
  /** The organization's translations, oldest first (members). */
  readonly list: (organizationId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<TranslationAccess>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** Creates the translation and its result space, and queues its first run (admins). */
  readonly create: (organizationId: string, input: CreateTranslationInput) => Effect.Effect<TranslationAccess, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
  readonly get: (organizationId: string, translationId: string) => Effect.Effect<TranslationAccess, Errors.NotFound, Actor.Actor>
  /** Replaces the instructions and queues a run (admins). */
  readonly update: (organizationId: string, translationId: string, instructions: unknown) => Effect.Effect<TranslationAccess, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
  /** Queues a run (admins). */
  readonly run: (organizationId: string, translationId: string) => Effect.Effect<void, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /** Deletes the translation (its result space stays); nothing happens when it does not exist or is hidden. */
  readonly remove: (organizationId: string, translationId: string) => Effect.Effect<void, Errors.Forbidden, Actor.Actor>
  /** Why runs cannot translate (no provider is configured: the setting to set), or none when a provider is (members). */
  readonly provider: (organizationId: string) => Effect.Effect<Option.Option<string>, Errors.NotFound, Actor.Actor>
}

export const permissionsOf = (role: Role): TranslationPermissions => ({ view: true, edit: Roles.atLeast(role, "admin") })

const forbidden = (what: string) => new Errors.Forbidden({ reason: `You need to be an organization admin to ${what}` })

export class Translations extends Context.Service<Translations, TranslationsShape>()("@quire/translations/Translations") {
  static readonly layer = Layer.effect(
    Translations,
    Effect.gen(function*() {
      const repo = yield* TranslationsRepo
      const access = yield* ContentAccess
      const spaces = yield* Spaces
      const runs = yield* TranslationRuns
      const translator = yield* Translator
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const member = access.organizationMember

      const load = Effect.fnUntraced(function*(organizationId: string, translationId: string) {
        const role = yield* member(organizationId)
        const found = yield* repo.find(translationId)
        if (Option.isNone(found) || found.value.organizationId !== organizationId) {
          return yield* new Errors.NotFound({ resource: "Translation", id: translationId })
        }
        return { translation: found.value, permissions: permissionsOf(role) }
      })

      const list = Effect.fn("Translations.list")(function*(organizationId: string, page: Pagination.PageRequest) {
        const role = yield* member(organizationId)
        const after = yield* Pagination.afterOf(page, translationKeyShape)
        const found = yield* repo.list(organizationId, after, Pagination.limitOf(page))
        return {
          items: found.items.map((translation): TranslationAccess => ({ translation, permissions: permissionsOf(role) })),
          ...(found.next === undefined ? {} : { next: found.next })
        }
      })

      // Runs are queued once the transaction committed: a queue that starts at once must find the record.
      const queued = <E, R>(self: Effect.Effect<TranslationAccess, E, R>) =>
        Effect.tap(self, (access) => runs.queue(access.translation.id, access.translation.actorId))

      const create = Effect.fn("Translations.create")(function*(organizationId: string, input: CreateTranslationInput) {
        const role = yield* member(organizationId)
        if (!Roles.atLeast(role, "admin")) return yield* forbidden("create translations")
        const instructions = input.instructions === undefined ? Instructions.empty : yield* Instructions.validate(input.instructions)
        const source = yield* access.space(input.source.space).pipe(
          Effect.catchTag("NotFound", () => Effect.succeed(undefined))
        )
        if (source === undefined || source.space.organizationId !== organizationId || source.space.deletedAt !== null) {
          return yield* new Errors.InvalidInput({ field: "source.space", reason: `${JSON.stringify(input.source.space)} is not a space of this organization` })
        }
        if (input.language === input.source.language) {
          return yield* new Errors.InvalidInput({ field: "language", reason: "must differ from source.language" })
        }
        const title = `${source.space.title} (${input.language})`.slice(0, 50)
        const result = yield* spaces.create(organizationId, { title, language: input.language })
        const at = yield* now
        const translation: Translation = {
          id: yield* ids.make,
          organizationId,
          sourceSpaceId: source.space.id,
          sourceLanguage: input.source.language,
          language: input.language,
          instructions,
          resultSpaceId: result.space.id,
          actorId: (yield* Actor.Actor).userId,
          resultRevisionId: null,
          status: "pending",
          failure: null,
          stats: emptyStats,
          pageHashes: {},
          createdAt: at,
          updatedAt: at
        }
        yield* repo.insert(translation)
        return { translation, permissions: permissionsOf(role) }
      }, transactor.transaction, queued)

      const get = Effect.fn("Translations.get")(function*(organizationId: string, translationId: string) {
        return yield* load(organizationId, translationId)
      })

      const update = Effect.fn("Translations.update")(function*(organizationId: string, translationId: string, input: unknown) {
        const found = yield* load(organizationId, translationId)
        if (!found.permissions.edit) return yield* forbidden("change translations")
        const instructions = yield* Instructions.validate(input)
        const actorId = (yield* Actor.Actor).userId
        const next = yield* repo.update(translationId, { instructions, actorId, status: "pending", failure: null, updatedAt: yield* now })
        return { translation: Option.getOrElse(next, () => found.translation), permissions: found.permissions }
      }, transactor.transaction, queued)

      const run = Effect.fn("Translations.run")(function*(organizationId: string, translationId: string) {
        const found = yield* load(organizationId, translationId)
        if (!found.permissions.edit) return yield* forbidden("run translations")
        const actorId = (yield* Actor.Actor).userId
        yield* repo.update(translationId, { actorId, status: "pending", failure: null, updatedAt: yield* now })
        return { ...found, translation: { ...found.translation, actorId } }
      }, transactor.transaction, queued, Effect.asVoid)

      const remove = Effect.fn("Translations.remove")(function*(organizationId: string, translationId: string) {
        const found = yield* load(organizationId, translationId).pipe(Effect.catchTag("NotFound", () => Effect.succeed(undefined)))
        if (found === undefined) return
        if (!found.permissions.edit) return yield* forbidden("delete translations")
        yield* repo.remove(translationId)
      }, transactor.transaction)

      const provider = Effect.fn("Translations.provider")(function*(organizationId: string) {
        yield* member(organizationId)
        return translator.configured
      })

      return Translations.of({ list, create, get, update, run, remove, provider })
    })
  )
}
