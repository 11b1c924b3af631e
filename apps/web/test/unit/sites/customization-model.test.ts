import { describe, expect, it } from "vitest"
import { toDraft, toSettings, type Settings } from "../../../src/features/sites/customization-model.ts"

const loaded: Settings = {
  title: "Acme Docs",
  styling: { theme: "muted", primaryColor: { light: "#112233", dark: "#445566" }, corners: "rounded" },
  header: { preset: "default", links: [{ title: "Home", to: { kind: "url", url: "https://acme.test" }, links: [] }, { title: "Guide", to: { kind: "page", page: "p1" }, links: [] }] },
  themes: { default: "dark", toggeable: false },
  announcement: { enabled: true, message: "New release" },
  pagination: { enabled: false }
}

describe("the customization form", () => {
  it("gives back what it was given when nothing is edited (fields it does not show kept)", () => {
    const draft = toDraft(loaded, "Site")
    expect(draft).toMatchObject({ title: "Acme Docs", primaryLight: "#112233", theme: "muted", mode: "dark", toggeable: false, announcement: "New release" })
    expect(draft.links).toEqual([{ title: "Home", url: "https://acme.test" }])
    const settings = toSettings(loaded, draft)
    expect(settings.styling?.corners).toBe("rounded")
    expect(settings.pagination).toEqual({ enabled: false })
    expect(settings.header?.preset).toBe("default")
    expect(settings.header?.links).toEqual(loaded.header?.links)
    expect(settings.announcement).toEqual(loaded.announcement)
  })

  it("offers the published site's own defaults for a site not customized yet, so saving keeps its dark theme as it was", () => {
    const draft = toDraft({}, "Site")
    expect([draft.primaryLight, draft.primaryDark]).toEqual(["#346DDB", "#6F9CF2"])
  })

  it("writes the edited fields where the API reads them, and removes emptied ones", () => {
    const draft = { ...toDraft(loaded, "Site"), primaryLight: " #abcdef ", tint: "#eeeeee", links: [{ title: "Status", url: "https://status.acme.test" }, { title: "", url: "" }], announcement: "", copyright: "© Acme", logo: "https://acme.test/logo.png" }
    const settings = toSettings(loaded, draft)
    expect(settings.styling?.primaryColor).toEqual({ light: "#abcdef", dark: "#445566" })
    expect(settings.styling?.tint).toEqual({ color: { light: "#eeeeee", dark: "#eeeeee" } })
    expect(settings.header?.links?.map((link) => link.title)).toEqual(["Status", "Guide"])
    expect(settings.header?.logo).toEqual({ light: "https://acme.test/logo.png", dark: "https://acme.test/logo.png" })
    expect(settings.announcement).toEqual({ enabled: true })
    expect(settings.footer).toEqual({ copyright: "© Acme" })
    const untinted = toSettings(settings, { ...toDraft(settings, "Site"), tint: "", logo: "" })
    expect(untinted.styling?.tint).toBeUndefined()
    expect(untinted.header?.logo).toBeUndefined()
  })

  it("starts from GitBook's defaults on a site never customized", () => {
    const draft = toDraft({}, "Handbook")
    expect(draft).toMatchObject({ title: "Handbook", theme: "clean", mode: "system", toggeable: true, links: [], announcementEnabled: false })
  })
})

describe("Ask in the customization form", () => {
  it("turns Ask on as ai.mode assistant, and off again, keeping another mode the form does not offer", () => {
    const draft = toDraft(loaded, "Site")
    expect(draft.ask).toBe(false)
    const on = toSettings(loaded, { ...draft, ask: true })
    expect(on.ai).toEqual({ mode: "assistant" })
    expect(toDraft(on, "Site").ask).toBe(true)
    expect(toSettings(on, { ...toDraft(on, "Site"), ask: false }).ai).toEqual({ mode: "none" })
    const searching: Settings = { ...loaded, ai: { mode: "search" } }
    expect(toSettings(searching, toDraft(searching, "Site")).ai).toEqual({ mode: "search" })
  })
})
