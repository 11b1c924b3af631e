/**
 * GitBook's custom fonts (issue 61): font files uploaded to the organization, fonts defined over
 * them through GitBook's client, and a published site whose customization picks one serving its
 * faces with `@font-face`. Members read fonts, admins change them; outsiders learn nothing and
 * cannot name another organization's files; bad input is a 400 naming the field.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { baseUrl, errorCode, memoryAndPostgres, newUser, organizationWith, raw } from "./Harness.ts"
import { get, localPath, publishedSite } from "./SiteFixtures.ts"

type Reply<A> = Promise<{ data: A; status: number }>
interface FontDefinition {
  readonly id: string
  readonly custom: boolean
  readonly fontFamily: string
  readonly fontFaces: ReadonlyArray<{ readonly weight: number; readonly sources: ReadonlyArray<{ readonly url: string; readonly format?: string }> }>
  readonly permissions: { readonly edit: boolean }
}
/** The part of GitBook's client this test uses. */
interface GitBookClient {
  readonly orgs: {
    listCustomFonts(organizationId: string): Reply<{ items: Array<FontDefinition> }>
    createCustomFont(organizationId: string, body: { fontFamily: string; fontFaces: Array<{ weight: number; storageKey: string }> }): Reply<FontDefinition>
    getCustomFont(organizationId: string, fontId: string): Reply<FontDefinition>
    updateCustomFont(organizationId: string, fontId: string, body: { fontFamily?: string; fontFaces?: Array<{ weight: number; storageKey: string | null }> }): Reply<FontDefinition>
    deleteCustomFont(organizationId: string, fontId: string): Reply<unknown>
    generateStorageUploadUrl(organizationId: string, body: { file: { name: string; type: string; size: number }; kind: string }): Reply<{ object: string; url: string; key: string }>
  }
}

/** Bytes a site would serve as a font: the WOFF2 (or WOFF) signature, then anything. */
const fontBytes = (signature: "wOF2" | "wOFF", seed: string) => Buffer.concat([Buffer.from(signature, "ascii"), Buffer.from(`font bytes ${seed} ${Date.now()}`)])

