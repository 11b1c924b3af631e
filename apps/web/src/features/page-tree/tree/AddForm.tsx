/**
 * Adding to the tree, as GitBook's "New page" at its foot: a button that opens the form (a title, then a page, a
 * group, or a link, which asks for its URL first); Escape or Cancel closes it, and it closes once a page is added
 * (a new page opens in the editor). The tree's foot is not a row of fields always open.
 */
import { type FormEvent, useId, useRef, useState } from "react"
import { PlusIcon } from "../../../ui/icons.tsx"
import { addPage, flatten, type PageKind, type Tree } from "../tree-model.ts"
import type { Actions } from "./actions.ts"

export interface AddFormProps {
  readonly tree: Tree
  readonly busy: boolean
  readonly apply: Actions["apply"]
  readonly onRefused: (reason: string) => void
}

export const AddForm = (props: AddFormProps) => {
  const [title, setTitle] = useState("")
  const [href, setHref] = useState("")
  const [linking, setLinking] = useState(false)
  const [open, setOpen] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)
  const listId = useId()
  const close = () => {
    setOpen(false)
    setLinking(false)
    setTitle("")
    setHref("")
    // Back to the button that opened it, once it is drawn again.
    setTimeout(() => opener.current?.focus(), 0)
  }
  const add = (kind: PageKind) => {
    const result = addPage(props.tree, { kind, title, parent: null, ref: `new-${props.tree.length}-${title.length}`, ...(kind === "link" ? { href } : {}) })
    if (!result.ok) return props.onRefused(result.reason)
    setTitle("")
    setHref("")
    setLinking(false)
    setOpen(false)
    props.apply(result)
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    add(linking ? "link" : "document")
  }
  const empty = title.trim() === ""
  if (!open) {
    return (
      <button ref={opener} type="button" className="cr-tree-new" onClick={() => setOpen(true)}>
        <PlusIcon /> New page
      </button>
    )
  }
  return (
    <form className="cr-tree-add" onSubmit={onSubmit} onKeyDown={(e) => {
      if (e.key !== "Escape") return
      e.stopPropagation()
      if (linking) setLinking(false)
      else close()
    }}>
      <input aria-label="New page title" placeholder="New page title" value={title} onChange={(e) => setTitle(e.target.value)} autoFocus={!linking} />
      {linking
        ? (
          <>
            <input aria-label="Link URL" placeholder="https://… or a page's title" value={href} onChange={(e) => setHref(e.target.value)} autoFocus list={`${listId}-pages`} />
            <datalist id={`${listId}-pages`}>
              {flatten(props.tree).filter((l) => l.page.kind === "document").map((l) => <option key={l.page.id} value={l.page.title} />)}
            </datalist>
            <button type="submit" disabled={props.busy || empty}>Add link</button>
            <button type="button" onClick={() => setLinking(false)}>Cancel</button>
          </>
        )
        : (
          <>
            <button type="submit" disabled={props.busy || empty}>Add page</button>
            <button type="button" disabled={props.busy || empty} onClick={() => add("group")}>Add group</button>
            <button type="button" disabled={props.busy || empty} onClick={() => setLinking(true)}>Add link…</button>
            <button type="button" className="cr-tree-cancel" onClick={close}>Cancel</button>
          </>
        )}
    </form>
  )
}
