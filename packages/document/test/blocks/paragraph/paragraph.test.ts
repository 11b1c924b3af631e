import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("paragraph", import.meta.dirname, {
  "paragraph.md": ["paragraph", "bold", "italic", "strike", "code", "link", "highlight", "hardBreak", "inlineMath", "image", "rawInline"],
})
