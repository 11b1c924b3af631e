import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("hint", import.meta.dirname, {
  "hint.md": ["hint"],
  "hint-variants.md": ["hint", "bulletList"],
})
