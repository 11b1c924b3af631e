/**
 * An OpenAPI operation block: a picker of the organization's specs, then a searchable list of the chosen spec's
 * operations (method and path), which writes the block's `spec`, `path` and `method`. Every control writes the
 * page as it changes, never only when left. The view updates in place, so a control keeps its focus. Escape goes
 * on in the text after the block.
 */
import type { NodeViewRenderer, NodeViewRendererProps } from "@tiptap/core"
import { getParam, type LiquidParam, setParam } from "@quire/document"
import { Selection } from "@tiptap/pm/state"
import { field, h, setAttrs, sourceButton, commitsAsTyped } from "../shared/view.ts"
import { type CatalogOperation, type CatalogSpec, filterOperations, type OpenapiCatalog, operationsNote, specOptions } from "./catalog.ts"

const messageOf = (failure: unknown) => (failure instanceof Error ? failure.message : String(failure))
const idPrefix = () => `quire-openapi-${Math.random().toString(36).slice(2, 10)}`

/** The view, given how to reach the organization's specs (none in a screen without them: only the block's own spec shows). */
export const createOpenapiView = (catalog: () => OpenapiCatalog | undefined): NodeViewRenderer => (props: NodeViewRendererProps) => {
  let node = props.node
  const ids = idPrefix()
  const params = () => node.attrs.params as ReadonlyArray<LiquidParam>
  const current = () => ({ spec: getParam(params(), "spec") ?? "", path: getParam(params(), "path") ?? "", method: getParam(params(), "method") ?? "" })
  const write = (values: Readonly<Record<string, string>>) => {
    let next = params()
    for (const [key, value] of Object.entries(values)) next = setParam(next, key, value)
    setAttrs({ ...props, node }, { params: next })
  }

  let specs: ReadonlyArray<CatalogSpec> | undefined
  let specsError: string | undefined
  let operations: { readonly slug: string; readonly list?: ReadonlyArray<CatalogOperation>; readonly error?: string } | undefined
  let highlighted = 0

  const chosen = h("span", { class: "quire-openapi-chosen" })
  const head = h("div", { class: "quire-openapi-head" }, h("strong", {}, "OpenAPI operation"), chosen, sourceButton(props))
  const select = h("select", { id: `${ids}-spec` })
  const specError = h("p", { class: "form-error", role: "alert", id: `${ids}-spec-error` })
  const specField = h("label", { class: "quire-field" }, h("span", {}, "Spec"), select)
  const search = h("input", {
    type: "search", role: "combobox", "aria-label": "Find an operation", placeholder: "Find an operation (method, path or summary)",
    "aria-autocomplete": "list", "aria-expanded": "true", "aria-controls": `${ids}-ops`, autocomplete: "off"
  })
  search.dataset[commitsAsTyped] = ""
  const list = h("ul", { role: "listbox", id: `${ids}-ops`, "aria-label": "Operations", class: "quire-openapi-ops" })
  const opsNote = h("p", { class: "quire-openapi-note" })
  const picker = h("div", { class: "quire-openapi-picker" }, search, list)
  const body = node.attrs.body as string | null
  const link = body === null ? undefined : field("Link", body, (b) => setAttrs({ ...props, node }, { body: b === "" ? null : b }), { multiline: true, live: true })
  const dom = h("div", { class: "quire-block quire-openapiOperation", contenteditable: "false" }, head, specField, specError, opsNote, picker, ...(link ? [link.root] : []))

  const loadOperations = (slug: string) => {
    const source = catalog()
    if (slug === "" || source === undefined || operations?.slug === slug) return
    operations = { slug }
    source.operations(slug).then(
      (list) => { if (operations?.slug === slug) operations = { slug, list } },
      (failure: unknown) => { if (operations?.slug === slug) operations = { slug, error: `Could not load the operations of “${slug}”: ${messageOf(failure)}` } }
    ).finally(sync)
  }

  const choose = (op: CatalogOperation) => write({ spec: current().spec, path: op.path, method: op.method })

  const shownOperations = () => filterOperations(operations?.list ?? [], search.value)

  const drawList = () => {
    const { path, method } = current()
    const shown = shownOperations()
    highlighted = Math.max(0, Math.min(highlighted, shown.length - 1))
    list.replaceChildren(...shown.map((op, i) => {
      const isCurrent = op.path === path && op.method.toLowerCase() === method.toLowerCase()
      const item = h("li", { role: "option", id: `${ids}-op-${i}`, "aria-selected": String(i === highlighted), class: isCurrent ? "is-current" : "" },
        h("span", { class: `method method-${op.method.toLowerCase()}` }, op.method.toUpperCase()), h("code", {}, op.path),
        ...(op.summary === undefined ? [] : [h("span", { class: "quire-openapi-summary" }, op.summary)]))
      item.addEventListener("mousedown", (e) => e.preventDefault())
      item.addEventListener("click", () => choose(op))
      return item
    }))
    if (shown.length > 0) search.setAttribute("aria-activedescendant", `${ids}-op-${highlighted}`)
    else search.removeAttribute("aria-activedescendant")
  }

  const sync = () => {
    const { spec, path, method } = current()
    chosen.textContent = path === "" ? "No operation chosen yet" : `${method.toUpperCase()} ${path}${spec === "" ? "" : ` (${spec})`}`
    // The spec picker: the organization's specs, and the block's own when it is not one of them.
    const options = specOptions(specs, spec, specs === undefined && specsError === undefined && catalog() !== undefined).map((o) => h("option", { value: o.value }, o.label))
    if (select.options.length !== options.length || Array.from(select.options).some((o, i) => o.value !== options[i]!.value || o.text !== options[i]!.textContent)) select.replaceChildren(...options)
    select.value = spec
    specError.textContent = specsError ?? ""
    specError.hidden = specsError === undefined
    if (specsError !== undefined) select.setAttribute("aria-describedby", specError.id)
    else select.removeAttribute("aria-describedby")
    // What the operations list says in words, or the list.
    const note = operationsNote({ available: catalog() !== undefined, specs, spec, path, method, operations, query: search.value })
    opsNote.textContent = note
    opsNote.hidden = note === ""
    opsNote.setAttribute("role", operations?.error !== undefined && note === operations.error ? "alert" : "status")
    picker.hidden = operations?.list === undefined || operations.list.length === 0 || operations.slug !== spec
    if (!picker.hidden) drawList()
    if (link && document.activeElement !== link.input) link.input.value = (node.attrs.body as string | null) ?? ""
    loadOperations(spec)
  }

  select.addEventListener("change", () => {
    search.value = ""
    highlighted = 0
    write({ spec: select.value })
  })
  search.addEventListener("input", () => {
    highlighted = 0
    sync()
  })
  // Keys on the controls are theirs; Escape (with nothing left to clear) goes on in the text after the block.
  const leave = () => {
    const pos = typeof props.getPos === "function" ? props.getPos() : undefined
    if (pos === undefined) return
    const { state } = props.editor
    props.editor.view.dispatch(state.tr.setSelection(Selection.near(state.doc.resolve(pos + node.nodeSize))))
    props.editor.view.focus()
  }
  for (const control of [select, search])
    control.addEventListener("keydown", (e) => {
      e.stopPropagation()
      if ((e as KeyboardEvent).key === "Escape" && !(control === search && search.value !== "")) leave()
    })
  search.addEventListener("keydown", (e) => {
    const shown = shownOperations()
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault()
      highlighted = (highlighted + (e.key === "ArrowDown" ? 1 : -1) + shown.length) % Math.max(1, shown.length)
      drawList()
      list.querySelector("[aria-selected=true]")?.scrollIntoView({ block: "nearest" })
    } else if (e.key === "Enter") {
      e.preventDefault()
      const op = shown[highlighted]
      if (op) choose(op)
    } else if (e.key === "Escape" && search.value !== "") {
      e.preventDefault()
      search.value = ""
      sync()
    }
  })

  const source = catalog()
  if (source !== undefined) {
    source.specs().then((list) => { specs = list }, (failure: unknown) => { specsError = `Could not load the organization's OpenAPI specs: ${messageOf(failure)}` }).finally(sync)
  }
  sync()
  return {
    dom,
    stopEvent: (event) => event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLSelectElement || event.target instanceof HTMLButtonElement || list.contains(event.target as Node),
    ignoreMutation: () => true,
    update: (next) => {
      if (next.type !== node.type) return false
      node = next
      sync()
      return true
    }
  }
}
