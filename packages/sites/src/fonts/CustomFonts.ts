/**
 * Use cases on an organization's custom fonts: members list and read them, admins upload font
 * files (WOFF2 or WOFF), directly or through a signed upload URL (GitBook's flow), and define,
 * change and delete fonts over them. A face may only name a file
 * its own organization uploaded. Outsiders get NotFound. Sites fetch faces by font id and weight.
 */
import { Clock, Context, Effect, Layer, Option, Schema, type Stream } from "effect"
import { type Actor, Errors, Ids, Roles, SignedToken, Transactor } from "@quire/kernel"
import { BlobStore, type BlobStream, ContentAccess } from "@quire/content"
import { type CustomFont, type CustomFontFace, type FontFormat, type FontUpload, formatOf, maxFontBytes, maxFonts } from "./CustomFont.ts"
import { CustomFontsRepo } from "./CustomFontsRepo.ts"

/** A font and whether the caller may change it (GitBook's `permissions.edit`). */
export interface CustomFontAccess {
  readonly font: CustomFont
  readonly edit: boolean
}

export interface CustomFontInput {
  readonly fontFamily: string
  readonly fontFaces: ReadonlyArray<{ readonly weight: number; readonly storageKey: string }>
}

export interface CustomFontPatch {
  readonly fontFamily?: string | undefined
  /** A face whose `storageKey` is null is removed. */
  readonly fontFaces?: ReadonlyArray<{ readonly weight: number; readonly storageKey: string | null }> | undefined
}

type Denied = Errors.NotFound | Errors.Forbidden

export interface CustomFontsShape {
  readonly list: (organizationId: string) => Effect.Effect<ReadonlyArray<CustomFontAccess>, Errors.NotFound, Actor.Actor>
  readonly create: (organizationId: string, input: CustomFontInput) => Effect.Effect<CustomFontAccess, Denied | Errors.InvalidInput, Actor.Actor>
  readonly get: (organizationId: string, fontId: string) => Effect.Effect<CustomFontAccess, Errors.NotFound, Actor.Actor>
  readonly update: (organizationId: string, fontId: string, patch: CustomFontPatch) => Effect.Effect<CustomFontAccess, Denied | Errors.InvalidInput, Actor.Actor>
  /** Deletes the font; false when there was none the caller could see. */
  readonly remove: (organizationId: string, fontId: string) => Effect.Effect<boolean, Errors.Forbidden, Actor.Actor>
  /** Keeps a font file (admins), whose `storageKey` faces then name; the role is checked before a byte is read. */
  readonly upload: <E>(organizationId: string, file: { readonly name: string; readonly bytes: Stream.Stream<Uint8Array, E> }) => Effect.Effect<FontUpload, Denied | Errors.InvalidInput | E, Actor.Actor>
  /**
   * GitBook's `generateStorageUploadURL` for a font (admins): the `storageKey` the file will have and
   * a token, good for an hour, that lets whoever holds it send that file's bytes once.
   */
  readonly signUpload: (organizationId: string, file: { readonly name: string; readonly size: number }) => Effect.Effect<{ readonly storageKey: string; readonly token: string }, Denied | Errors.InvalidInput, Actor.Actor>
  /** Keeps the bytes sent to a signed upload URL under its `storageKey`; InvalidInput (`upload`) for a token that does not verify. */
  readonly uploadSigned: <E>(organizationId: string, token: string, bytes: Stream.Stream<Uint8Array, E>) => Effect.Effect<FontUpload, Errors.InvalidInput | E>
  /** The bytes of a font's face, for a site's `@font-face` (no caller: fonts are public once a site names them). */
  readonly face: (fontId: string, weight: number) => Effect.Effect<Option.Option<{ readonly format: FontFormat; readonly file: BlobStream }>>
}

/** What a signed upload URL carries: the organization, the key the file will have, its name. */
const SignedUpload = Schema.Struct({ o: Schema.String, k: Schema.String, n: Schema.String })

const forbidden = (what: string) => new Errors.Forbidden({ reason: `You need to be an organization admin to ${what}` })

