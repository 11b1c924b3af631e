/**
 * Where `spaces move` and `collections move` put things: a parent collection (`--collection ID`
 * for a space, `--parent ID` for a collection, as when creating them) or `--root`, and/or a
 * place beside a sibling (`--before`/`--after`). A sibling is named by its id, of the same kind
 * as what moves, or as `space:ID` / `collection:ID`.
 */
import { Effect, Option } from "effect"
import { CliError, Command, Flag } from "effect/cli"
import type { ContentPointer as ContentPointerSchema, MovePayload as MovePayloadSchema } from "@quire/api"
import { CliFailure } from "./Failure.ts"
import * as Fields from "./Fields.ts"

export type Kind = "space" | "collection"

const parentFlag = (kind: Kind) => (kind === "space" ? "--collection" : "--parent")

type ContentPointer = typeof ContentPointerSchema.Type
type MovePayload = typeof MovePayloadSchema.Type

const pointer = (kind: Kind) => (value: string): ContentPointer => {
  const typed = /^(space|collection):(.+)$/.exec(value)
  const [type, id] = typed === null ? [kind, value] : [typed[1], typed[2] ?? ""]
  return type === "collection" ? { type: "collection", collection: id } : { type: "space", space: id }
}

const sibling = (name: "before" | "after", kind: Kind) =>
  Flag.String(name).pipe(
    Flag.withDescription(`Place it just ${name} this sibling: a ${kind}'s id, or space:ID / collection:ID`),
    Flag.map(pointer(kind)),
    Flag.optional
  )

/** The flags of a move command for a `kind`. */
export const flags = (kind: Kind) => ({
  parent: Flag.String(parentFlag(kind).slice(2)).pipe(
    Flag.withDescription("Move it into this collection"),
    Flag.optional
  ),
  root: Flag.Boolean("root").pipe(
    Flag.withDescription("Move it to the organization's root"),
    Flag.withDefault(false)
  ),
  before: sibling("before", kind),
  after: sibling("after", kind)
})

export interface Options {
  readonly parent: Option.Option<string>
  readonly root: boolean
  readonly before: Option.Option<ContentPointer>
  readonly after: Option.Option<ContentPointer>
}

const contradictions = (kind: Kind) => (options: Options): Effect.Effect<void, CliError.CliError> => {
  if (Option.isSome(options.parent) && options.root) {
    return Effect.fail(new CliError.ValidationError({ message: `Pass ${parentFlag(kind)} or --root, not both` }))
  }
  if (Option.isSome(options.before) && Option.isSome(options.after)) {
    return Effect.fail(new CliError.ValidationError({ message: "Pass --before or --after, not both" }))
  }
  return Effect.void
}

/** Rejects flags that contradict each other, as a command line that does not parse (exit status 2). */
export const validate = (kind: Kind) =>
<Name extends string, Input extends Options, ContextInput, E, R>(
  self: Command.Command<Name, Input, ContextInput, E, R>
): Command.Command<Name, Input, ContextInput, E, R> => Command.validate<Input>(contradictions(kind))(self)

/** The body of the move operation; fails when the flags ask for no move at all. */
export const payload = (kind: Kind, options: Options): Effect.Effect<MovePayload, CliFailure> => {
  const parent = options.root ? Option.some(null) : options.parent
  const position = Option.isNone(options.before) && Option.isNone(options.after)
    ? Option.none()
    : Option.some({ ...Fields.optional("before", options.before), ...Fields.optional("after", options.after) })
  if (Option.isNone(parent) && Option.isNone(position)) {
    return Effect.fail(
      new CliFailure({ message: `Nothing to move: pass ${parentFlag(kind)}, --root, --before or --after` })
    )
  }
  return Effect.succeed({ ...Fields.optional("parent", parent), ...Fields.optional("position", position) })
}
