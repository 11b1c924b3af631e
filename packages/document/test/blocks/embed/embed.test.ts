import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("embed", import.meta.dirname, {
  "embed.md": ["embed"],
  "embed-variants.md": ["embed"],
})
