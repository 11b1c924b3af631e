/**
 * Where local files came from. `.quire.json` in a folder records, for each markdown file there
 * (by its path from the folder), the space and revision its content was read from or last sent
 * as, and for each image sent, its SHA-256 and the file it became: `pages put` and `cr apply`
 * send that revision as `baseRevision` (so the server merges what changed since instead of
 * overwriting it) and upload only the images that changed.
 */
import { createHash } from "node:crypto"
import { Effect, FileSystem, Option, Path, Schema } from "effect"

/** The name of the record in a folder. */
export const fileName = ".quire.json"

const FileEntry = Schema.Struct({ space: Schema.String, revision: Schema.String, page: Schema.optionalKey(Schema.String) })
const ImageEntry = Schema.Struct({ space: Schema.String, sha256: Schema.String, file: Schema.String })

const State = Schema.Struct({
  files: Schema.Record(Schema.String, FileEntry),
  images: Schema.Record(Schema.String, ImageEntry)
})
export type State = typeof State.Type

const empty: State = { files: {}, images: {} }

const decode = Schema.decodeUnknownOption(Schema.fromJsonString(State))

/** The record of `folder`; empty when there is none (or it is not one Quire wrote). */
export const read = Effect.fnUntraced(function*(folder: string) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const text = yield* fs.readFileString(path.join(folder, fileName)).pipe(Effect.option)
  return Option.isNone(text) ? empty : Option.getOrElse(decode(text.value), () => empty)
})

/** Writes `state` as the record of `folder`. */
export const write = Effect.fnUntraced(function*(folder: string, state: State) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  yield* fs.writeFileString(path.join(folder, fileName), `${JSON.stringify(state, null, 2)}\n`)
})

/** The revision `file` (a path from the record's folder) was read from or last sent as, in `space` (as `page`, when the record names one). */
export const baseOf = (state: State, file: string, space: string, page?: string): string | undefined => {
  const entry = state.files[file]
  return entry?.space === space && (entry.page === undefined || page === undefined || entry.page === page) ? entry.revision : undefined
}

/** `state` with `files` recorded as being at `revision` of `space` (as `page`, for one file). */
export const withFiles = (state: State, space: string, revision: string, files: ReadonlyArray<string>, page?: string): State => ({
  ...state,
  files: { ...state.files, ...Object.fromEntries(files.map((file) => [file, page === undefined ? { space, revision } : { space, revision, page }])) }
})

/** The SHA-256 of a file's bytes, hex. */
export const sha256Of = Effect.fnUntraced(function*(file: string) {
  const fs = yield* FileSystem.FileSystem
  return createHash("sha256").update(yield* fs.readFile(file)).digest("hex")
})

/** The file an image (a path from the record's folder) already became in `space`, when its bytes are still `sha256`. */
export const imageOf = (state: State, image: string, space: string, sha256: string): string | undefined => {
  const entry = state.images[image]
  return entry?.space === space && entry.sha256 === sha256 ? entry.file : undefined
}

/** `state` with `images` (path from the record's folder, hash, file id) recorded for `space`. */
export const withImages = (
  state: State,
  space: string,
  images: ReadonlyArray<{ readonly image: string; readonly sha256: string; readonly file: string }>
): State => ({
  ...state,
  images: { ...state.images, ...Object.fromEntries(images.map(({ file, image, sha256 }) => [image, { space, sha256, file }])) }
})
