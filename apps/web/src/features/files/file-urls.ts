/**
 * Where the browser loads a page's stored file from. A page refers to a file as `/files/<id>`, or
 * as `.gitbook/assets/<name>` (or another relative path ending in its name) when imported from Git;
 * neither is a URL the app can load, so each is looked up among the files of the revision (or
 * change request) shown, whose `downloadURL` is. The editor and the review's diff both resolve
 * through this one lookup.
 */

/** A stored file as the API lists it (`RevisionFile`), the part this lookup reads. */
export interface StoredFile {
  readonly id: string
  readonly name: string
  readonly downloadURL: string
  readonly size?: number | undefined
  readonly contentType?: string | undefined
}

/** A src of a page: the URL to load, or undefined when it names no stored file known here (then the src is kept). */
export type FileUrlResolver = (src: string) => string | undefined

/** A src of a page: the stored file it names, or undefined when it names none known here. */
export type FileLookup = (src: string) => StoredFile | undefined

/** A lookup that learns files as they are listed or uploaded. */
export interface FileUrls {
  readonly remember: (file: StoredFile) => void
  readonly resolve: FileUrlResolver
  readonly find: FileLookup
}

export const fileUrls = (files: ReadonlyArray<StoredFile> = []): FileUrls => {
  const byKey = new Map<string, StoredFile>()
  const remember = (file: StoredFile) => {
    byKey.set(`id:${file.id}`, file)
    byKey.set(`name:${file.name}`, file)
  }
  files.forEach(remember)
  const find = (src: string): StoredFile | undefined => {
    const byId = /^\/files\/([^/?#]+)/.exec(src)
    if (byId) return byKey.get(`id:${decodeURIComponent(byId[1]!)}`)
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(src)) return undefined
    const name = src.split(/[?#]/)[0]!.split("/").pop() ?? ""
    try {
      return byKey.get(`name:${decodeURIComponent(name)}`)
    } catch {
      return byKey.get(`name:${name}`)
    }
  }
  const resolve = (src: string): string | undefined => find(src)?.downloadURL
  return { remember, resolve, find }
}
