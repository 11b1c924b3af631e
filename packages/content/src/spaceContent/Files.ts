/** Use cases on a space's files as bytes: storing an upload against the organization's quota, and downloads. */
import { Effect, Option, type Stream } from "effect"
import { Errors } from "@quire/kernel"
import type { BlobResponse } from "../BlobStore.ts"
import { imageDimensions } from "../domain/ImageSize.ts"
import type { FileNode } from "../domain/Revision.ts"
import type { NewFile, NewFileStream } from "./SpaceContentTypes.ts"
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

  /** A cheap early refusal, before the bytes are stored; the write that points to them counts them. */
  const withinQuota = (organizationId: string, name: string, size: number) =>
    Effect.gen(function*() {
      const used = yield* usage.used(organizationId)
      if (used + size > quota) {
        return yield* new Errors.Forbidden({
          reason: `The organization's storage quota of ${quota} bytes is used up (${used} bytes stored; ` +
            `${JSON.stringify(name)} needs ${size})`
        })
      }
    })

  const describe = (input: { readonly name: string; readonly contentType: string }, hash: string, size: number, head: Uint8Array) =>
    Effect.map(ids.make, (id): FileNode => {
      const dimensions = input.contentType.startsWith("image/") ? imageDimensions(head) : undefined
      return { id, name: input.name, contentType: input.contentType, size, ...(dimensions === undefined ? {} : { dimensions }), blob: hash }
    })

  const storeFile = Effect.fn("SpaceContent.storeFile")(function*(organizationId: string, input: NewFile) {
    yield* withinQuota(organizationId, input.name, input.bytes.byteLength)
    const hash = yield* blobs.put(input.bytes)
    return yield* describe(input, hash, input.bytes.byteLength, input.bytes)
  })

  const storeFileStream = <E>(organizationId: string, input: NewFileStream<E>): Effect.Effect<FileNode, Errors.Forbidden | E> =>
    Effect.gen(function*() {
      yield* withinQuota(organizationId, input.name, input.declaredSize ?? 0)
      const stored = yield* blobs.putStream(input.bytes as Stream.Stream<Uint8Array, E>)
      yield* withinQuota(organizationId, input.name, stored.size)
      return yield* describe(input, stored.hash, stored.size, stored.head)
    }).pipe(Effect.withSpan("SpaceContent.storeFileStream"))

  return { download, downloadStream, downloadLink, storeFile, storeFileStream, releaseFiles: (_organizationId: string, _files: ReadonlyArray<FileNode>) => Effect.void }
}
