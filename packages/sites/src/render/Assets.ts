/**
 * The files a published page may load from its own site (`<root>~assets/<name>`), never from
 * another host: KaTeX's stylesheet and fonts (pages with formulas), Mermaid (pages with diagrams)
 * and the page script that plays embeds on click, copies prompts and draws diagrams. The files come
 * from npm packages; the production build copies them to `dist/site-assets/`, beside the bundle.
 */
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"
import { playerOrigins } from "./Embeds.ts"
import { siteStatic } from "./SiteStatic.ts"

/** What a rendered page loads from the site's assets. */
export type PageAsset = "katex" | "script" | "mermaid"

/** The asset names each need loads: the first is what the page links to. */
export const assetFiles: Readonly<Record<PageAsset, string>> = {
  katex: "katex/katex.min.css",
  script: "blocks.js",
  mermaid: "mermaid.min.js"
}

/** Each served file's npm package and path there; `tooling/build/build.mjs` copies them to `dist/site-assets/`. */
export const packagedAssets: ReadonlyArray<{ readonly name: RegExp; readonly package: string; readonly file: (name: string) => string }> = [
  { name: /^katex\/katex\.min\.css$/, package: "katex", file: () => "dist/katex.min.css" },
  { name: /^katex\/fonts\/KaTeX_[A-Za-z0-9_-]+\.woff2$/, package: "katex", file: (name) => `dist/fonts/${name.slice("katex/fonts/".length)}` },
  { name: /^mermaid\.min\.js$/, package: "mermaid", file: () => "dist/mermaid.min.js" }
]

const packages = createRequire(import.meta.url)

/** Whether a name is one of the assets served. */
export const isAssetName = (name: string): boolean => name === assetFiles.script || packagedAssets.some((asset) => asset.name.test(name))

/** What a page's CSP allows for the assets it loads. */
export interface AssetSources {
  readonly scripts: ReadonlyArray<string>
  readonly styles: ReadonlyArray<string>
  /** Mermaid writes `<style>` elements as it draws: a page with diagrams allows inline styles. */
  readonly inlineStyles: boolean
}

/**
 * The CSP sources of the assets a page loads from its site's `root` (absolute: a source with a path
 * allows that file alone, where `'self'` would allow any script of the origin).
 */
export const assetSources = (root: string, assets: ReadonlyArray<PageAsset>): AssetSources => {
  const url = (name: string) => new URL(`~assets/${name}`, root).href
  return {
    scripts: [...(assets.includes("script") ? [url(assetFiles.script)] : []), ...(assets.includes("mermaid") ? [url(assetFiles.mermaid)] : [])],
    styles: assets.includes("katex") ? [url(assetFiles.katex)] : [],
    inlineStyles: assets.includes("mermaid")
  }
}

/**
 * The script of pages with players, prompts, expandables or diagrams (and tabs) (`site-static/blocks.js`): the expandable a link targets
 * opens; a player's frame is made on click (only for a player's origin); a prompt's text is copied;
 * Mermaid is loaded only when the page has a diagram, and a diagram it cannot draw keeps showing its code.
 */
export const pageScript = siteStatic("blocks.js").replaceAll("QUIRE_PLAYER_ORIGINS", JSON.stringify(playerOrigins))

/** A served asset: its bytes and type. */
export interface AssetFile {
  readonly contentType: string
  readonly bytes: Uint8Array
}

const typeOf = (name: string): string =>
  name.endsWith(".css") ? "text/css; charset=utf-8" : name.endsWith(".js") ? "text/javascript; charset=utf-8" : "font/woff2"

/** An asset's bytes by name (`katex/fonts/KaTeX_Main-Regular.woff2`), read from beside the bundle or the package; undefined for others. */
export const readAsset = (name: string): AssetFile | undefined => {
  if (name === assetFiles.script) return { contentType: typeOf(name), bytes: new TextEncoder().encode(pageScript) }
  const entry = packagedAssets.find((asset) => asset.name.test(name))
  if (entry === undefined) return undefined
  const bundled = fileURLToPath(new URL(`./site-assets/${name}`, import.meta.url))
  let file: string
  if (existsSync(bundled)) file = bundled
  else {
    try {
      file = packages.resolve(`${entry.package}/${entry.file(name)}`)
    } catch {
      return undefined
    }
  }
  return existsSync(file) ? { contentType: typeOf(name), bytes: readFileSync(file) } : undefined
}
