import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("tabs", import.meta.dirname, {
  "tabs.md": ["tabs", "tab", "codeBlock"],
  "tabs-variants.md": ["tabs", "tab", "codeBlock", "hint"],
})
