/** `~files/<space>/<file>`: a file of a revision the audience sees, streamed from the store, its ETag the blob's hash. */
import { Effect, Option } from "effect"
import type { SpaceContent } from "@quire/content"
import type { RenderAnswer } from "./Answer.ts"
import { notFound } from "./Chrome.ts"
import type { Reading } from "./Reading.ts"

export const fileAnswer = (reading: Reading, content: SpaceContent["Service"], spaceId: string, fileId: string) =>
  Effect.gen(function*(): Effect.fn.Return<RenderAnswer> {
    const { visible } = reading
    const place = visible.places.find((p) => p.siteSpace.space.id === spaceId)
    if (place === undefined) return yield* notFound(reading, visible.home)
    const rev = yield* reading.revision(place)
    const file = rev.files.find((f) => f.id === fileId)
    if (file === undefined) return yield* notFound(reading, visible.home)
    const stored = yield* Effect.option(content.downloadStream(place.siteSpace.space.id, file.blob))
    if (Option.isNone(stored)) return yield* notFound(reading, visible.home)
    return { kind: "Download", file: stored.value, contentType: file.contentType, name: file.name, etag: `"${file.blob.slice(0, 40)}"` }
  })
