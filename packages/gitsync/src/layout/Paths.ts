/**
 * Path arithmetic of GitBook's repository layout (POSIX paths relative to the repository root,
 * never starting with `/`), and the neutral form of asset references that pages carry.
 */

/** `a/./b/../c` is `a/c`; `..` never climbs above the root; no leading or trailing `/`. */
export const normalizePath = (path: string): string => {
  const out: Array<string> = []
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") out.pop()
    else out.push(segment)
  }
  return out.join("/")
}

/** `a` and `b` joined, normalized. */
export const joinPath = (...parts: ReadonlyArray<string>): string => normalizePath(parts.filter((p) => p !== "").join("/"))

/** The folder of a file path: `a/b.md` is `a`, `b.md` is `""`. */
export const dirname = (path: string): string => {
  const slash = path.lastIndexOf("/")
  return slash === -1 ? "" : path.slice(0, slash)
}

/** The last segment of a path. */
export const basename = (path: string): string => path.slice(path.lastIndexOf("/") + 1)

/** `path` (a file) as seen from the folder `from`: `relativePath("a/b", "a/c/d.md")` is `../c/d.md`. */
export const relativePath = (from: string, path: string): string => {
  const a = from === "" ? [] : from.split("/")
  const b = path.split("/")
  let common = 0
  while (common < a.length && common < b.length - 1 && a[common] === b[common]) common++
  return [...Array.from({ length: a.length - common }, () => ".."), ...b.slice(common)].join("/")
}

/** Whether a file name is a folder's readme (`README.md`, any case). */
export const isReadmeName = (name: string): boolean => name.toLowerCase() === "readme.md"

/** A slug that serves as a file name as it is. */
export const validSlug = /^[a-z0-9][a-z0-9_-]{0,99}$/i

/** `path` relative to the folder `root` when it lies inside it, else `undefined`. */
export const insideOf = (root: string, path: string): string | undefined =>
  root === "" ? path : path.startsWith(`${root}/`) ? path.slice(root.length + 1) : undefined

/** The folder of GitBook's assets, relative to the documentation root. */
export const assetsFolder = ".gitbook/assets"

/**
 * How pages refer to assets in the neutral tree: `/.gitbook/assets/<name as written>`, from the
 * documentation root, whatever relative form (`../.gitbook/assets/...`) the page file uses.
 */
export const assetRefPrefix = `/${assetsFolder}/`

// A relative path to an assets folder, at a place where a link destination, an HTML attribute or a
// GitBook block argument starts (never inside a URL or a word).
const relativeAssetRef = /(^|[\s(<"'=[])((?:\.{1,2}\/)*)\.gitbook\/assets\//g
const neutralAssetRef = /(^|[\s(<"'=[])\/\.gitbook\/assets\//g

/**
 * The references of `text` (in the file at `filePath`, under the documentation root `docsRoot`)
 * that reach the root's assets folder, in neutral form; other references stay as they are.
 */
export const toNeutralAssetRefs = (text: string, filePath: string, docsRoot: string): string => {
  if (!text.includes(".gitbook/assets/")) return text
  const folder = dirname(filePath)
  const assets = joinPath(docsRoot, assetsFolder)
  return text.replace(relativeAssetRef, (match, lead: string, ups: string) =>
    joinPath(folder, ups, assetsFolder) === assets ? `${lead}${assetRefPrefix}` : match
  )
}

/** Neutral asset references of `text` as the relative paths the file at `filePath` needs. */
export const fromNeutralAssetRefs = (text: string, filePath: string, docsRoot: string): string => {
  if (!text.includes(assetRefPrefix)) return text
  const relative = relativePath(dirname(filePath), joinPath(docsRoot, assetsFolder, "x"))
  const prefix = relative.slice(0, -1)
  return text.replace(neutralAssetRef, (_match, lead: string) => `${lead}${prefix}`)
}

/** A file of the space as an asset: its name in the assets folder and content's file id. */
export interface AssetFile {
  readonly name: string
  readonly id: string
}

const byLongestName = (files: ReadonlyArray<AssetFile>) => files.toSorted((a, b) => b.name.length - a.name.length)

/**
 * Neutral asset references (`/.gitbook/assets/<name>`, raw or URI-encoded) as content's file
 * references (`/files/<id>`); references to names not in `files` stay.
 */
export const assetRefsToFileRefs = (text: string, files: ReadonlyArray<AssetFile>): string => {
  if (!text.includes(assetRefPrefix)) return text
  let out = text
  for (const file of byLongestName(files)) {
    for (const form of new Set([file.name, encodeURI(file.name)])) out = out.split(`${assetRefPrefix}${form}`).join(`/files/${file.id}`)
  }
  return out
}

/**
 * Content's file references (`/files/<id>`) as neutral asset references, names URI-encoded (valid
 * in every link form); `writeRepository` takes them for the raw name the file had when comparing.
 */
export const fileRefsToAssetRefs = (text: string, files: ReadonlyArray<AssetFile>): string => {
  if (!text.includes("/files/")) return text
  const names = new Map(files.map((file) => [file.id, file.name]))
  return text.replace(/\/files\/([A-Za-z0-9_-]+)/g, (match, id: string) => {
    const name = names.get(id)
    return name === undefined ? match : `${assetRefPrefix}${encodeURI(name)}`
  })
}

/** `text` with the URI-encoded forms of `names` decoded, to compare references written either way. */
export const decodedAssetRefs = (text: string, names: ReadonlyArray<string>): string => {
  if (!text.includes(assetRefPrefix) || !text.includes("%")) return text
  let out = text
  for (const name of names) {
    const encoded = encodeURI(name)
    if (encoded !== name) out = out.split(`${assetRefPrefix}${encoded}`).join(`${assetRefPrefix}${name}`)
  }
  return out
}
