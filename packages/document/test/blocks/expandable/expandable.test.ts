import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("expandable", import.meta.dirname, {
  "expandable.md": ["expandable", "hint"],
})
