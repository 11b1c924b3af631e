/** The differential test of EditorCodec.test.ts over the other real GitBook repositories, when this machine has them. */
import { describe } from "vitest"
import { MIRRORS } from "../../document/test/pages.ts"
import { mirrorTest } from "./support/CodecReadings.ts"

describe("the editor's codec and the server's parser read every page alike", () => {
  for (const [repo, dir] of MIRRORS.slice(1)) mirrorTest(repo, dir)
})
