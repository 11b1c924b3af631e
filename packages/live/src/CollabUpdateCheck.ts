/**
 * A live update is input like any other: before it is stored or acknowledged, it is tried on a copy of
 * the shared document (kept in step with the one Hocuspocus holds) and what it changed is checked:
 * only the one root the page reads, and there the block schema of `@quire/document` (node types,
 * nesting, attribute types and ranges) and the markdown limits of a page. Only the parts the update
 * touched are read, so typing in a long page costs about what the paragraph typed in costs.
 */
import { type Node, type NodeType, type Schema } from "@tiptap/pm/model"
import { attributeProblem } from "@quire/document"
import { defaultRevisionLimits, describeBreach, markdownLimitBreach } from "@quire/content"
import * as Y from "yjs"

/** Why a change may not be kept (words an editor is shown), or undefined when it may. */
export type Problem = string | undefined

/** What checks the change one update made to the copy of a shared document (the codec's part of the check). */
export interface ChangeCheck {
  /** The one root of the shared document the page reads (TipTap's XmlFragment `default`); an update may touch no other. */
  readonly root: string
  /** The root's Yjs type: TipTap's Y.XmlFragment, or a Y.Text. */
  readonly shape: "xml" | "text"
  /** Why the change `transaction` made to `doc` (the copy the update was applied to) may not be kept. */
  readonly check: (doc: Y.Doc, transaction: Y.Transaction) => Problem
}

/** Not kept: the words say why. */
class Refusal extends Error {}

const refuse = (words: string): never => {
  throw new Refusal(words)
}

/** Blocks inside each other, at most (the markdown limits allow 32 lists or quotes, 32 GitBook blocks). */
const maxDepth = 256

/** y-prosemirror's name of a mark that may occur twice (`link--a1b2c3d4`) is the mark's name. */
const markName = (attribute: string): string => /(.*)(--[a-zA-Z0-9+/=]{8})$/.exec(attribute)?.[1] ?? attribute

/** The inline nodes of a Y.XmlText, as y-prosemirror reads them, with each mark checked against the schema. */
const readText = (schema: Schema, text: Y.XmlText): Array<Node> =>
  text.toDelta().map((delta: { insert: unknown; attributes?: Record<string, unknown> }) => {
    if (typeof delta.insert !== "string") return refuse("text holds something other than text")
    const marks = Object.entries(delta.attributes ?? {}).map(([attribute, attrs]) => {
      const type = schema.marks[markName(attribute)]
      if (type === undefined) return refuse(`there is no mark ${JSON.stringify(markName(attribute).slice(0, 40))}`)
      if (typeof attrs !== "object" || attrs === null || Array.isArray(attrs)) return refuse(`the ${type.name} mark's attributes are not an object`)
      const problem = attributeProblem(type, attrs as Record<string, unknown>)
      if (problem !== undefined) refuse(problem)
      return type.create(attrs as Record<string, unknown>)
    })
    return schema.text(delta.insert, marks)
  })

/**
 * The ProseMirror node of a Y.XmlElement as y-prosemirror reads it, every node and mark in it checked
 * against the schema (`node.check()`: content, marks, attributes), refusing instead of dropping what
 * does not fit as y-prosemirror does.
 */
const readElement = (schema: Schema, element: Y.XmlElement, depth = 0): Node => {
  if (depth > maxDepth) return refuse(`blocks are nested more than ${maxDepth} deep`)
  const type: NodeType | undefined = schema.nodes[element.nodeName]
  if (type === undefined || type === schema.topNodeType || type.isText) return refuse(`there is no block ${JSON.stringify(element.nodeName.slice(0, 40))}`)
  const attrs = element.getAttributes() as Record<string, unknown>
  const problem = attributeProblem(type, attrs)
  if (problem !== undefined) return refuse(problem)
  const children: Array<Node> = []
  for (const child of element.toArray()) {
    if (child instanceof Y.XmlElement) children.push(readElement(schema, child, depth + 1))
    else if (child instanceof Y.XmlText) children.push(...readText(schema, child))
    else refuse(`${type.name} holds something that is no block`)
  }
  const node = type.create(attrs, children)
  try {
    node.check()
  } catch (error) {
    const holds = children.map((child) => child.type.name).filter((name, index, all) => all.indexOf(name) === index).join(", ")
    refuse(holds === "" ? `${type.name} cannot be empty` : `${type.name} cannot hold ${holds}${error instanceof Error && /mark/i.test(error.message) ? " with those marks" : ""}`)
  }
  return node
}

