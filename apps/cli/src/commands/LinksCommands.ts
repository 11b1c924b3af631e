/**
 * `quire links check`: the broken links of a space's content (or of a change request's, `--cr`),
 * each with the pages it is written on. Exits 1 when there is one, so a script or CI can gate on it.
 */
import { Effect, Option } from "effect"
import { Argument, Command } from "effect/cli"
import type { ContentLink, ContentReference } from "@quire/api"
import * as Content from "../Content.ts"
import { CliFailure } from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"

/** A broken link: where it points (as written) and the page it is on. */
interface BrokenLink {
  readonly page: string
  readonly target: string
}

const targetOf = (reference: ContentReference): string => {
  switch (reference.kind) {
    case "url":
      return reference.url
    case "page":
      return reference.page.path
    case "file":
      return reference.file.name
  }
}

const rowsOf = (links: ReadonlyArray<ContentLink>, onPage?: string): ReadonlyArray<BrokenLink> =>
  links.flatMap((link) => {
    const pages = onPage === undefined
      ? (link.locationReferences ?? []).flatMap((location) => (location.kind === "page" ? [location.page.path] : []))
      : [onPage]
    return pages.map((page) => ({ page, target: targetOf(link.targetReference) }))
  })

const columns: ReadonlyArray<Output.Column<BrokenLink>> = [
  { header: "page", value: (row) => row.page },
  { header: "broken link", value: (row) => row.target }
]

const check = Command.make(
  "check",
  {
    spaceId: Argument.String("space-id").pipe(Argument.withDescription("The space's id")),
    changeRequest: Content.changeRequestFlag
  },
  Effect.fn("quire.links.check")(function*({ changeRequest, spaceId }) {
    const client = yield* QuireClient
    const broken: Array<BrokenLink> = []
    let total = 0
    if (Option.isNone(changeRequest)) {
      const first = yield* client.links.listSpaceLinks({ params: { spaceId }, query: { status: "broken", limit: 1 } })
      total = first.stats.total
      const all = yield* Pages.collect(
        (query) => client.links.listSpaceLinks({ params: { spaceId }, query: { ...query, status: "broken" } }),
        { limit: Option.none(), pageSize: 100 }
      )
      broken.push(...rowsOf(all.items))
    } else {
      // A change request's links are listed page by page.
      const changeRequestId = changeRequest.value
      const pages = Content.flatten(yield* Content.tree(spaceId, changeRequest)).filter(({ page }) => page.kind === "sheet")
      for (const { page } of pages) {
        const first = yield* client.changeRequestContent.listChangeRequestPageLinks({
          params: { spaceId, changeRequestId, pageId: page.id },
          query: { status: "broken", limit: 1 }
        })
        total += first.stats.total
        if (first.stats.broken.total === 0) continue
        const all = yield* Pages.collect(
          (query) =>
            client.changeRequestContent.listChangeRequestPageLinks({
              params: { spaceId, changeRequestId, pageId: page.id },
              query: { ...query, status: "broken" }
            }),
          { limit: Option.none(), pageSize: 100 }
        )
        broken.push(...rowsOf(all.items, page.path))
      }
    }
    const sorted = broken.toSorted((a, b) => a.page.localeCompare(b.page) || a.target.localeCompare(b.target))
    const where = Content.where(changeRequest)
    yield* Output.print({ total, broken: sorted }, () =>
      sorted.length === 0 ? `No broken links in ${where} (${total} links checked).` : Output.table(columns, sorted))
    if (sorted.length > 0) {
      return yield* new CliFailure({ message: `${sorted.length} broken link${sorted.length === 1 ? "" : "s"} in ${where} (of ${total})` })
    }
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List the broken links of a space (or of a change request with --cr) and the pages they are on; exits 1 if there are some"),
  Command.withExamples([{ command: "quire links check SPACE_ID --cr 3" }])
)

/** `quire links ...` */
export const links = Command.make("links").pipe(
  Command.withDescription("Links of a space's content"),
  Command.withSubcommands([check])
)
