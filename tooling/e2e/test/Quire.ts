/** `quire` run in-process against the test server of `@quire/server`'s harness. */
import { Effect } from "effect"
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
