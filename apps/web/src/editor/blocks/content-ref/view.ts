/**
 * The page link card (`{% content-ref url="…" %}[Title](url){% endcontent-ref %}`): a Page picker of the
 * change request's pages, which writes the page's link as the link picker does (its path in GitBook's Git
 * layout, `README.md` for the first page) with its title as the body, and the URL as a field for any other.
 */
import type { NodeViewRenderer, NodeViewRendererProps } from "@tiptap/core"
import type { Node as PMNode } from "@tiptap/pm/model"
import { getParam, type LiquidParam, setParam } from "@quire/document"
import type { LinkTarget } from "../../commands/link-targets.ts"
import { liquidAtomView } from "../shared/liquid-view.ts"
import { h, setAttrs } from "../shared/view.ts"

/**
 * The body after the URL is typed: GitBook's link to it (`[page.md](page.md)`) while the body is empty or a
 * plain link (the inserted card's, or a picked page's); a body written otherwise is left as it is (undefined).
 */
export const followingBody = (url: string, body: string | null): string | undefined =>
  body === null || body === "" || /^\[[^\]\n]*\]\([^)\s]*\)\n?$/.test(body) ? `[${url}](${url})` : undefined

/** `targets` gives the editor's link targets when it has them (a change request's page). */
export const createContentRefView = (targets: () => (() => Promise<ReadonlyArray<LinkTarget>>) | undefined): NodeViewRenderer => (props) => {
  // Loaded once per card: the view is drawn again on each change.
  let pages: Promise<ReadonlyArray<LinkTarget>> | undefined
  const load = () => (pages ??= (targets()?.() ?? Promise.resolve([])).then((all) => all.filter((t) => t.kind === "page"), () => []))
  const picker = (current: NodeViewRendererProps, node: PMNode): HTMLElement => {
    if (targets() === undefined) return h("span", {})
    const params = node.attrs.params as ReadonlyArray<LiquidParam>
    const url = getParam(params, "url") ?? ""
    const select = h("select", {}, h("option", { value: "" }, "Choose a page…"))
    void load().then((found) => {
      select.append(...found.map((page) => h("option", { value: page.href }, page.title)))
      select.value = found.some((page) => page.href === url) ? url : ""
    })
    select.addEventListener("change", () => {
      const page = select.selectedOptions[0]
      if (page === undefined || page.value === "") return
      setAttrs(current, { params: setParam(params, "url", page.value), body: `[${page.text}](${page.value})` })
    })
    select.addEventListener("keydown", (e) => e.stopPropagation())
    return h("label", { class: "quire-field" }, h("span", {}, "Page"), select)
  }
  return liquidAtomView("Page link", "url", followingBody, picker)(props)
}

/** Without link targets (a page shown read-only elsewhere): the URL field alone. */
export const contentRefView = createContentRefView(() => undefined)
