import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("code", import.meta.dirname, {
  "code.md": ["codeBlock"],
  "code-variants.md": ["codeBlock"],
})
