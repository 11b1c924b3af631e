import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("blockquote", import.meta.dirname, {
  "blockquote.md": ["blockquote", "bulletList"],
})
