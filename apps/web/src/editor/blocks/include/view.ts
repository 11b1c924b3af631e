/**
 * The include block: the title of the reusable content it shows (read from the change request's
 * reusable contents), its path as a field. An atom: selected, deleted and moved whole.
 */
import type { NodeViewRenderer } from "@tiptap/core"
import type { LiquidParam } from "@quire/document"
import type { ReusableCatalog, ReusableSummary } from "../../commands/reusable.ts"
import { atomView, field, h, setAttrs } from "../shared/view.ts"
import { reusableIdOf } from "./reference.ts"

/** What the block says it shows: a title, not yet known, not found, or the file it names. */
export const includeLabel = (path: string, known: ReadonlyArray<ReusableSummary> | undefined): { readonly title: string; readonly state: "found" | "loading" | "missing" | "file" } => {
  const id = reusableIdOf(path)
  if (id === undefined) return { title: path === "" ? "No path" : path, state: "file" }
  if (known === undefined) return { title: "Loading…", state: "loading" }
  const found = known.find((r) => r.id === id)
  return found === undefined ? { title: "Reusable content not found", state: "missing" } : { title: found.title, state: "found" }
}

/**
 * The view, given how to reach the change request's reusable contents. Each catalog's list is kept once it
 * has come (per editor, in this closure), so a block drawn again shows its title at once; a list read again
 * (after a reusable content was made) replaces it.
 */
export const createIncludeView = (catalog: () => ReusableCatalog | undefined): NodeViewRenderer => {
  const lists = new WeakMap<ReusableCatalog, { readonly from: Promise<ReadonlyArray<ReusableSummary>>; list?: ReadonlyArray<ReusableSummary> }>()
  return atomView((props, node, teardown) => {
    const params = node.attrs.params as ReadonlyArray<LiquidParam>
    const path = params.find((p) => p.key === null)?.value ?? ""
    const source = catalog()
    const id = reusableIdOf(path)
    const kept = source === undefined ? undefined : lists.get(source)
    const title = h("span", { class: "quire-include-title" })
    const body = h("div", { role: "group" })
    const show = (known: ReadonlyArray<ReusableSummary> | undefined) => {
      // With no catalog (a read-only screen) the path is all there is to show.
      const label = source === undefined ? { title: path, state: "file" as const } : includeLabel(path, known)
      title.textContent = label.title
      title.dataset["state"] = label.state
      body.setAttribute("aria-label", `Reusable content: ${label.title}`)
      body.setAttribute("aria-busy", String(label.state === "loading"))
    }
    show(kept?.list)
    const read = (again: boolean) => {
      if (source === undefined || id === undefined) return
      const from = source.list()
      const known = lists.get(source)
      if (!again && known?.from === from && known.list !== undefined) return
      const entry: { readonly from: Promise<ReadonlyArray<ReusableSummary>>; list?: ReadonlyArray<ReusableSummary> } = { from, ...(known?.list === undefined ? {} : { list: known.list }) }
      lists.set(source, entry)
      from.then(
        (list) => { entry.list = list; show(list) },
        () => { if (entry.list === undefined) title.textContent = "Could not read the reusable contents" }
      )
    }
    read(false)
    // Renamed or deleted elsewhere (the change request's sidebar): the title follows.
    if (source?.onChange !== undefined && id !== undefined) teardown(source.onChange(() => read(true)))
    const setPath = (value: string) => setAttrs({ ...props, node }, { params: params.map((p) => (p.key === null ? { ...p, value } : p)) })
    body.append(h("strong", {}, "Reusable content"), " ", title, field("Path", path, setPath).root)
    return body
  })
}

/** Without reusable contents (a screen that reads none): the path is shown. */
export const includeView = createIncludeView(() => undefined)
