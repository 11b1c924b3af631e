/** The layout codec as the sync jobs use it (docs/gitsync.md, "Layout"): a repository's tree to the neutral tree and back. */
import { Context, type Result } from "effect"
import type { RepositoryContent } from "./ContentMapping.ts"
import type { GitBlob } from "./GitTransport.ts"

export interface LayoutOptions {
  readonly projectDirectory: string
}

export interface RepositoryLayoutShape {
  /** The neutral tree of a commit's files; a problem (as text) when they cannot be read. */
  readonly read: (files: ReadonlyMap<string, GitBlob>, options: LayoutOptions) => Result.Result<RepositoryContent, string>
  /** The files to write (null deletes) so that a tree holding `previous` holds `content`; unchanged files are left out. */
  readonly write: (content: RepositoryContent, previous: ReadonlyMap<string, GitBlob>, options: LayoutOptions) => ReadonlyMap<string, Uint8Array | null>
}

export class RepositoryLayout extends Context.Service<RepositoryLayout, RepositoryLayoutShape>()("@quire/gitsync/RepositoryLayout") {}
