/** `quire spaces`: the spaces of an organization, their settings, the trash, moves and transfers. */
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { EditMode, Language, Schemas, type Space, Visibility } from "@quire/api"
import { CliFailure } from "../Failure.ts"
import * as Fields from "../Fields.ts"
import * as Moves from "../Moves.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"
import { organizationId } from "./OrganizationsCommands.ts"
import * as SearchCommands from "./SearchCommands.ts"

/** Levels a space or collection can give the organization's members; `none` is the API's `null`. */
export const defaultLevels = [...Schemas.MemberRole.literals, "none", "inherit"] as const
export type DefaultLevelName = typeof defaultLevels[number]
export const toDefaultLevel = (level: DefaultLevelName) => (level === "none" ? null : level)

/** A default level for people: `null` is no access. */
export const showDefaultLevel = (level: string | null): string => level ?? "none"

export const defaultLevelFlag = Flag.Literals("default-level", defaultLevels).pipe(
  Flag.withDescription("What the organization's members get: a role, none, or inherit (from the parent)"),
  Flag.optional
)

const hexEmoji = /^[0-9a-fA-F]{4,6}(?:-[0-9a-fA-F]{4,6})*$/

/** An emoji as stored (characters, or codepoints in hex like `1f389`) as characters. */
const showEmoji = (emoji: string): string => {
  if (!hexEmoji.test(emoji)) return emoji
  const codePoints = emoji.split("-").map((hex) => Number.parseInt(hex, 16))
  return codePoints.every((codePoint) => codePoint <= 0x10ffff) ? String.fromCodePoint(...codePoints) : emoji
}

/** The columns of a list of spaces, shared with `collections spaces`. */
export const columns: ReadonlyArray<Output.Column<Space>> = [
  { header: "id", value: (space) => space.id },
  { header: "title", value: (space) => space.title },
  { header: "emoji", value: (space) => showEmoji(space.emoji) },
  { header: "visibility", value: (space) => space.visibility },
  { header: "parent", value: (space) => space.parent ?? "" },
  { header: "updated", value: (space) => Output.when(space.updatedAt) }
]

const showSpace = (space: Space) =>
  Output.details([
    ["id", space.id],
    ["title", space.title],
    ["emoji", showEmoji(space.emoji)],
    ["organization", space.organization],
    ["parent", space.parent],
    ["visibility", space.visibility],
    ["default level", showDefaultLevel(space.defaultLevel)],
    ["edit mode", space.editMode],
    ["language", space.language],
    ["revision", space.revision],
    ["change requests", `${space.changeRequestsOpen} open, ${space.changeRequests} in all`],
    ["comments", String(space.comments)],
    ["created", Output.when(space.createdAt)],
    ["updated", Output.when(space.updatedAt)],
    ["deleted", Output.when(space.deletedAt)],
    ["url", space.urls.app],
    ["published", space.urls.published]
  ])

const spaceId = Argument.String("space-id").pipe(Argument.withDescription("The space's id"))

const emoji = Flag.String("emoji").pipe(
  Flag.withDescription("An emoji, as the character or its codepoints in hex (1f4d8)"),
  Flag.optional
)
const language = Flag.Literals("language", Language.literals).pipe(
  Flag.withDescription("The language of the content"),
  Flag.optional
)

