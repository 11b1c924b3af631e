/**
 * Use cases on an organization's translation glossary: members list and read entries, admins apply
 * a batch of inserts, updates and deletes, all or nothing. Outsiders get NotFound.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Actor, Errors, Ids, Pagination, Roles, Transactor } from "@quire/kernel"
import { ContentAccess } from "@quire/content"
import { type GlossaryEntry, type GlossaryOperation, languageProblem } from "./Glossary.ts"
import { GlossaryRepo, maxEntries } from "./GlossaryRepo.ts"

/** An entry and what the caller may do with it. */
export interface GlossaryListRequest extends Pagination.PageRequest {
  /** A language code: entries sorted by their word in it (entries without one last), else oldest first. */
  readonly orderBy?: string | undefined
}

export interface GlossariesShape {
  readonly list: (organizationId: string, request: GlossaryListRequest) => Effect.Effect<Pagination.Page<GlossaryEntry>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly get: (organizationId: string, entryId: string) => Effect.Effect<GlossaryEntry, Errors.NotFound, Actor.Actor>
  /** Applies the operations in order, in one transaction (admins). */
  readonly update: (organizationId: string, operations: ReadonlyArray<GlossaryOperation>) => Effect.Effect<void, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
  /** The organization's entries, for a run (no caller). */
  readonly entriesOf: (organizationId: string) => Effect.Effect<ReadonlyArray<GlossaryEntry>>
}

const keyShape: Pagination.KeyShape = ["string", "timestamp", "string"]

export class Glossaries extends Context.Service<Glossaries, GlossariesShape>()("@quire/translations/Glossaries") {
  static readonly layer = Layer.effect(
    Glossaries,
    Effect.gen(function*() {
      const repo = yield* GlossaryRepo
      const access = yield* ContentAccess
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor

      const list = Effect.fn("Glossaries.list")(function*(organizationId: string, request: GlossaryListRequest) {
        yield* access.organizationMember(organizationId)
        const after = yield* Pagination.afterOf(request, keyShape)
        const all = yield* repo.list(organizationId)
        const orderBy = request.orderBy
        // Entries with a word in `orderBy` first ("0"), by that word; then the others ("1").
        const keyOf = (e: GlossaryEntry): Pagination.CursorKey => {
          const word = orderBy === undefined ? undefined : (e.translations as Record<string, string | undefined>)[orderBy]
          return [orderBy === undefined ? "" : word === undefined ? "1" : `0${word.toLowerCase()}`, e.createdAt.toISOString(), e.id]
        }
        return yield* Pagination.paginateArray(all, keyOf, { order: "asc", after, limit: Pagination.limitOf(request) })
      })

      const get = Effect.fn("Glossaries.get")(function*(organizationId: string, entryId: string) {
        yield* access.organizationMember(organizationId)
        const found = yield* repo.find(organizationId, entryId)
        if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "GlossaryEntry", id: entryId })
        return found.value
      })

      const update = Effect.fn("Glossaries.update")(function*(organizationId: string, operations: ReadonlyArray<GlossaryOperation>) {
        const role = yield* access.organizationMember(organizationId)
        if (!Roles.atLeast(role, "admin")) {
          return yield* new Errors.Forbidden({ reason: "You need to be an organization admin to change the translation glossary" })
        }
        const now = new Date(yield* Clock.currentTimeMillis)
        let count = (yield* repo.list(organizationId)).length
        for (const [i, op] of operations.entries()) {
          if (op.type !== "delete") {
            const problem = languageProblem(op.translations)
            if (problem !== undefined) {
              return yield* new Errors.InvalidInput(problem === ""
                ? { field: `operations[${i}].translations`, reason: "must name at least one language" }
                : { field: `operations[${i}].translations.${problem}`, reason: `${JSON.stringify(problem)} is not a language code` })
            }
          }
          if (op.type === "insert") {
            if (++count > maxEntries) {
              return yield* new Errors.InvalidInput({ field: `operations[${i}]`, reason: `a glossary holds at most ${maxEntries} entries` })
            }
            yield* repo.put({ id: yield* ids.make, organizationId, translations: op.translations, createdAt: now, updatedAt: now })
            continue
          }
          const found = yield* repo.find(organizationId, op.id)
          if (Option.isNone(found)) {
            return yield* new Errors.InvalidInput({ field: `operations[${i}].id`, reason: `${JSON.stringify(op.id)} is not an entry of this glossary` })
          }
          if (op.type === "update") {
            yield* repo.put({ ...found.value, translations: op.translations, updatedAt: now })
          } else {
            count--
            yield* repo.remove(organizationId, op.id)
          }
        }
      }, transactor.transaction)

      return Glossaries.of({ list, get, update, entriesOf: repo.list })
    })
  )
}
