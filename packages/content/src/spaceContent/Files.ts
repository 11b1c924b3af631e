/** Use cases on a space's files as bytes: storing an upload against the organization's quota, and downloads. */
import { Effect, Option } from "effect"
import { Errors } from "@quire/kernel"
import type { BlobResponse } from "../BlobStore.ts"
import { imageDimensions } from "../domain/ImageSize.ts"
import type { FileNode } from "../domain/Revision.ts"
import type { NewFile } from "./SpaceContentTypes.ts"
import type { ContentEdit } from "./ContentEdit.ts"

const gone = (blob: string) => new Errors.NotFound({ resource: "File", id: blob })

export const storedFiles = (edit: ContentEdit) => {
  const { spaces, blobs, usage, quota, ids } = edit

  /** `read` of the blob when the space is live, else NotFound. */
  const fromLiveSpace = <A>(spaceId: string, blob: string, read: Effect.Effect<Option.Option<A>>) =>
    Effect.gen(function*() {
      const space = yield* spaces.find(spaceId)
      const found = Option.isSome(space) && space.value.deletedAt === null ? yield* read : Option.none()
      if (Option.isNone(found)) return yield* gone(blob)
      return found.value
    })

  const download = Effect.fn("SpaceContent.download")((spaceId: string, blob: string) => fromLiveSpace(spaceId, blob, blobs.get(blob)))

  const downloadStream = Effect.fn("SpaceContent.downloadStream")((spaceId: string, blob: string) =>
    fromLiveSpace(spaceId, blob, blobs.stream(blob)))

  const downloadLink = Effect.fn("SpaceContent.downloadLink")((spaceId: string, blob: string, response: BlobResponse) =>
    fromLiveSpace(spaceId, blob, Effect.map(blobs.link(blob, response), Option.some)))

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

  return { download, downloadStream, downloadLink, storeFile, releaseFiles: (_organizationId: string, _files: ReadonlyArray<FileNode>) => Effect.void }
}