export class CustomFonts extends Context.Service<CustomFonts, CustomFontsShape>()("@quire/sites/CustomFonts") {
  static readonly layer = Layer.effect(
    CustomFonts,
    Effect.gen(function*() {
      const repo = yield* CustomFontsRepo
      const access = yield* ContentAccess
      const blobs = yield* BlobStore
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      const signingKey = yield* SignedToken.keyFor("quire/sites/font-upload")

      const role = (organizationId: string) => access.organizationMember(organizationId)
      const admin = Effect.fnUntraced(function*(organizationId: string, what: string) {
        if (!Roles.atLeast(yield* role(organizationId), "admin")) return yield* forbidden(what)
      })

      const load = Effect.fnUntraced(function*(organizationId: string, fontId: string) {
        const edit = Roles.atLeast(yield* role(organizationId), "admin")
        const found = yield* repo.find(fontId)
        if (Option.isNone(found) || found.value.organizationId !== organizationId) {
          return yield* new Errors.NotFound({ resource: "Font", id: fontId })
        }
        return { font: found.value, edit }
      })

      /** The faces as stored: each file an upload of the organization, weights distinct, 400 among them. */
      const facesOf = Effect.fnUntraced(function*(organizationId: string, faces: ReadonlyArray<{ readonly weight: number; readonly storageKey: string }>) {
        const out: Array<CustomFontFace> = []
        for (const [i, face] of faces.entries()) {
          if (out.some((f) => f.weight === face.weight)) {
            return yield* new Errors.InvalidInput({ field: `fontFaces[${i}].weight`, reason: `weight ${face.weight} is given twice` })
          }
          const upload = yield* repo.findUpload(organizationId, face.storageKey)
          if (Option.isNone(upload)) {
            return yield* new Errors.InvalidInput({ field: `fontFaces[${i}].storageKey`, reason: "is not a font file uploaded to this organization" })
          }
          out.push({ weight: face.weight, storageKey: face.storageKey, blobHash: upload.value.blobHash, format: upload.value.format })
        }
        if (!out.some((f) => f.weight === 400)) {
          return yield* new Errors.InvalidInput({ field: "fontFaces", reason: "must include a face of weight 400 (regular)" })
        }
        return out.sort((a, b) => a.weight - b.weight)
      })

      const list = Effect.fn("CustomFonts.list")(function*(organizationId: string) {
        const edit = Roles.atLeast(yield* role(organizationId), "admin")
        return (yield* repo.list(organizationId)).map((font) => ({ font, edit }))
      })

      const create = Effect.fn("CustomFonts.create")(function*(organizationId: string, input: CustomFontInput) {
        yield* admin(organizationId, "add fonts")
        if ((yield* repo.list(organizationId)).length >= maxFonts) {
          return yield* new Errors.InvalidInput({ field: "fontFamily", reason: `an organization keeps at most ${maxFonts} fonts` })
        }
        const faces = yield* facesOf(organizationId, input.fontFaces)
        const at = yield* now
        const font: CustomFont = { id: yield* ids.make, organizationId, fontFamily: input.fontFamily.trim(), faces, createdAt: at, updatedAt: at }
        if (font.fontFamily === "") return yield* new Errors.InvalidInput({ field: "fontFamily", reason: "must not be blank" })
        yield* repo.put(font)
        return { font, edit: true }
      }, transactor.transaction)

      const update = Effect.fn("CustomFonts.update")(function*(organizationId: string, fontId: string, patch: CustomFontPatch) {
        const found = yield* load(organizationId, fontId)
        if (!found.edit) return yield* forbidden("change fonts")
        let faces: ReadonlyArray<CustomFontFace> = found.font.faces
        if (patch.fontFaces !== undefined) {
          const byWeight = new Map(faces.map((f) => [f.weight, { weight: f.weight, storageKey: f.storageKey }]))
          for (const face of patch.fontFaces) {
            if (face.storageKey === null) byWeight.delete(face.weight)
            else byWeight.set(face.weight, { weight: face.weight, storageKey: face.storageKey })
          }
          faces = yield* facesOf(organizationId, Array.from(byWeight.values()))
        }
        const fontFamily = patch.fontFamily === undefined ? found.font.fontFamily : patch.fontFamily.trim()
        if (fontFamily === "") return yield* new Errors.InvalidInput({ field: "fontFamily", reason: "must not be blank" })
        const font: CustomFont = { ...found.font, fontFamily, faces, updatedAt: yield* now }
        yield* repo.put(font)
        return { font, edit: true }
      }, transactor.transaction)

      const remove = Effect.fn("CustomFonts.remove")(function*(organizationId: string, fontId: string) {
        const found = yield* load(organizationId, fontId).pipe(Effect.catchTag("NotFound", () => Effect.succeed(undefined)))
        if (found === undefined) return false
        if (!found.edit) return yield* forbidden("delete fonts")
        yield* repo.remove(fontId)
        return true
      }, transactor.transaction)

      /** Stores the bytes and records them as the organization's font file under `storageKey` (the hash when none). */
      const keep = <E>(organizationId: string, name: string, bytes: Stream.Stream<Uint8Array, E>, storageKey?: string) =>
        Effect.gen(function*() {
          const stored = yield* blobs.putStream(bytes)
          const format = formatOf(stored.head)
          if (format === undefined) {
            return yield* new Errors.InvalidInput({ field: "body", reason: "is not a WOFF2 or WOFF font file" })
          }
          const upload: FontUpload = {
            organizationId, storageKey: storageKey ?? stored.hash, blobHash: stored.hash, name, format, size: stored.size, createdAt: yield* now
          }
          yield* repo.putUpload(upload)
          return upload
        })

      const upload = <E>(organizationId: string, file: { readonly name: string; readonly bytes: Stream.Stream<Uint8Array, E> }) =>
        Effect.andThen(admin(organizationId, "upload fonts"), keep(organizationId, file.name, file.bytes)).pipe(Effect.withSpan("CustomFonts.upload"))

      const signUpload = Effect.fn("CustomFonts.signUpload")(function*(organizationId: string, file: { readonly name: string; readonly size: number }) {
        yield* admin(organizationId, "upload fonts")
        if (file.size > maxFontBytes) {
          return yield* new Errors.InvalidInput({ field: "file.size", reason: `a font file holds at most ${maxFontBytes} bytes` })
        }
        const name = file.name.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100) || "font"
        const storageKey = `fonts/${yield* ids.make}/${name}`
        const token = yield* SignedToken.issue(signingKey, SignedUpload, { o: organizationId, k: storageKey, n: file.name.slice(0, 255) }, { expiresIn: 3600 })
        return { storageKey, token }
      })

      const uploadSigned = <E>(organizationId: string, token: string, bytes: Stream.Stream<Uint8Array, E>) =>
        Effect.gen(function*() {
          const verified = SignedToken.verify(signingKey, SignedUpload, token, yield* SignedToken.nowSeconds)
          if (Option.isNone(verified) || verified.value.value.o !== organizationId) {
            return yield* new Errors.InvalidInput({ field: "upload", reason: "is not an upload URL of this server, or it expired: ask for another" })
          }
          const { o, k, n } = verified.value.value
          if (Option.isSome(yield* repo.findUpload(o, k))) {
            return yield* new Errors.InvalidInput({ field: "upload", reason: "was used already: ask for another upload URL" })
          }
          return yield* keep(o, n, bytes, k)
        }).pipe(Effect.withSpan("CustomFonts.uploadSigned"))

      const face = Effect.fn("CustomFonts.face")(function*(fontId: string, weight: number) {
        const found = yield* repo.find(fontId)
        const f = Option.isSome(found) ? found.value.faces.find((x) => x.weight === weight) : undefined
        if (f === undefined) return Option.none()
        const file = yield* blobs.stream(f.blobHash)
        return Option.map(file, (bytes) => ({ format: f.format, file: bytes }))
      })

      return CustomFonts.of({ list, create, get: load, update, remove, upload, signUpload, uploadSigned, face })
    })
  )
}
