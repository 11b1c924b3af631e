/**
 * Port: the files of GitBook's layout each space's last import read (page files, the summary,
 * `.gitbook.yaml`, the other files of `.gitbook/` but its assets), so that an export into an empty
 * repository writes them back where and as they were.
 */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"

/** A file as a commit held it. */
export interface LayoutFile {
  readonly oid: string
  readonly bytes: Uint8Array
}

/** What an import read, by path from the repository root. */
export interface ImportedLayout {
  /** The project directory the import read (`""`: the repository's root). */
  readonly projectDirectory: string
  /** The commit the files come from. */
  readonly commit: string
  readonly files: ReadonlyMap<string, LayoutFile>
}

export interface ImportedLayoutRepoShape {
  /** The layout of the space's last import, if any. */
  readonly find: (spaceId: string) => Effect.Effect<Option.Option<ImportedLayout>>
  /** The project directory and commit of the space's last import, without its files. */
  readonly header: (spaceId: string) => Effect.Effect<Option.Option<Omit<ImportedLayout, "files">>>
  /** One file of the space's last import (the cheap read of its `.gitbook.yaml`). */
  readonly file: (spaceId: string, path: string) => Effect.Effect<Option.Option<LayoutFile>>
  /** Replaces the space's layout whole (one transaction). */
  readonly save: (spaceId: string, layout: ImportedLayout) => Effect.Effect<void>
  /** Forgets the space's layout (its purge). */
  readonly remove: (spaceId: string) => Effect.Effect<void>
}

export class ImportedLayoutRepo extends Context.Service<ImportedLayoutRepo, ImportedLayoutRepoShape>()("@quire/gitsync/ImportedLayoutRepo") {
  static readonly layerMemory = Layer.sync(ImportedLayoutRepo, () => {
    const layouts = new MemoryStore.TxMap<string, ImportedLayout>()
    // Copies in and out: a caller's later change to its map or bytes is not the stored layout's.
    const copy = (layout: ImportedLayout): ImportedLayout => ({
      ...layout,
      files: new Map([...layout.files].map(([path, file]) => [path, { oid: file.oid, bytes: file.bytes.slice() }]))
    })
    return ImportedLayoutRepo.of({
      find: (spaceId) => Effect.sync(() => Option.map(Option.fromNullishOr(layouts.get(spaceId)), copy)),
      header: (spaceId) =>
        Effect.sync(() => Option.map(Option.fromNullishOr(layouts.get(spaceId)), (l) => ({ projectDirectory: l.projectDirectory, commit: l.commit }))),
      file: (spaceId, path) =>
        Effect.sync(() => Option.map(Option.fromNullishOr(layouts.get(spaceId)?.files.get(path)), (f) => ({ oid: f.oid, bytes: f.bytes.slice() }))),
      save: (spaceId, layout) => Effect.sync(() => void layouts.set(spaceId, copy(layout))),
      remove: (spaceId) => Effect.sync(() => void layouts.delete(spaceId))
    })
  })
}
