/** `quire collections`: the nested folders of spaces of an organization. */
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { Collection } from "@quire/api"
import { CliFailure } from "../Failure.ts"
import * as Fields from "../Fields.ts"
import * as Moves from "../Moves.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"
import { organizationId } from "./OrganizationsCommands.ts"
import * as SpacesCommands from "./SpacesCommands.ts"

const columns: ReadonlyArray<Output.Column<Collection>> = [
  { header: "id", value: (collection) => collection.id },
  { header: "title", value: (collection) => collection.title },
  { header: "parent", value: (collection) => collection.parent ?? "" },
  { header: "default level", value: (collection) => SpacesCommands.showDefaultLevel(collection.defaultLevel) },
  { header: "description", value: (collection) => collection.description ?? "" }
]

const showCollection = (collection: Collection) =>
  Output.details([
    ["id", collection.id],
    ["title", collection.title],
    ["description", collection.description],
    ["organization", collection.organization],
    ["parent", collection.parent],
    ["default level", SpacesCommands.showDefaultLevel(collection.defaultLevel)],
    ["admin", Output.yesNo(collection.permissions.admin)],
    ["url", collection.urls.app]
  ])

const collectionId = Argument.String("collection-id").pipe(Argument.withDescription("The collection's id"))

const list = Command.make(
  "list",
  {
    organizationId,
    topLevel: Flag.Boolean("top-level").pipe(
      Flag.withDescription("Only the collections at the organization's root (default: every level)"),
      Flag.withDefault(false)
    ),
    ...Pages.flags
  },
  Effect.fn("quire.collections.list")(function*({ limit, organizationId, pageSize, topLevel }) {
    const client = yield* QuireClient
    const collections = yield* Pages.collect(
      (page) =>
        client.collections.listCollectionsInOrganizationById({
          params: { organizationId },
          query: topLevel ? { nested: false, ...page } : page
        }),
      { limit, pageSize }
    )
    yield* Output.printList(collections, columns, "No collections yet (quire collections create ORG_ID TITLE).")
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List the collections of an organization, at every level unless --top-level"),
  Command.withAlias("ls")
)

const get = Command.make(
  "get",
  { collectionId },
  Effect.fn("quire.collections.get")(function*({ collectionId }) {
    const client = yield* QuireClient
    yield* Output.print(yield* client.collections.getCollectionById({ params: { collectionId } }), showCollection)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Show a collection")
)

const description = (what: string) =>
  Flag.String("description").pipe(Flag.withDescription(what), Flag.optional)

const create = Command.make(
  "create",
  {
    organizationId,
    title: Argument.String("title").pipe(Argument.withDescription("The collection's title")),
    parent: Flag.String("parent").pipe(
      Flag.withDescription("Create it inside this collection (default: the organization's root)"),
      Flag.optional
    ),
    description: description("A short description (at most 100 characters)")
  },
  Effect.fn("quire.collections.create")(function*({ description, organizationId, parent, title }) {
    const client = yield* QuireClient
    const collection = yield* client.collections.createCollection({
      params: { organizationId },
      payload: { title, ...Fields.optional("parent", parent), ...Fields.optional("description", description) }
    })
    yield* Output.print(collection, showCollection)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Create a collection, at the organization's root or inside another one"),
  Command.withExamples([{ command: "quire collections create ORG_ID Guides --parent COLLECTION_ID" }])
)

const update = Command.make(
  "update",
  {
    collectionId,
    title: Flag.String("title").pipe(Flag.withDescription("New title"), Flag.optional),
    description: description("New description; an empty string removes it"),
    defaultLevel: SpacesCommands.defaultLevelFlag
  },
  Effect.fn("quire.collections.update")(function*({ collectionId, defaultLevel, description, title }) {
    const payload = {
      ...Fields.optional("title", title),
      ...Fields.optional("description", description),
      ...Fields.optional("defaultLevel", Option.map(defaultLevel, SpacesCommands.toDefaultLevel))
    }
    if (Object.keys(payload).length === 0) {
      return yield* new CliFailure({ message: "Nothing to update: pass --title, --description or --default-level" })
    }
    const client = yield* QuireClient
    const collection = yield* client.collections.updateCollectionById({ params: { collectionId }, payload })
    yield* Output.print(collection, showCollection)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Change a collection's title, description or default level")
)

const remove = Command.make(
  "delete",
  { collectionId },
  Effect.fn("quire.collections.delete")(function*({ collectionId }) {
    const client = yield* QuireClient
    yield* client.collections.deleteCollectionById({ params: { collectionId } })
    yield* Output.done(`Deleted collection ${collectionId}; what it contained moved up to its parent.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Delete a collection; its spaces and sub-collections move up to its parent")
)

const spaces = Command.make(
  "spaces",
  { collectionId, ...Pages.flags },
  Effect.fn("quire.collections.spaces")(function*({ collectionId, ...pages }) {
    const client = yield* QuireClient
    const spaces = yield* Pages.collect(
      (query) => client.collections.listSpacesInCollectionById({ params: { collectionId }, query }),
      pages
    )
    yield* Output.printList(spaces, SpacesCommands.columns, `No spaces in collection ${collectionId}.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List the spaces directly in a collection, in their order")
)

const move = Command.make(
  "move",
  { collectionId, ...Moves.flags("collection") },
  Effect.fn("quire.collections.move")(function*({ collectionId, ...where }) {
    const payload = yield* Moves.payload("collection", where)
    const client = yield* QuireClient
    yield* Output.print(yield* client.collections.moveCollection({ params: { collectionId }, payload }), showCollection)
  })
).pipe(
  Moves.validate("collection"),
  Command.provide(QuireClient.layer),
  Command.withDescription("Move a collection into another one or to the root, and/or beside a sibling"),
  Command.withExamples([
    { command: "quire collections move COLLECTION_ID --root" },
    { command: "quire collections move COLLECTION_ID --after space:SPACE_ID" }
  ])
)

const transfer = Command.make(
  "transfer",
  {
    collectionId,
    organization: Argument.String("org-id").pipe(Argument.withDescription("The organization to move it to"))
  },
  Effect.fn("quire.collections.transfer")(function*({ collectionId, organization }) {
    const client = yield* QuireClient
    const collection = yield* client.collections.transferCollection({
      params: { collectionId },
      payload: { organization }
    })
    yield* Output.print(collection, showCollection)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Move a collection, with everything inside, to another organization where you are an admin")
)

/** `quire collections ...` */
export const collections = Command.make("collections").pipe(
  Command.withDescription("Manage the collections (nested folders of spaces) of an organization"),
  Command.withSubcommands([list, get, create, update, remove, spaces, move, transfer])
)
