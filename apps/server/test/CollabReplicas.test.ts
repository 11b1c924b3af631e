/**
 * Live editing across two servers on one PostgreSQL, relaying through Redis (QUIRE_REDIS_URL;
 * Redis at 127.0.0.1:6379): a person on each server sees the other's keystrokes.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { organizationWith } from "./Harness.ts"
import { collabUrl, connect, eventually, eventuallyEffect, settled, sharedPage, twoServers } from "./CollabSupport.ts"



describe("live editing on two servers", () => {
  it.live("two people on two servers see each other's edits, and the page's markdown holds both", () =>
    Effect.gen(function*() {
      const { onFirst, onSecond } = yield* twoServers

      const { alice, members, space } = yield* onFirst(Effect.gen(function*() {
        const organization = yield* organizationWith(["edit"])
        const space = yield* organization.alice.api.spaces.createSpace({ params: { organizationId: organization.organizationId }, payload: { title: "Docs" } })
        return { ...organization, space }
      }))
      const page = yield* onFirst(sharedPage(alice.api, space.id))
      const urlFirst = yield* onFirst(collabUrl)
      const urlSecond = yield* onSecond(collabUrl)
      assert.notStrictEqual(urlFirst, urlSecond)

      const a = yield* connect({ url: urlFirst, name: page.name, token: alice.token })
      const b = yield* connect({ url: urlSecond, name: page.name, token: members.edit!.token })
      yield* settled(a)
      yield* settled(b)
      a.type(0, "From the first server. ")
      yield* eventually("the second server's client sees the first's edit", () => b.text().includes("From the first server."))
      b.type(b.text().length, "From the second server.\n")
      yield* eventually("the first server's client sees the second's edit", () => a.text().includes("From the second server."))
      for (let i = 0; i < 5; i++) {
        a.type(0, `a${i} `)
        b.type(b.text().length, ` b${i}`)
      }
      yield* settled(a)
      yield* settled(b)
      yield* eventually("both converge", () => a.text() === b.text())
      for (let i = 0; i < 5; i++) {
        assert.include(a.text(), `a${i} `)
        assert.include(a.text(), ` b${i}`)
      }
      const typed = a.text()
      const written = yield* onSecond(eventuallyEffect(page.markdown, (markdown) => markdown === typed))
      assert.strictEqual(written, typed)
    }).pipe(Effect.scoped), { timeout: 120_000 })
})