/**
 * What `transaction` added to `parent` and did not delete, found among the structs it integrated (as
 * many as the update holds): each a type, or undefined for content that is none (text, a value).
 */
const addedTo = (doc: Y.Doc, transaction: Y.Transaction, parent: Y.AbstractType<any>): Array<Y.AbstractType<any> | undefined> => {
  const added: Array<Y.AbstractType<any> | undefined> = []
  for (const [client, structs] of doc.store.clients) {
    const before = transaction.beforeState.get(client) ?? 0
    const last = structs[structs.length - 1]
    if (last === undefined || last.id.clock + last.length <= before) continue
    for (let index = before === 0 ? 0 : Y.findIndexSS(structs, before); index < structs.length; index++) {
      const item = structs[index]
      if (!(item instanceof Y.Item) || item.deleted || item.parent !== parent) continue
      added.push(item.content instanceof Y.ContentType ? item.content.type : undefined)
    }
  }
  return added
}

/** The block of the page's top level that holds `element`. */
const topOf = (element: Y.XmlElement): Y.XmlElement => {
  let current = element
  while (current.parent instanceof Y.XmlElement) current = current.parent
  return current
}

/** The type's top-level ancestor (a root), and whether it or an ancestor is deleted. */
const rootOf = (type: Y.AbstractType<any>): { readonly root: Y.AbstractType<any>; readonly deleted: boolean } => {
  let current = type
  let deleted = false
  while (current._item !== null) {
    if (current._item.deleted) deleted = true
    current = current._item.parent as Y.AbstractType<any>
  }
  return { root: current, deleted }
}

/**
 * The check of a page's shared document against the block schema: the blocks an update added or
 * changed are read as the editor reads them and must fit the schema; a change other than typing
 * (new blocks, attributes, marks) also keeps each top-level block it touched within a page's
 * markdown limits. `markdownOf` is the codec's markdown of one top-level block.
 */
export const documentCheck = (schema: Schema, markdownOf: (block: Node) => string, root = "default"): ChangeCheck => ({
  root,
  shape: "xml",
  check: (doc, transaction) => {
    const fragment = doc.getXmlFragment(root)
    try {
      const elements = new Set<Y.XmlElement>()
      let fragmentChanged = false
      let typing = true
      for (const [type, keys] of transaction.changed) {
        const found = rootOf(type)
        if (found.root !== fragment) return `an edit may change only the page's document (${root})`
        if (found.deleted) continue
        if (type instanceof Y.XmlText) {
          if (keys.size !== 1 || !keys.has(null)) return "text has no attributes"
          const parent = type.parent
          if (parent instanceof Y.XmlElement) elements.add(parent)
          else return "text is outside a block"
          continue
        }
        typing = false
        // What only lost children was valid before: emptied by deletions that together went further than
        // each (two people deleting the last two items of a list), it is read by the editor as by the
        // codec, which leave an empty block out; refusing the second deletion would stop its typist.
        const onlyDeleted = keys.size === 1 && keys.has(null) && addedTo(doc, transaction, type).length === 0
        if ((type as Y.AbstractType<any>) === fragment) {
          if (keys.size !== 1 || !keys.has(null)) return "the page itself has no attributes"
          fragmentChanged = !onlyDeleted
        } else if (type instanceof Y.XmlElement) {
          if (!onlyDeleted) elements.add(type)
        } else return "the page holds something that is no block"
      }
      // Top-level blocks whose markdown is checked against the limits, by their Y.XmlElement.
      const touched = new Map<Y.XmlElement, Node | undefined>()
      if (fragmentChanged) {
        // The page is `block+`: any block anywhere (emptied only by deletions, above). Only the blocks the
        // update added are read, not every block of a long page at each new paragraph.
        for (const child of addedTo(doc, transaction, fragment)) {
          if (!(child instanceof Y.XmlElement)) return "the page holds text outside a block"
          const type = schema.nodes[child.nodeName]
          if (type === undefined || schema.topNodeType.contentMatch.matchType(type) === null) {
            return `there is no top-level block ${JSON.stringify(child.nodeName.slice(0, 40))}`
          }
          touched.set(child, readElement(schema, child))
        }
      }
      for (const element of elements) {
        const node = readElement(schema, element)
        const top = topOf(element)
        // Typing is checked against the limits in a top-level block only (read already); any other change, in every block it touched.
        if (top === element) touched.set(top, node)
        else if (!typing && !touched.has(top)) touched.set(top, undefined)
      }
      for (const [element, read] of touched) {
        const markdown = markdownOf(read ?? readElement(schema, element))
        if (Buffer.byteLength(markdown) > defaultRevisionLimits.documentBytes) {
          return `a block's markdown would take more than ${defaultRevisionLimits.documentBytes / 1024 / 1024} MiB, a page's limit`
        }
        const breach = markdownLimitBreach(markdown)
        if (breach !== undefined) return `a block would be over ${describeBreach(breach).replace(/; line \d+ reaches/, ", found")}`
      }
      return undefined
    } catch (error) {
      if (error instanceof Refusal) return error.message
      if (error instanceof RangeError && /call stack/.test(error.message)) return `blocks are nested too deep`
      throw error
    }
  }
})

