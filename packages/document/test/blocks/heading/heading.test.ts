import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("heading", import.meta.dirname, {
  "heading.md": ["frontmatter", "heading"],
})
