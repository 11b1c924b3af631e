/**
 * The reader's side of specs: a spec's latest version as one document, its `$ref`s resolved, for
 * rendering in published content. No Actor: the caller (the site renderer) has decided who reads;
 * the organization's specs of any visibility are read, as its content embeds them.
 */
import { Context, Effect, Layer, Option } from "effect"
import { BoundedCache } from "@quire/kernel"
import type { SpecFile } from "./domain/Spec.ts"
import { SpecsRepo } from "./SpecsRepo.ts"

/** A spec's latest version and its entry document with every `$ref` it can resolve replaced. */
export interface LatestDocument {
  readonly versionId: string
  readonly document: Readonly<Record<string, unknown>>
}

export interface SpecDocumentsShape {
  /** The latest version's id only (cheap: one read of the spec's record). */
  readonly latestVersionId: (organizationId: string, slug: string) => Effect.Effect<Option.Option<string>>
  /** The latest version and its resolved entry document; none without a spec or a version. */
  readonly latestDocument: (organizationId: string, slug: string) => Effect.Effect<Option.Option<LatestDocument>>
}

const decodePointer = (part: string): string => {
  try {
    return decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~")
  } catch {
    return part
  }
}

const at = (root: unknown, pointer: string): unknown => {
  let node = root
  for (const part of pointer.split("/").filter((p) => p !== "").map(decodePointer)) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, part)) return undefined
    node = (node as Record<string, unknown>)[part]
  }
  return node
}

const dirOf = (filename: string): string => (filename.includes("/") ? filename.slice(0, filename.lastIndexOf("/") + 1) : "")

/** `filename` of a reference made in `from`: as written, else relative to `from`'s folder. */
const fileFor = (files: ReadonlyMap<string, SpecFile>, from: string, ref: string): string | undefined => {
  if (files.has(ref)) return ref
  const joined = new URL(ref, `file:///${dirOf(from)}`).pathname.slice(1)
  return files.has(joined) ? joined : undefined
}

/** Bounds of a resolved document: nodes visited (shared subtrees count each time they appear). */
const maxNodes = 200_000

/**
 * The entry document of a version's filesystem with `$ref`s replaced by what they name (in the
 * same file or another file of the version). A cyclic or unresolvable reference stays `{ $ref }`.
 */
export const resolveDocument = (filesystem: ReadonlyArray<SpecFile>): Record<string, unknown> | undefined => {
  const entry = filesystem.find((f) => f.isEntrypoint) ?? filesystem[0]
  if (entry === undefined || typeof entry.specification !== "object" || entry.specification === null) return undefined
  const files = new Map(filesystem.map((f) => [f.filename, f] as const))
  let budget = maxNodes
  const walk = (node: unknown, file: string, stack: ReadonlyArray<string>): unknown => {
    if (--budget < 0 || typeof node !== "object" || node === null) return node
    if (Array.isArray(node)) return node.map((child) => walk(child, file, stack))
    const record = node as Record<string, unknown>
    const ref = record["$ref"]
    if (typeof ref === "string") {
      const [part, pointer = ""] = ref.split("#", 2) as [string, string?]
      const target = part === "" ? file : fileFor(files, file, part)
      const key = `${target}#${pointer}`
      if (target === undefined || stack.includes(key)) return { $ref: ref }
      const found = at(files.get(target)?.specification, pointer)
      if (found === undefined) return { $ref: ref }
      return walk(found, target, [...stack, key])
    }
    const out: Record<string, unknown> = {}
    for (const [key, child] of Object.entries(record)) out[key] = walk(child, file, stack)
    return out
  }
  return walk(entry.specification, entry.filename, []) as Record<string, unknown>
}

/** How many resolved documents a server keeps. */
const cacheSize = 50

export class SpecDocuments extends Context.Service<SpecDocuments, SpecDocumentsShape>()("@quire/specs/SpecDocuments") {
  static readonly layer = Layer.effect(
    SpecDocuments,
    Effect.gen(function*() {
      const repo = yield* SpecsRepo
      /** Resolved documents by version id (a version never changes), the last ones read; null where none resolves. */
      const resolved = yield* BoundedCache.make<string, Record<string, unknown> | null>({ name: "spec_documents", capacity: cacheSize })
      const latestVersionId = (organizationId: string, slug: string) =>
        Effect.map(repo.findBySlug(organizationId, slug), (spec) => Option.flatMap(spec, (s) => Option.fromNullishOr(s.lastVersionId)))
      return SpecDocuments.of({
        latestVersionId,
        latestDocument: (organizationId, slug) =>
          Effect.gen(function*() {
            const spec = yield* repo.findBySlug(organizationId, slug)
            if (Option.isNone(spec) || spec.value.lastVersionId === null) return Option.none()
            const versionId = spec.value.lastVersionId
            let document = resolved.get(versionId)
            if (document === undefined) {
              const version = yield* repo.findVersion(spec.value.id, versionId)
              if (Option.isNone(version)) return Option.none()
              document = resolveDocument(version.value.filesystem) ?? null
              resolved.set(versionId, document)
            }
            return document === null ? Option.none() : Option.some({ versionId, document })
          })
      })
    })
  )
}
