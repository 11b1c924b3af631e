import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("document", import.meta.dirname, {
  "crlf.md": ["bulletList", "hint"],
  "whitespace.md": ["heading", "paragraph"],
  "empty.md": ["paragraph"],
})
