/**
 * The assets of a write: files read before keep their path (rewritten when their bytes changed),
 * a new file takes its name in the assets folder or, when that is taken, the next free `name (n)`;
 * previous assets no longer listed go.
 */
import type { AssetToWrite, ReadState } from "./LayoutTypes.ts"
import { assetRefPrefix, joinPath } from "./Paths.ts"

export const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

const withSuffix = (name: string, n: number): string => {
  const dot = name.lastIndexOf(".")
  return dot <= 0 ? `${name} (${n})` : `${name.slice(0, dot)} (${n})${name.slice(dot)}`
}

/**
 * Sets in `next` the assets to write, and answers the assets kept, those to delete, those written
 * under another name (asked → written) and `renameRefs`, which makes a text's neutral references
 * follow the renames. `taken` tells a path that `next` or another previous file already holds.
 */
export const writeAssets = (
  files: ReadonlyArray<AssetToWrite>,
  state: ReadState | undefined,
  assetsDir: string,
  next: Map<string, string | Uint8Array>,
  taken: (path: string) => boolean,
  warnings: Array<string>
) => {
  const keptAssets = new Set<string>()
  const renamedAssets = new Map<string, string>()
  for (const file of files) {
    const old = file.path === undefined ? undefined : state?.assets.get(file.path)
    if (old !== undefined && !keptAssets.has(old.path)) {
      keptAssets.add(old.path)
      if (file.bytes !== undefined && !sameBytes(file.bytes, old.bytes)) next.set(old.path, file.bytes)
      continue
    }
    if (file.bytes === undefined) {
      warnings.push(`file ${JSON.stringify(file.name)} has no bytes and is not in the repository; not written`)
      continue
    }
    // A name never leaves the assets folder.
    const asked = file.name.replace(/[/\\]/g, "-").replace(/^\.+$/, "") || "file"
    let name = asked
    for (let n = 1; ; n++) {
      const path = joinPath(assetsDir, name)
      const existing = state?.assets.get(path)
      if (existing !== undefined && !keptAssets.has(path) && sameBytes(existing.bytes, file.bytes)) {
        keptAssets.add(path)
        break
      }
      if (!taken(path) && existing === undefined) {
        next.set(path, file.bytes)
        break
      }
      name = withSuffix(asked, n)
    }
    if (name !== file.name) renamedAssets.set(file.name, name)
  }
  const deleted = [...(state?.assets.values() ?? [])].filter((asset) => !keptAssets.has(asset.path)).map((asset) => asset.path)
  const renameRefs = (text: string): string => {
    if (renamedAssets.size === 0 || !text.includes(assetRefPrefix)) return text
    let out = text
    for (const [from, to] of renamedAssets) {
      out = out.split(`${assetRefPrefix}${from}`).join(`${assetRefPrefix}${to}`)
      const encoded = encodeURI(from)
      if (encoded !== from) out = out.split(`${assetRefPrefix}${encoded}`).join(`${assetRefPrefix}${encodeURI(to)}`)
    }
    return out
  }
  return { keptAssets, renamedAssets, deleted, renameRefs }
}
