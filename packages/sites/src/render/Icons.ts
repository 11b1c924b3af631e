/**
 * GitBook's icons as inline SVG: GitBook names Font Awesome icons (`rocket-launch`, `book-open`)
 * in page frontmatter, sections and `<i class="fa-...">`. The free set is drawn from
 * `@fontawesome/fontawesome-free`'s SVG files (regular first, as GitBook's default style, then
 * solid, then brands); the production build copies them to `dist/icons/` beside the bundle. A
 * Pro-only name falls back to the free icon its name starts with (`rocket-launch` → `rocket`).
 */
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"

const families = ["regular", "solid", "brands"] as const
export type IconFamily = (typeof families)[number]

const packages = createRequire(import.meta.url)

/** A Font Awesome icon name: lowercase words joined by dashes (nothing else reaches a file path). */
export const iconName = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

const fileOf = (family: IconFamily, name: string): string | undefined => {
  const bundled = fileURLToPath(new URL(`./icons/${family}/${name}.svg`, import.meta.url))
  if (existsSync(bundled)) return bundled
  try {
    return packages.resolve(`@fortawesome/fontawesome-free/svgs/${family}/${name}.svg`)
  } catch {
    return undefined
  }
}

const svgOf = (family: IconFamily, name: string): string | undefined => {
  const file = fileOf(family, name)
  if (file === undefined) return undefined
  const source = readFileSync(file, "utf8")
  const viewBox = /viewBox="([0-9 .-]+)"/.exec(source)?.[1]
  const paths = [...source.matchAll(/<path\b[^>]*\bd="([^"]+)"[^>]*\/?>/g)].map((m) => `<path d="${m[1]}"/>`)
  if (viewBox === undefined || paths.length === 0) return undefined
  return `<svg class="fa-icon" viewBox="${viewBox}" fill="currentColor" aria-hidden="true" focusable="false">${paths.join("")}</svg>`
}

/**
 * The SVG of a Font Awesome icon by name (a `fa-` prefix is dropped), in `prefer`'s family when it
 * has it, else the first family that does; `undefined` when no free icon matches.
 */
export const iconSvg = (given: string, prefer?: IconFamily): string | undefined => {
  const name = given.trim().toLowerCase().replace(/^fa-/, "")
  if (!iconName.test(name) || name.length > 64) return undefined
  const order = prefer === undefined ? families : [prefer, ...families.filter((f) => f !== prefer)]
  const words = name.split("-")
  for (let n = words.length; n > 0; n--) {
    const candidate = words.slice(0, n).join("-")
    for (const family of order) {
      const svg = svgOf(family, candidate)
      if (svg !== undefined) return svg
    }
  }
  return undefined
}
