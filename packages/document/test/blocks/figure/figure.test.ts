import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("figure", import.meta.dirname, {
  "figure.md": ["figure", "image"],
  "figure-variants.md": ["figure", "raw"],
})
