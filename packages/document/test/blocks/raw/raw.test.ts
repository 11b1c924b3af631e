import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("raw", import.meta.dirname, {
  "raw.md": ["raw"],
})