/** Uploads `bytes` as a font file of the organization; answers the status and the body. */
const upload = Effect.fnUntraced(function*(organizationId: string, token: string, bytes: Uint8Array, name = "acme.woff2") {
  const base = yield* baseUrl
  return yield* Effect.promise(async () => {
    const response = await fetch(`${base}/v1/orgs/${organizationId}/fonts/files?name=${encodeURIComponent(name)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
      body: bytes
    })
    return { status: response.status, body: await response.json() as { storageKey: string; format: string; error?: { message: string } } }
  })
})

const fontsPath = (organizationId: string) => `/v1/orgs/${organizationId}/fonts`

for (const backend of memoryAndPostgres) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`custom fonts on ${backend.name}`, (it) => {
    it.effect("GitBook's client defines, lists, reads, changes and deletes a font over uploaded files; a site picking it serves @font-face", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const regular = fontBytes("wOF2", "regular")
        const bold = fontBytes("wOFF", "bold")
        const up400 = yield* upload(s.organizationId, s.token, regular)
        assert.strictEqual(up400.status, 201, JSON.stringify(up400.body))
        assert.strictEqual(up400.body.format, "woff2")
        const up700 = yield* upload(s.organizationId, s.token, bold, "acme-bold.woff")
        assert.strictEqual(up700.body.format, "woff")

        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: s.token }) as unknown as GitBookClient
        const r = yield* Effect.promise(async () => {
          const { orgs } = gitbook
          const created = await orgs.createCustomFont(s.organizationId, { fontFamily: "Acme Sans", fontFaces: [{ weight: 400, storageKey: up400.body.storageKey }] })
          const listed = (await orgs.listCustomFonts(s.organizationId)).data
          const got = (await orgs.getCustomFont(s.organizationId, created.data.id)).data
          const updated = await orgs.updateCustomFont(s.organizationId, created.data.id, { fontFaces: [{ weight: 700, storageKey: up700.body.storageKey }] })
          return { created, listed, got, updated }
        })
        assert.strictEqual(r.created.status, 201)
        assert.strictEqual(r.created.data.custom, true)
        assert.strictEqual(r.created.data.fontFamily, "Acme Sans")
        assert.deepStrictEqual(r.created.data.permissions, { edit: true })
        assert.deepStrictEqual(r.listed.items.map((f) => f.id), [r.created.data.id])
        assert.deepStrictEqual(r.got, r.created.data)
        assert.deepStrictEqual(r.updated.data.fontFaces.map((f) => [f.weight, f.sources[0]!.format]), [[400, "woff2"], [700, "woff"]])

        // The site's customization picks the font as GitBook's `styling.font`: its faces are served.
        const { permissions: _, ...definition } = r.updated.data
        const customize = yield* raw("PUT", `/v1/orgs/${s.organizationId}/sites/${s.siteId}/customization`, {
          token: s.token,
          body: JSON.stringify({ styling: { font: definition } })
        })
        assert.strictEqual(customize.status, 200, JSON.stringify(customize.body))
        const page = yield* get(s.path)
        assert.strictEqual(page.status, 200)
        const regularUrl = r.updated.data.fontFaces[0]!.sources[0]!.url
        assert.include(page.text, `@font-face{font-family:"Acme Sans";font-style:normal;font-weight:400;font-display:swap;src:url("${regularUrl}") format("woff2")}`)
        assert.include(page.text, "font-weight:700")
        assert.include(page.text, `--font: "Acme Sans"`)
        const face = yield* get(localPath(regularUrl))
        assert.strictEqual(face.status, 200)
        assert.strictEqual(face.headers.get("content-type"), "font/woff2")
        assert.strictEqual(face.headers.get("access-control-allow-origin"), "*")
        assert.strictEqual(face.text, regular.toString("latin1"))

        // Removing a weight (storageKey null) and deleting the font: its files are no longer served.
        const lighter = yield* Effect.promise(() => gitbook.orgs.updateCustomFont(s.organizationId, r.created.data.id, { fontFaces: [{ weight: 700, storageKey: null }] }))
        assert.deepStrictEqual(lighter.data.fontFaces.map((f) => f.weight), [400])
        assert.strictEqual((yield* get(localPath(r.updated.data.fontFaces[1]!.sources[0]!.url))).status, 404)
        const deleted = yield* Effect.promise(() => gitbook.orgs.deleteCustomFont(s.organizationId, r.created.data.id))
        assert.strictEqual(deleted.status, 204)
        assert.strictEqual((yield* get(localPath(regularUrl))).status, 404)
        const listedAfter = yield* Effect.promise(() => gitbook.orgs.listCustomFonts(s.organizationId))
        assert.deepStrictEqual(listedAfter.data.items, [])
      }))

    it.effect("GitBook's upload flow: a signed URL takes the file's bytes once, and its key names a face", () =>
      Effect.gen(function*() {
        const { alice, organizationId, members } = yield* organizationWith(["read"])
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: alice.token }) as unknown as GitBookClient
        const bytes = fontBytes("wOF2", "signed")
        const base = yield* baseUrl
        // The URLs are the public URL's (quire.test); the test server is on loopback.
        const here = (url: string) => `${base}${localPath(url)}`
        const r = yield* Effect.promise(async () => {
          const signed = await gitbook.orgs.generateStorageUploadUrl(organizationId, { file: { name: "Acme Serif.woff2", type: "font/woff2", size: bytes.length }, kind: "customization_font" })
          // As to a bucket: a PUT of the bytes, with no credential but the URL.
          const put = await fetch(here(signed.data.url), { method: "PUT", headers: { "content-type": "font/woff2" }, body: bytes })
          const again = await fetch(here(signed.data.url), { method: "PUT", body: bytes })
          const forged = await fetch(here(signed.data.url).replace(/upload=[^&]+/, "upload=forged.token"), { method: "PUT", body: bytes })
          const font = await gitbook.orgs.createCustomFont(organizationId, { fontFamily: "Acme Serif", fontFaces: [{ weight: 400, storageKey: signed.data.key }] })
          const served = await fetch(here(font.data.fontFaces[0]!.sources[0]!.url))
          return { signed, put: put.status, again: again.status, forged: forged.status, font, served: Buffer.from(await served.arrayBuffer()) }
        })
        assert.strictEqual(r.signed.status, 201)
        assert.strictEqual(r.signed.data.object, "storage-signed-url")
        assert.match(r.signed.data.key, /^fonts\/[^/]+\/Acme_Serif\.woff2$/)
        assert.strictEqual(r.put, 201)
        assert.strictEqual(r.again, 400)
        assert.strictEqual(r.forged, 400)
        assert.strictEqual(r.font.status, 201)
        assert.deepStrictEqual(r.served, bytes)
        const reader = yield* raw("POST", `/v1/orgs/${organizationId}/storage/upload`, {
          token: members.read!.token,
          body: JSON.stringify({ file: { name: "a.woff2", type: "font/woff2", size: 10 }, kind: "customization_font" })
        })
        assert.strictEqual(reader.status, 403)
        for (const [body, field] of [
          [{ file: { name: "a.woff2", type: "font/woff2", size: 6 * 1024 * 1024 }, kind: "customization_font" }, "file.size"],
          [{ file: { name: "a.woff2", type: "font/woff2", size: 10 }, kind: "video" }, "kind"]
        ] as const) {
          const answer = yield* raw("POST", `/v1/orgs/${organizationId}/storage/upload`, { token: alice.token, body: JSON.stringify(body) })
          assert.strictEqual(answer.status, 400, JSON.stringify(body))
          assert.include(JSON.stringify(answer.body), field)
        }
      }))

    it.effect("members read fonts, only admins upload and change them; an outsider gets 404 and cannot use another organization's files", () =>
      Effect.gen(function*() {
        const { alice, organizationId, members } = yield* organizationWith(["read", "edit"])
        const file = yield* upload(organizationId, alice.token, fontBytes("wOF2", "roles"))
        const font = yield* alice.api.customFonts.createCustomFont({
          params: { organizationId },
          payload: { fontFamily: "House", fontFaces: [{ weight: 400, storageKey: file.body.storageKey }] }
        })
        const reader = members.read!
        const listed = yield* reader.api.customFonts.listCustomFonts({ params: { organizationId } })
        assert.deepStrictEqual(listed.items.map((f) => [f.id, f.permissions.edit]), [[font.id, false]])
        for (const member of [reader, members.edit!]) {
          assert.strictEqual((yield* upload(organizationId, member.token, fontBytes("wOF2", "nope"))).status, 403)
          const create = member.api.customFonts.createCustomFont({
            params: { organizationId },
            payload: { fontFamily: "Mine", fontFaces: [{ weight: 400, storageKey: file.body.storageKey }] }
          })
          assert.strictEqual(errorCode(yield* Effect.flip(create)), 403)
          assert.strictEqual(errorCode(yield* Effect.flip(member.api.customFonts.deleteCustomFont({ params: { organizationId, fontId: font.id } }))), 403)
        }

        const outsider = yield* newUser("Mallory")
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.customFonts.listCustomFonts({ params: { organizationId } }))), 404)
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.customFonts.getCustomFont({ params: { organizationId, fontId: font.id } }))), 404)
        assert.strictEqual((yield* upload(organizationId, outsider.token, fontBytes("wOF2", "x"))).status, 404)
        yield* outsider.api.customFonts.deleteCustomFont({ params: { organizationId, fontId: font.id } })
        // In their own organization, the outsider can neither reach the font nor name the other organization's file.
        const own = yield* outsider.api.organizations.createOrganization({ payload: { title: "Elsewhere" } })
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.customFonts.getCustomFont({ params: { organizationId: own.id, fontId: font.id } }))), 404)
        yield* outsider.api.customFonts.deleteCustomFont({ params: { organizationId: own.id, fontId: font.id } })
        const stolen = yield* raw("PUT", fontsPath(own.id), {
          token: outsider.token,
          body: JSON.stringify({ fontFamily: "Stolen", fontFaces: [{ weight: 400, storageKey: file.body.storageKey }] })
        })
        assert.strictEqual(stolen.status, 400)
        assert.include(JSON.stringify(stolen.body), "fontFaces[0].storageKey")
        assert.strictEqual((yield* alice.api.customFonts.getCustomFont({ params: { organizationId, fontId: font.id } })).fontFamily, "House")
      }))

    it.effect("bad fonts and bad files are 400s naming the field, and nothing is kept", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const file = yield* upload(organizationId, alice.token, fontBytes("wOF2", "valid"))
        const key = file.body.storageKey
        const notFont = yield* upload(organizationId, alice.token, Buffer.from("<svg>not a font</svg>"), "x.woff2")
        assert.strictEqual(notFont.status, 400)
        assert.include(notFont.body.error!.message, "body")
        const cases: Array<[unknown, string]> = [
          [{ fontFamily: "Acme", fontFaces: [{ weight: 700, storageKey: key }] }, "fontFaces"],
          [{ fontFamily: "Acme", fontFaces: [] }, "fontFaces"],
          [{ fontFamily: "x".repeat(51), fontFaces: [{ weight: 400, storageKey: key }] }, "fontFamily"],
          [{ fontFamily: "", fontFaces: [{ weight: 400, storageKey: key }] }, "fontFamily"],
          [{ fontFamily: "Acme", fontFaces: [{ weight: 0, storageKey: key }] }, "fontFaces"],
          [{ fontFamily: "Acme", fontFaces: [{ weight: 400.5, storageKey: key }] }, "fontFaces"],
          [{ fontFamily: "Acme", fontFaces: [{ weight: 400, storageKey: key }, { weight: 400, storageKey: key }] }, "fontFaces[1].weight"],
          [{ fontFamily: "Acme", fontFaces: [{ weight: 400, storageKey: "not-uploaded" }] }, "fontFaces[0].storageKey"],
          [{ fontFaces: [{ weight: 400, storageKey: key }] }, "fontFamily"]
        ]
        for (const [body, field] of cases) {
          const answer = yield* raw("PUT", fontsPath(organizationId), { token: alice.token, body: JSON.stringify(body) })
          assert.strictEqual(answer.status, 400, JSON.stringify(body))
          assert.include(JSON.stringify(answer.body), field, JSON.stringify(body))
        }
        assert.deepStrictEqual((yield* alice.api.customFonts.listCustomFonts({ params: { organizationId } })).items, [])
        const font = yield* alice.api.customFonts.createCustomFont({ params: { organizationId }, payload: { fontFamily: "Acme", fontFaces: [{ weight: 400, storageKey: key }] } })
        const dropRegular = yield* raw("POST", `${fontsPath(organizationId)}/${font.id}`, {
          token: alice.token,
          body: JSON.stringify({ fontFaces: [{ weight: 400, storageKey: null }] })
        })
        assert.strictEqual(dropRegular.status, 400)
        assert.include(JSON.stringify(dropRegular.body), "fontFaces")
        assert.strictEqual((yield* alice.api.customFonts.getCustomFont({ params: { organizationId, fontId: font.id } })).fontFaces.length, 1)
      }))
  })
}
