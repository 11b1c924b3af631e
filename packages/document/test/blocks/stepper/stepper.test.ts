import { fixtureSuite } from "../../support.ts"

/** Each fixture, written from GitBook's documented syntax, is exact and produces these nodes and marks. */
fixtureSuite("stepper", import.meta.dirname, {
  "stepper.md": ["stepper", "step", "heading"],
})
