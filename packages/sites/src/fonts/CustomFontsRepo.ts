/** Port: organizations' custom fonts and the font files they uploaded, and its in-memory adapter. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"
import type { CustomFont, FontUpload } from "./CustomFont.ts"

export interface CustomFontsRepoShape {
  /** The organization's fonts, oldest first. */
  readonly list: (organizationId: string) => Effect.Effect<ReadonlyArray<CustomFont>>
  /** A font by id, whichever its organization. */
  readonly find: (fontId: string) => Effect.Effect<Option.Option<CustomFont>>
  /** Inserts or replaces a font. */
  readonly put: (font: CustomFont) => Effect.Effect<void>
  readonly remove: (fontId: string) => Effect.Effect<void>
  /** Records an upload (again: the same bytes of the same organization are one upload). */
  readonly putUpload: (upload: FontUpload) => Effect.Effect<void>
  readonly findUpload: (organizationId: string, storageKey: string) => Effect.Effect<Option.Option<FontUpload>>
}

export class CustomFontsRepo extends Context.Service<CustomFontsRepo, CustomFontsRepoShape>()("@quire/sites/CustomFontsRepo") {
  static readonly layerMemory = Layer.sync(CustomFontsRepo, () => {
    const fonts = new MemoryStore.TxMap<string, CustomFont>()
    const uploads = new MemoryStore.TxMap<string, FontUpload>()
    const uploadKey = (organizationId: string, storageKey: string) => `${organizationId}\u0000${storageKey}`
    return CustomFontsRepo.of({
      list: (organizationId) =>
        Effect.sync(() =>
          Array.from(fonts.values())
            .filter((f) => f.organizationId === organizationId)
            .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        ),
      find: (fontId) => Effect.sync(() => Option.fromNullishOr(fonts.get(fontId))),
      put: (font) => Effect.sync(() => void fonts.set(font.id, font)),
      remove: (fontId) => Effect.sync(() => void fonts.delete(fontId)),
      putUpload: (upload) =>
        Effect.sync(() => {
          const key = uploadKey(upload.organizationId, upload.storageKey)
          if (!uploads.has(key)) uploads.set(key, upload)
        }),
      findUpload: (organizationId, storageKey) => Effect.sync(() => Option.fromNullishOr(uploads.get(uploadKey(organizationId, storageKey))))
    })
  })
}
