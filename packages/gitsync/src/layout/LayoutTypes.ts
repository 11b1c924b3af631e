/**
 * The shapes of GitBook's repository layout that Layout.ts and the modules of each way
 * (`layout/*`) share: the files of a commit, the neutral page tree, what a read learns and what a
 * write takes and gives, so that those modules need not import Layout.ts.
 */
import type { PageFileParts, PageMetadata } from "./PageFile.ts"
import type { ParsedSummary } from "./Summary.ts"

/** `.gitbook.yaml`: paths as written there. */
export interface RepositoryConfig {
  /** The documentation root, relative to the project directory (`./`, `./docs/`). */
  readonly root: string
  /** The first page, relative to `root`. */
  readonly readme: string
  /** The table of contents, relative to `root`. */
  readonly summary: string
  /** Old paths (without leading `/`) to the files that replace them, relative to `root`. */
  readonly redirects: Readonly<Record<string, string>>
}

/** A file of a commit: its blob id and bytes. */
export interface RepositoryFile {
  readonly oid: string
  readonly bytes: Uint8Array
}

/** The files of a commit by path, relative to the repository root (`docs/README.md`). */
export type RepositoryFiles = ReadonlyMap<string, RepositoryFile>

export interface LayoutOptions {
  /** The project root inside the repository (a monorepo's folder); `.gitbook.yaml` lives there. */
  readonly projectDirectory?: string | undefined
}

/**
 * A page of the neutral tree: its frontmatter's fields are content's (`PageMetadata`), a `cover`
 * being a URL or an asset in neutral form.
 */
export interface RepoPage extends PageMetadata {
  readonly kind: "document" | "group" | "link"
  readonly title: string
  /** The title the navigation shows instead of `title` (`[Title](page.md "Label")` in `SUMMARY.md`). */
  readonly linkTitle?: string | undefined
  /** Unique among siblings. */
  readonly slug: string
  /** Documents: the markdown file, from the repository root; absent for pages not yet in Git. */
  readonly path?: string | undefined
  readonly oid?: string | undefined
  /**
   * Documents: the body (no frontmatter, no title heading), as written but for references to the
   * assets folder, which are in neutral form (`/.gitbook/assets/<name>`, see `assetRefPrefix`).
   */
  readonly markdown: string
  /** Documents: the frontmatter's keys no field models (`tags`, `metadata`); absent when none are known. */
  readonly frontmatter?: Readonly<Record<string, unknown>> | undefined
  /** Links: the URL. */
  readonly href?: string | undefined
  readonly children: ReadonlyArray<RepoPage>
}

/** A file of `.gitbook/assets/`, or another file a page refers to (`img/logo.png` beside it). */
export interface RepoAsset {
  /** From the repository root. */
  readonly path: string
  /** The file name inside the assets folder (`image (1).png`), or its own name for another file. */
  readonly name: string
  /**
   * How page bodies refer to it: `/.gitbook/assets/<name>` in the assets folder; another file's
   * references stay relative as written, and this is its path from the documentation root (`/img/logo.png`).
   */
  readonly ref: string
  readonly oid: string
  readonly bytes: Uint8Array
}

/** What a repository holds in GitBook's layout. */
export interface RepositoryContent {
  readonly config: RepositoryConfig
  readonly pages: ReadonlyArray<RepoPage>
  readonly files: ReadonlyArray<RepoAsset>
  /** What was skipped or ignored, one sentence each, naming the file. */
  readonly warnings: ReadonlyArray<string>
}

/** An asset to write: one read before (`path`), or a new one (`name`, `bytes`). */
export interface AssetToWrite {
  readonly path?: string | undefined
  readonly name: string
  readonly oid?: string | undefined
  /** Needed for new files and changed ones; an unchanged file may leave it out. */
  readonly bytes?: Uint8Array | undefined
}

/** What `writeRepository` writes: a `RepositoryContent` fits. */
export interface ContentToWrite {
  readonly config: RepositoryConfig
  readonly pages: ReadonlyArray<RepoPage>
  readonly files: ReadonlyArray<AssetToWrite>
}

export interface WrittenRepository {
  /** The files to write, `null` to delete; files not named stay as they are. */
  readonly changes: ReadonlyMap<string, Uint8Array | null>
  readonly summary: {
    readonly added: ReadonlyArray<string>
    readonly modified: ReadonlyArray<string>
    readonly deleted: ReadonlyArray<string>
  }
  /** Assets written under another name than asked (a name already taken): asked → written. */
  readonly renamedAssets: ReadonlyMap<string, string>
  readonly warnings: ReadonlyArray<string>
}

/** Everything a read learns, which a write needs to follow the previous files. */
export interface ReadState {
  readonly content: RepositoryContent
  readonly configPath: string
  readonly configYaml: string | undefined
  readonly docsRoot: string
  readonly readmePath: string
  readonly summary: ParsedSummary | undefined
  /** Summary lines by the file (or URL) they point to, and group headings by `group:<title>`. */
  readonly summaryLines: ReadonlyMap<string, string>
  readonly pageInfo: ReadonlyMap<string, { readonly parts: PageFileParts; readonly parentKey: string; readonly page: RepoPage }>
  readonly assets: ReadonlyMap<string, RepoAsset>
}