/** A check for a shared document of one root holding anything (the plain-text documents of tests). */
export const rootOnly = (root: string): ChangeCheck => ({
  root,
  shape: "text",
  check: (doc, transaction) => {
    const own = doc.share.get(root)
    for (const type of transaction.changed.keys()) if (rootOf(type).root !== own) return `an edit may change only the page's document (${root})`
    return undefined
  }
})

/**
 * Why an update is not tried: it builds on edits the server does not have. An editor that reconnects
 * (after a dropped socket or a refusal that passes) may send what it types next before the answer to
 * the server's sync, which carries what the old connection never delivered: nothing is wrong with
 * the edit, and the editor is asked to sync again (CollabDocuments' `refusal.resync`).
 */
export const gap = "the edit builds on edits the server does not have"

/**
 * Why `update` would not apply whole to `live`: it starts past what the document holds of a client,
 * or refers to items (neighbours, parents, deletions) the document lacks and the update does not
 * bring. Read from the update alone, so that what the copy holds and the document does not (a
 * refused update's tombstones) never passes for known.
 */
const missingFrom = (live: Y.Doc, update: Uint8Array): Problem => {
  const known = Y.decodeStateVector(Y.encodeStateVector(live))
  const { structs, ds } = Y.decodeUpdate(update)
  const reached = new Map<number, number>()
  const reach = (client: number) => reached.get(client) ?? known.get(client) ?? 0
  for (const struct of structs) {
    if (struct instanceof Y.Skip || struct.id.clock > reach(struct.id.client)) return gap
    reached.set(struct.id.client, Math.max(reach(struct.id.client), struct.id.clock + struct.length))
  }
  const has = (id: Y.ID | null) => id === null || id.clock < reach(id.client)
  for (const struct of structs) {
    if (!(struct instanceof Y.Item)) continue
    if (!has(struct.origin) || !has(struct.rightOrigin) || (struct.parent instanceof Y.ID && !has(struct.parent))) return gap
  }
  for (const [client, deletes] of ds.clients) for (const deleted of deletes) if (deleted.clock + deleted.len > reach(client)) return gap
  return undefined
}

/** A copy of a shared document Hocuspocus holds, kept in step with it. */
interface Mirror {
  readonly live: Y.Doc
  readonly copy: Y.Doc
  readonly follow: (update: Uint8Array) => void
}