const list = Command.make(
  "list",
  {
    organizationId,
    collection: Flag.String("collection").pipe(
      Flag.withDescription("Only the spaces directly in this collection"),
      Flag.optional
    ),
    ...Pages.flags
  },
  Effect.fn("quire.spaces.list")(function*({ collection, limit, organizationId, pageSize }) {
    const client = yield* QuireClient
    if (Option.isNone(collection)) {
      const spaces = yield* Pages.collect(
        (query) => client.spaces.listSpacesInOrganizationById({ params: { organizationId }, query }),
        { limit, pageSize }
      )
      return yield* Output.printList(spaces, columns, "No spaces yet (quire spaces create ORG_ID TITLE).")
    }
    const collectionId = collection.value
    const found = yield* client.collections.getCollectionById({ params: { collectionId } })
    if (found.organization !== organizationId) {
      return yield* new CliFailure({
        message: `Collection ${collectionId} belongs to organization ${found.organization}, not ${organizationId}`
      })
    }
    const spaces = yield* Pages.collect(
      (query) => client.collections.listSpacesInCollectionById({ params: { collectionId }, query }),
      { limit, pageSize }
    )
    yield* Output.printList(spaces, columns, `No spaces in collection ${collectionId}.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List the spaces of an organization, in all its collections (or directly in one)"),
  Command.withAlias("ls"),
  Command.withExamples([{ command: "quire spaces list ORG_ID --collection COLLECTION_ID" }])
)

const get = Command.make(
  "get",
  { spaceId },
  Effect.fn("quire.spaces.get")(function*({ spaceId }) {
    const client = yield* QuireClient
    yield* Output.print(yield* client.spaces.getSpaceById({ params: { spaceId }, query: {} }), showSpace)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Show a space")
)

const create = Command.make(
  "create",
  {
    organizationId,
    title: Argument.String("title").pipe(Argument.withDescription("The space's title")),
    emoji,
    collection: Flag.String("collection").pipe(
      Flag.withDescription("Create it in this collection (default: the organization's root)"),
      Flag.optional
    ),
    language
  },
  Effect.fn("quire.spaces.create")(function*({ collection, emoji, language, organizationId, title }) {
    const client = yield* QuireClient
    const space = yield* client.spaces.createSpace({
      params: { organizationId },
      payload: {
        title,
        ...Fields.optional("emoji", emoji),
        ...Fields.optional("parent", collection),
        ...Fields.optional("language", language)
      }
    })
    yield* Output.print(space, showSpace)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Create a space, at the organization's root or in a collection"),
  Command.withExamples([{ command: "quire spaces create ORG_ID Handbook --emoji 📘 --collection COLLECTION_ID" }])
)

const update = Command.make(
  "update",
  {
    spaceId,
    title: Flag.String("title").pipe(Flag.withDescription("New title"), Flag.optional),
    emoji: Flag.String("emoji").pipe(
      Flag.withDescription("New emoji (character or hex codepoints); an empty string removes it"),
      Flag.optional
    ),
    visibility: Flag.Literals("visibility", Visibility.literals).pipe(
      Flag.withDescription("Who can read the published content"),
      Flag.optional
    ),
    editMode: Flag.Literals("edit-mode", EditMode.literals).pipe(
      Flag.withDescription("live: edit directly; locked: only through change requests"),
      Flag.optional
    ),
    defaultLevel: defaultLevelFlag,
    language
  },
  Effect.fn("quire.spaces.update")(function*({ defaultLevel, editMode, emoji, language, spaceId, title, visibility }) {
    const payload = {
      ...Fields.optional("title", title),
      ...Fields.optional("emoji", Option.map(emoji, (emoji) => (emoji === "" ? null : emoji))),
      ...Fields.optional("visibility", visibility),
      ...Fields.optional("editMode", editMode),
      ...Fields.optional("defaultLevel", Option.map(defaultLevel, toDefaultLevel)),
      ...Fields.optional("language", language)
    }
    if (Object.keys(payload).length === 0) {
      return yield* new CliFailure({
        message: "Nothing to update: pass --title, --emoji, --visibility, --edit-mode, --default-level or --language"
      })
    }
    const client = yield* QuireClient
    yield* Output.print(yield* client.spaces.updateSpaceById({ params: { spaceId }, payload }), showSpace)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Change a space's settings"),
  Command.withExamples([{ command: "quire spaces update SPACE_ID --visibility public --default-level read" }])
)

const remove = Command.make(
  "delete",
  { spaceId },
  Effect.fn("quire.spaces.delete")(function*({ spaceId }) {
    const client = yield* QuireClient
    yield* client.spaces.deleteSpaceById({ params: { spaceId } })
    yield* Output.done(
      `Moved space ${spaceId} to the trash; \`quire spaces restore ${spaceId}\` brings it back within 7 days.`
    )
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Move a space to the trash (restorable for 7 days)")
)

const restore = Command.make(
  "restore",
  { spaceId },
  Effect.fn("quire.spaces.restore")(function*({ spaceId }) {
    const client = yield* QuireClient
    yield* Output.print(yield* client.spaces.restoreSpace({ params: { spaceId } }), showSpace)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Take a space out of the trash (within 7 days of its deletion)")
)

const duplicate = Command.make(
  "duplicate",
  { spaceId },
  Effect.fn("quire.spaces.duplicate")(function*({ spaceId }) {
    const client = yield* QuireClient
    yield* Output.print(yield* client.spaces.duplicateSpace({ params: { spaceId } }), showSpace)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Copy a space, with its current content, beside the original as \"<title> (copy)\"")
)

const move = Command.make(
  "move",
  { spaceId, ...Moves.flags("space") },
  Effect.fn("quire.spaces.move")(function*({ spaceId, ...where }) {
    const payload = yield* Moves.payload("space", where)
    const client = yield* QuireClient
    yield* Output.print(yield* client.spaces.moveSpace({ params: { spaceId }, payload }), showSpace)
  })
).pipe(
  Moves.validate("space"),
  Command.provide(QuireClient.layer),
  Command.withDescription("Move a space into a collection or to the root, and/or beside a sibling"),
  Command.withExamples([
    { command: "quire spaces move SPACE_ID --collection COLLECTION_ID", description: "Into a collection, at the end" },
    { command: "quire spaces move SPACE_ID --before OTHER_SPACE_ID", description: "Just before a sibling" },
    { command: "quire spaces move SPACE_ID --root --after collection:COLLECTION_ID" }
  ])
)

const transfer = Command.make(
  "transfer",
  {
    spaceId,
    organization: Argument.String("org-id").pipe(Argument.withDescription("The organization to move it to"))
  },
  Effect.fn("quire.spaces.transfer")(function*({ organization, spaceId }) {
    const client = yield* QuireClient
    const space = yield* client.spaces.transferSpace({ params: { spaceId }, payload: { organization } })
    yield* Output.print(space, showSpace)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Move a space to the root of another organization where you are an admin")
)

/** `quire spaces ...` */
export const spaces = Command.make("spaces").pipe(
  Command.withDescription("Manage the spaces of an organization and search their content"),
  Command.withSubcommands([
    list,
    get,
    create,
    update,
    remove,
    restore,
    duplicate,
    move,
    transfer,
    SearchCommands.inSpace
  ])
)
