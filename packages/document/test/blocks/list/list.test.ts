import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("list", import.meta.dirname, {
  "list.md": ["bulletList", "orderedList", "taskList", "taskItem", "listItem"],
})
