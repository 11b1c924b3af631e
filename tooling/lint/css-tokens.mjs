// The app's stylesheets draw on its design tokens (apps/web/src/ui/tokens.css, docs/design.md): a
// font size, a colour, or a padding, margin or gap in rem or px written as a literal in any other
// stylesheet of apps/web/src is an error. Allowed: `font-size: 0`, sizes in em or % (relative to
// text already on the scale), a spacing of 0 or of 1px (a border's width: a row pulled over its
// neighbour's border), spacings in em or %, and a line that says why with
// `quire-lint-allow literal: <reason>` (a preview drawn in a published site's own colours).
// tokens.css defines the values; collab-colours.css is the live cursors' palette.
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const exempt = new Set(["ui/tokens.css", "ui/collab-colours.css"])
const allow = /quire-lint-allow literal: \S/
const literalSize = /^(?:font-size\s*:\s*|font\s*:\s*(?:(?:italic|oblique|normal|bold|bolder|lighter|\d{3}|small-caps)\s+)*)(-?\d*\.?\d+(?:rem|px|pt))\b/
const colour = /#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(/
const spacing = /^(?:(?:padding|margin)(?:-(?:top|right|bottom|left|inline|block)(?:-(?:start|end))?)?|(?:row-|column-)?gap|grid-(?:row-|column-)?gap)$/
// A length in rem or px, not inside a custom property's name nor a word.
const length = /(?<![\w-])-?(\d*\.?\d+)(rem|px)\b/g

/** The literal font sizes and colours of a stylesheet's declarations, each with its line. */
export const literalsIn = (css) => {
  const problems = []
  // Comments become spaces (their lines kept), after noting the lines that allow a literal.
  const lines = css.split("\n")
  const allowed = new Set(lines.flatMap((line, index) => (allow.test(line) ? [index + 1] : [])))
  const code = css.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " "))
  for (const match of code.matchAll(/([a-z-]+)\s*:\s*([^;{}]+)(?=[;}])/g)) {
    const line = code.slice(0, match.index).split("\n").length
    if (allowed.has(line)) continue
    const [declaration, property, value] = match
    // Custom properties name values for the rules below; they are tokens only in tokens.css.
    const size = literalSize.exec(declaration.replace(/\s+/g, " "))
    if ((property === "font-size" || property === "font") && size !== null && !/^-?0(?:\.0*)?[a-z]+$/.test(size[1])) {
      problems.push({ line, message: `literal font size ${size[1]}: use a --font-size-* token` })
    }
    const found = colour.exec(value)
    if (found !== null) problems.push({ line, message: `literal colour ${found[0].replace(/\($/, "(…)")} in ${property}: use a colour token` })
    if (spacing.test(property)) {
      const literals = [...value.matchAll(length)].filter(([, amount, unit]) => Number(amount) !== 0 && !(unit === "px" && Number(amount) === 1))
      if (literals.length > 0) problems.push({ line, message: `literal spacing ${literals.map((found) => found[0]).join(", ")} in ${property}: use --space-* tokens` })
    }
  }
  return problems
}

/** Every problem of apps/web/src's stylesheets, as `path:line: message`. */
export const checkWebCss = (root) => {
  const src = join(root, "apps/web/src")
  const files = readdirSync(src, { recursive: true }).filter((name) => String(name).endsWith(".css") && !exempt.has(String(name)))
  return files.toSorted().flatMap((name) =>
    literalsIn(readFileSync(join(src, String(name)), "utf8")).map((p) => `${relative(root, join(src, String(name)))}:${p.line}: ${p.message}`))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkWebCss(fileURLToPath(new URL("../../", import.meta.url)))
  for (const problem of problems) console.log(problem)
  console.log(`Found ${problems.length} errors in apps/web's stylesheets (literal font sizes, colours or spacings, docs/design.md).`)
  process.exit(problems.length === 0 ? 0 : 1)
}
