/** Use cases on a space's files as bytes: storing an upload against the organization's quota, and downloads. */
import { Effect, Option } from "effect"
import { Errors } from "@quire/kernel"
import { imageDimensions } from "../domain/ImageSize.ts"
import type { FileNode } from "../domain/Revision.ts"
import type { NewFile } from "../SpaceContent.ts"
import type { ContentEdit } from "./ContentEdit.ts"

export const storedFiles = (edit: ContentEdit) => {
  const { spaces, blobs, usage, quota, ids } = edit

  const download = Effect.fn("SpaceContent.download")(function*(spaceId: string, blob: string) {
    const space = yield* spaces.find(spaceId)
    const bytes = Option.isSome(space) && space.value.deletedAt === null ? yield* blobs.get(blob) : Option.none()
    if (Option.isNone(bytes)) return yield* new Errors.NotFound({ resource: "File", id: blob })
    return bytes.value
  })

  const storeFile = Effect.fn("SpaceContent.storeFile")(function*(organizationId: string, input: NewFile) {
    // A cheap early refusal, before the bytes are stored; the write that points to them counts them.
    const used = yield* usage.used(organizationId)
    if (used + input.bytes.byteLength > quota) {
      return yield* new Errors.Forbidden({
        reason: `The organization's storage quota of ${quota} bytes is used up (${used} bytes stored; ` +
          `${JSON.stringify(input.name)} needs ${input.bytes.byteLength})`
      })
    }
    const hash = yield* blobs.put(input.bytes)
    const dimensions = input.contentType.startsWith("image/") ? imageDimensions(input.bytes) : undefined
    const stored: FileNode = {
      id: yield* ids.make,
      name: input.name,
      contentType: input.contentType,
      size: input.bytes.byteLength,
      ...(dimensions === undefined ? {} : { dimensions }),
      blob: hash
    }
    return stored
  })

  return { download, storeFile, releaseFiles: (_organizationId: string, _files: ReadonlyArray<FileNode>) => Effect.void }
}
