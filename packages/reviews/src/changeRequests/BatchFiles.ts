/**
 * The files of a batch of changes made ready before the batch is applied: inline files checked
 * against the limits, files by URL fetched (through OutboundFetch) within what the batch's byte
 * budget leaves, then all of them stored in the content's file store.
 */
import { Effect } from "effect"
import { Errors } from "@quire/kernel"
import { contentTypeOf as typeOfName, type FileNode, isMediaType, SpaceContent } from "@quire/content"
import { OutboundFetch } from "@quire/outbound"
import type { ChangeInput, FileInput, StoredFileInput } from "./ChangeRequestTypes.ts"
import type { Change } from "../ChangeSet.ts"

/** Inline files (base64 in the JSON body) of an `insert_files` change may be at most this large. */
export const maxFileBytes = 1024 * 1024
/** Files one batch may add (inline or by URL), and their bytes in total. */
export const maxBatchFiles = 20
export const maxBatchFileBytes = 8 * 1024 * 1024
/** The time limit of fetching one file of an `insert_files` change by URL. */
export const fileFetchTimeout = "20 seconds"

/**
 * A fetched file's content type: the response's (without parameters) when it is a media type,
 * else guessed from its name, else `application/octet-stream`. What another server sends is never
 * stored unchecked: a file is served with its content type.
 */
const contentTypeOf = (header: string, name: string): string => {
  const essence = header.split(";")[0]!.trim().toLowerCase()
  const fromHeader = isMediaType(essence) ? essence : ""
  if (fromHeader !== "" && fromHeader !== "application/octet-stream") return fromHeader
  const byName = typeOfName(name)
  return byName !== "application/octet-stream" || fromHeader === "" ? byName : fromHeader
}

const overBudget = (bytes: number) =>
  new Errors.InvalidInput({
    field: "changes",
    reason: `the files of a batch hold at most ${maxBatchFileBytes} bytes in total, this one ${bytes} or more; no change of the batch was applied`
  })

/** Inline files within the limits of one file and of a batch; what they leave of the batch's byte budget. */
const checkInline = (changes: ReadonlyArray<ChangeInput>): Effect.Effect<number, Errors.InvalidInput> => {
  for (const [index, change] of changes.entries()) {
    if (change.operation !== "insert_files") continue
    const tooLarge = change.files.find((f): f is FileInput => "bytes" in f && f.bytes.byteLength > maxFileBytes)
    if (tooLarge !== undefined) {
      return Effect.fail(new Errors.InvalidInput({
        field: `changes[${index}]`,
        reason: `insert_files: ${JSON.stringify(tooLarge.name)} is larger than ${maxFileBytes} bytes`
      }))
    }
  }
  const files = changes.flatMap((change) => change.operation === "insert_files" ? change.files : [])
  if (files.length > maxBatchFiles) {
    return Effect.fail(new Errors.InvalidInput({ field: "changes", reason: `a batch adds at most ${maxBatchFiles} files, this one ${files.length}` }))
  }
  const budget = maxBatchFileBytes - files.reduce((sum, f) => sum + ("bytes" in f ? f.bytes.byteLength : 0), 0)
  return budget < 0 ? Effect.fail(overBudget(maxBatchFileBytes - budget)) : Effect.succeed(budget)
}

/** Built by the ChangeRequests layer. */
export const make = Effect.gen(function*() {
  const outbound = yield* OutboundFetch
  const content = yield* SpaceContent

  /**
   * The files of each change (none for changes that add no files), inline ones checked and those by
   * URL fetched, before anything is stored; one that fails refuses the batch.
   */
  const fetchAll = Effect.fnUntraced(function*(changes: ReadonlyArray<ChangeInput>) {
    // What the batch's inline files leave of the byte budget bounds what its URLs may fetch.
    let budget = yield* checkInline(changes)
    const fetched: Array<ReadonlyArray<FileInput | StoredFileInput>> = []
    for (const [index, change] of changes.entries()) {
      if (change.operation !== "insert_files") {
        fetched.push([])
        continue
      }
      fetched.push(yield* Effect.forEach(change.files, (f): Effect.Effect<FileInput | StoredFileInput, Errors.InvalidInput> =>
        !("url" in f)
          ? Effect.succeed(f)
          : Effect.suspend(() =>
            budget <= 0
              ? Effect.fail(overBudget(maxBatchFileBytes - budget + 1))
              // A file by URL (an image pasted from another site, say) may take what is left of the
              // batch's budget: its bytes never cross the JSON body, so the inline bound is not its.
              : outbound.get(f.url, { maxBytes: budget, timeout: fileFetchTimeout }).pipe(
                Effect.mapError((error) =>
                  error.reason === "too-large"
                    ? overBudget(maxBatchFileBytes + 1)
                    : new Errors.InvalidInput({
                      field: `changes[${index}]`,
                      reason: `insert_files: ${JSON.stringify(f.name)}: cannot fetch ${f.url} (${error.reason}: ${error.message}); ` +
                        "no change of the batch was applied"
                    })
                ),
                Effect.tap((response) => Effect.sync(() => { budget -= response.body.byteLength })),
                Effect.flatMap((response) => budget < 0 ? Effect.fail(overBudget(maxBatchFileBytes - budget)) : Effect.succeed(response))
              )
          ).pipe(
            Effect.map((response): FileInput => ({
              name: f.name,
              contentType: f.contentType ?? contentTypeOf(response.contentType, f.name),
              bytes: response.body
            }))
          ), { concurrency: 4 }))
    }
    return fetched
  })

  /**
   * Stores the files `fetchAll` made ready; the changes as the ChangeSet applies them, and the
   * stored files. Bytes are content-addressed: storing them for a batch that is then refused
   * leaves only unreferenced blobs; they count against the quota with the revision that points to them.
   */
  const store = Effect.fnUntraced(function*(organizationId: string, changes: ReadonlyArray<ChangeInput>, fetched: ReadonlyArray<ReadonlyArray<FileInput | StoredFileInput>>) {
    const prepared: Array<Change> = []
    const insertedFiles: Array<FileNode> = []
    for (const [index, change] of changes.entries()) {
      if (change.operation !== "insert_files") {
        prepared.push(change)
        continue
      }
      const stored = yield* Effect.forEach(fetched[index]!, (f) =>
        Effect.tap("stored" in f ? Effect.succeed(f.stored) : content.storeFile(organizationId, f), (node) => Effect.sync(() => insertedFiles.push(node))))
      prepared.push({ operation: "insert_files", files: stored })
    }
    return { prepared, insertedFiles }
  })

  return { fetchAll, store }
})

export type BatchFiles = Effect.Success<typeof make>
