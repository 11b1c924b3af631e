/**
 * The published site's own stylesheets and scripts, kept as files in `site-static/` beside this
 * module and inlined in its pages (Theme.ts, Layout.ts). Under tsx and Vitest they are read from
 * the sources; the production build writes them, checked and minified, to `dist/site-static/`
 * beside the bundles (tooling/build/build.mjs), where the same relative URL finds them.
 */
import { readFileSync } from "node:fs"

/** The names of the files of `site-static/`. */
export type SiteStaticFile =
  | "icons.css"
  | "site.css"
  | "page-body.css"
  | "blocks.css"
  | "header-bold.css"
  | "header-gradient.css"
  | "header-muted.css"
  | "theme.js"
  | "site.js"
  | "blocks.js"
  | "insights.js"
  | "export-search.js"

/** The text of a file of `site-static/`. */
export const siteStatic = (name: SiteStaticFile): string =>
  readFileSync(new URL(`./site-static/${name}`, import.meta.url), "utf8")
