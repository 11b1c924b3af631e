/**
 * Use cases on an organization's custom fonts: members list and read them, admins upload font
 * files (WOFF2 or WOFF) and define, change and delete fonts over them. A face may only name a file
 * its own organization uploaded. Outsiders get NotFound. Sites fetch faces by font id and weight.
 */
import { Clock, Context, Effect, Layer, Option, type Stream } from "effect"
import { type Actor, Errors, Ids, Roles, Transactor } from "@quire/kernel"
import { BlobStore, type BlobStream, ContentAccess } from "@quire/content"
import { type CustomFont, type CustomFontFace, type FontFormat, type FontUpload, formatOf, maxFonts } from "./CustomFont.ts"
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
  /** The bytes of a font's face, for a site's `@font-face` (no caller: fonts are public once a site names them). */
  readonly face: (fontId: string, weight: number) => Effect.Effect<Option.Option<{ readonly format: FontFormat; readonly file: BlobStream }>>
}

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
          out.push({ weight: face.weight, storageKey: face.storageKey, format: upload.value.format })
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

      const upload = <E>(organizationId: string, file: { readonly name: string; readonly bytes: Stream.Stream<Uint8Array, E> }) =>
        Effect.gen(function*() {
          yield* admin(organizationId, "upload fonts")
          const stored = yield* blobs.putStream(file.bytes)
          const format = formatOf(stored.head)
          if (format === undefined) {
            return yield* new Errors.InvalidInput({ field: "body", reason: "is not a WOFF2 or WOFF font file" })
          }
          const upload: FontUpload = { organizationId, storageKey: stored.hash, name: file.name, format, size: stored.size, createdAt: yield* now }
          yield* repo.putUpload(upload)
          return upload
        }).pipe(Effect.withSpan("CustomFonts.upload"))

      const face = Effect.fn("CustomFonts.face")(function*(fontId: string, weight: number) {
        const found = yield* repo.find(fontId)
        const f = Option.isSome(found) ? found.value.faces.find((x) => x.weight === weight) : undefined
        if (f === undefined) return Option.none()
        const file = yield* blobs.stream(f.storageKey)
        return Option.map(file, (bytes) => ({ format: f.format, file: bytes }))
      })

      return CustomFonts.of({ list, create, get: load, update, remove, upload, face })
    })
  )
}
