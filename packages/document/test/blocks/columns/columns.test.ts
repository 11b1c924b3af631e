import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("columns", import.meta.dirname, {
  "columns.md": ["columns", "column", "figure"],
})
