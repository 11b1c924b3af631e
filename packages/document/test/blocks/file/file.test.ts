import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("file", import.meta.dirname, {
  "file.md": ["file"],
})