/**
 * The copies of the shared documents a server holds, by name, each made when an update first comes
 * for its document and kept in step with it (every update the document takes is applied to the copy
 * too; one already tried there changes nothing). An update is tried on the copy, and refused when it
 * does not fit: what it added is then deleted in the copy, which reads as the document again (an
 * update that builds on it is refused before it is tried, `missingFrom`); one that deleted what
 * was there, or failed to be stored, has the copy made anew, which costs what loading the
 * document costs.
 */
export const makeMirrors = (check: ChangeCheck) => {
  const mirrors = new Map<string, Mirror>()
  let made = 0

  const forget = (name: string): void => {
    const mirror = mirrors.get(name)
    if (mirror === undefined) return
    mirrors.delete(name)
    mirror.live.off("update", mirror.follow)
    mirror.copy.destroy()
  }

  const mirrorOf = (name: string, live: Y.Doc): Mirror => {
    const known = mirrors.get(name)
    if (known !== undefined && known.live === live) return known
    forget(name)
    // Hocuspocus destroys a document it unloads: its copy goes with it.
    live.once("destroy", () => mirrors.get(name)?.live === live && forget(name))
    made += 1
    const copy = new Y.Doc()
    // The root typed before anything is applied: the changes are then recorded on the type the check reads.
    if (check.shape === "xml") copy.getXmlFragment(check.root)
    else copy.getText(check.root)
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(live))
    const follow = (update: Uint8Array) => Y.applyUpdate(copy, update)
    live.on("update", follow)
    const mirror = { live, copy, follow }
    mirrors.set(name, mirror)
    return mirror
  }

  /**
   * Takes back from the copy what `transaction` (a refused update) added, when it deleted nothing
   * that was there before it; false when it did (the copy must be made anew).
   */
  const takeBack = (copy: Y.Doc, transaction: Y.Transaction): boolean => {
    for (const [client, deletes] of transaction.deleteSet.clients) {
      if (deletes.some((deleted) => deleted.clock < (transaction.beforeState.get(client) ?? 0))) return false
    }
    Y.transact(copy, (undo) => {
      for (const [client, structs] of copy.store.clients) {
        const before = transaction.beforeState.get(client) ?? 0
        if (Y.getState(copy.store, client) <= before) continue
        // Yjs may have merged the update's first item into the one before it: split there, keep that one.
        Y.getItemCleanStart(undo, Y.createID(client, before))
        for (let index = Y.findIndexSS(structs, before); index < structs.length; index++) {
          const struct = structs[index]
          if (struct instanceof Y.Item && !struct.deleted) struct.delete(undo)
        }
      }
    })
    return true
  }

  /** Why `update` to the shared document `live` (held as `name`) may not be stored; undefined when it may. */
  const tryUpdate = (name: string, live: Y.Doc, update: Uint8Array): Problem => {
    let problem: Problem
    try {
      problem = missingFrom(live, update)
    } catch {
      problem = "the server could not read the edit"
    }
    if (problem !== undefined) return problem
    const { copy } = mirrorOf(name, live)
    const roots = new Set(copy.share.keys())
    let tried: Y.Transaction | undefined
    try {
      Y.transact(copy, (transaction) => {
        tried = transaction
        Y.applyUpdate(copy, update)
        for (const key of copy.share.keys()) {
          if (!roots.has(key) && key !== check.root) {
            problem = `an edit may change only the page's document (${check.root})`
            return
          }
        }
        problem = check.check(copy, transaction)
      })
      if (problem === undefined && (copy.store.pendingStructs !== null || copy.store.pendingDs !== null)) problem = gap
      if (problem !== undefined && (copy.store.pendingStructs !== null || copy.store.pendingDs !== null || tried === undefined || !takeBack(copy, tried))) forget(name)
    } catch {
      problem = "the server could not read the edit"
      forget(name)
    }
    return problem
  }

  return {
    tryUpdate,
    forget,
    /** How many copies were made so far (each costs what loading its document costs). */
    made: () => made,
    /** The copy the updates of `name` are tried on, if one was made. */
    copyOf: (name: string): Y.Doc | undefined => mirrors.get(name)?.copy
  }
}

export type Mirrors = ReturnType<typeof makeMirrors>
