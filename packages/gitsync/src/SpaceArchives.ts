/**
 * A space's main content as a zip of GitBook's layout: the files an export to an empty Git
 * repository would push (`README.md`, `SUMMARY.md`, a file per page, `.gitbook/assets/`, reusable
 * contents in `.gitbook/includes/`), or, for a space imported from Git, the files it was imported
 * with and its changes since. Kept content-addressed in the BlobStore, like a PDF.
 */
import { Context, Effect, Layer, Option } from "effect"
import { type Actor, Errors } from "@quire/kernel"
import { BlobStore, flattenPages, PublishedContent, reusableDocuments, type Revision, SpaceContent } from "@quire/content"
import { ImportedLayoutRepo } from "./ImportedLayoutRepo.ts"
import { includeFolders, writeIncludes } from "./layout/Includes.ts"
import { zip, ZipTooLarge } from "./layout/Zip.ts"
import { exportIncludes } from "./ReusableContentMapping.ts"
import { exportChanges } from "./sync/Exporting.ts"

/** An archive: the hash of its bytes in the BlobStore, and what it holds. */
export interface SpaceArchive {
  readonly blob: string
  readonly size: number
  readonly title: string
  readonly revision: Revision
  /** The paths in the archive, in its order. */
  readonly paths: ReadonlyArray<string>
}

export interface SpaceArchivesShape {
  /** The space's current content as a zip of GitBook's layout, for a caller who can view the space. */
  readonly archive: (spaceId: string) => Effect.Effect<SpaceArchive, Errors.NotFound | Errors.Conflict, Actor.Actor>
}

export class SpaceArchives extends Context.Service<SpaceArchives, SpaceArchivesShape>()("@quire/gitsync/SpaceArchives") {
  static readonly layer = Layer.effect(
    SpaceArchives,
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const published = yield* PublishedContent
      const blobs = yield* BlobStore
      const layouts = yield* ImportedLayoutRepo
      const archive = Effect.fn("SpaceArchives.archive")(function*(spaceId: string) {
        const current = yield* content.revision(spaceId)
        const revision = current.revision
        const hashes = [
          ...flattenPages(revision.pages).flatMap(({ page }) => page.document === undefined ? [] : [page.document]),
          ...reusableDocuments(revision.reusableContents)
        ]
        const documents = yield* published.documents(hashes)
        const layout = yield* layouts.find(spaceId)
        // A space imported from Git comes back in the directory it was imported from.
        const projectDirectory = Option.match(layout, { onNone: () => "", onSome: (found) => found.projectDirectory })
        const changes = yield* exportChanges({
          revision,
          documents,
          previous: new Map(),
          projectDirectory,
          layout: Effect.succeed(layout),
          bytesOf: (file) => blobs.get(file.blob),
          besides: (files, config) => writeIncludes(exportIncludes(revision, documents), files, includeFolders(projectDirectory, config))
        }).pipe(Effect.mapError((stopped) => new Errors.Conflict({ reason: stopped.reason })))
        const files = [...changes].flatMap(([path, bytes]) => bytes === null ? [] : [[path, bytes] as const])
          .toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        const bytes = yield* Effect.try({
          try: () => zip(files),
          catch: (cause) => new Errors.Conflict({ reason: cause instanceof ZipTooLarge ? cause.message : "The archive could not be written" })
        })
        // Content-addressed: the same content archived again stores nothing new.
        return { blob: yield* blobs.put(bytes), size: bytes.byteLength, title: current.access.space.title, revision, paths: files.map(([path]) => path) }
      })
      return SpaceArchives.of({ archive })
    })
  )
}
