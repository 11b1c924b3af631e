/** A purged space takes the translations it is the source or the result of (content's SpaceDependents). */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { Spaces } from "@quire/content"
import { purgeDeletedSpaces } from "@quire/content/Jobs"
import { Organizations, Users } from "@quire/identity"
import { JobRunner } from "@quire/queue"
import { asInstanceAdmin } from "@quire/testkit"
import { Translations, TranslationsRepo } from "@quire/translations"
import * as Queue from "../src/Queue.ts"
import * as Services from "../src/Services.ts"
import * as Live from "./Live.ts"

const layer = Queue.layerInProcessWith(Live.layerMemory).pipe(Layer.provideMerge(Services.layerMemoryRepos))

describe("translations of purged spaces", () => {
  it.effect("go with their source or their result space", () =>
    Effect.gen(function*() {
      const users = yield* Users
      const organizations = yield* Organizations
      const spaces = yield* Spaces
      const translations = yield* Translations
      const repo = yield* TranslationsRepo
      const runner = yield* JobRunner
      const { user: admin } = yield* users.bootstrapAdmin("admin@quire.test", "token")
      const asAdmin = asInstanceAdmin(admin.id)
      const org = yield* organizations.create({ title: "Acme" }).pipe(asAdmin)
      const organizationId = org.organization.id
      const source = yield* spaces.create(organizationId, { title: "Source" }).pipe(asAdmin)
      const kept = yield* spaces.create(organizationId, { title: "Kept" }).pipe(asAdmin)
      const bySource = yield* translations.create(organizationId, { source: { space: source.space.id, language: "en" }, language: "fr" }).pipe(asAdmin)
      const byResult = yield* translations.create(organizationId, { source: { space: kept.space.id, language: "en" }, language: "de" }).pipe(asAdmin)
      const untouched = yield* translations.create(organizationId, { source: { space: kept.space.id, language: "en" }, language: "ja" }).pipe(asAdmin)
      yield* runner.drain
      yield* spaces.remove(source.space.id).pipe(asAdmin)
      yield* spaces.remove(byResult.translation.resultSpaceId).pipe(asAdmin)
      yield* TestClock.adjust("8 days")
      yield* purgeDeletedSpaces.enqueue({})
      yield* runner.drain
      assert.isTrue(Option.isNone(yield* repo.find(bySource.translation.id)))
      assert.isTrue(Option.isNone(yield* repo.find(byResult.translation.id)))
      assert.isTrue(Option.isSome(yield* repo.find(untouched.translation.id)))
    }).pipe(Effect.provide(layer)))
})
