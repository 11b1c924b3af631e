/** `quire` run in-process against the test server of `@quire/server`'s harness. */
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as nodePath from "node:path"
import { Organization } from "@quire/api"
import { decodeJson, quire } from "@quire/cli/test/Quire"
import { adminToken, baseUrl } from "@quire/server/test/Harness"

export { decodeJson, lines, quire, rowWith } from "@quire/cli/test/Quire"

/** `quire ...args` against the test server, as the holder of `token`. */
export const quireAs = (token: string) => (...args: ReadonlyArray<string>) =>
  Effect.flatMap(baseUrl, (url) => quire(args, { QUIRE_URL: url, QUIRE_TOKEN: token }))

/** `quire ...args` against the test server as the administrator. */
export const admin = quireAs(adminToken)

/** `quire orgs create TITLE` as the holder of `as`'s token: the new organization. */
export const createOrganization = (as: ReturnType<typeof quireAs>, title: string) =>
  as("orgs", "create", title, "--json").pipe(Effect.flatMap(decodeJson(Organization)))

/** A new temporary directory holding `files` (path → text or bytes), removed with the scope; answers its path. */
export const folder = (files: Record<string, string | Uint8Array>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), "quire-e2e-"))
      for (const [name, content] of Object.entries(files)) {
        fs.mkdirSync(nodePath.dirname(nodePath.join(dir, name)), { recursive: true })
        fs.writeFileSync(nodePath.join(dir, name), content)
      }
      return dir
    }),
    (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
  )

/** One file `name` holding `text` in a new temporary directory, removed with the scope; answers the file's path. */
export const tempFile = (name: string, text: string) => Effect.map(folder({ [name]: text }), (dir) => nodePath.join(dir, name))
