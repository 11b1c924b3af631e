/**
 * Debian's Chromium through playwright-core for the browser tests (never a downloaded browser):
 * reduced motion, `--font-render-hinting=none` for stable screenshots; every page's console errors
 * and uncaught exceptions collected; axe-core run on a screen light at 1280 px and dark at 390 px,
 * with screenshots of both in test/artifacts/ when they are wanted (`screenshotsWanted`).
 */
import { type Browser, type BrowserContext, type BrowserServer, chromium, type Locator, type Page } from "playwright-core"
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, expect, inject } from "vitest"
import { chromiumArgs, chromiumPath, screenshotsWanted } from "@quire/testkit/Chromium"
import { admin } from "./servers.ts"

export const artifacts = fileURLToPath(new URL("../artifacts/", import.meta.url))

const launchOptions = () => {
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is missing: install Debian's chromium package; the browser tests never download one`)
  return { executablePath: chromiumPath, args: [...chromiumArgs, "--font-render-hinting=none"] }
}

/** Debian's Chromium as a server that the run's test files connect to (global-setup.ts starts it once). */
export const launchServer = (): Promise<BrowserServer> => chromium.launchServer(launchOptions())

/**
 * The browser of a test file: a connection to the run's Chromium (`browserEndpoint`, from
 * global-setup.ts), else one launched for the file. Each file's contexts are its own either way.
 */
export const launch = async (): Promise<Browser> => {
  mkdirSync(artifacts, { recursive: true })
  const endpoint = inject("browserEndpoint")
  return endpoint === undefined ? chromium.launch(launchOptions()) : chromium.connect(endpoint)
}

/** The browser of a test file: connected before its tests, closed (its contexts with it) after them; call the answer for it. */
export const sharedBrowser = (): (() => Browser) => {
  let browser: Browser | undefined
  beforeAll(async () => {
    browser = await launch()
  })
  afterAll(async () => {
    await browser?.close()
  })
  return () => {
    if (browser === undefined) throw new Error("sharedBrowser: the browser is launched in beforeAll; use it inside a test")
    return browser
  }
}

export interface Session {
  readonly context: BrowserContext
  readonly page: Page
  /** Console errors and uncaught exceptions seen so far (the server's expected 401s aside). */
  readonly problems: Array<string>
}

/**
 * A new context and page on `url`. The browser reports each 4xx answer as a console error; those
 * the sign-in contract answers on purpose (401 from /auth/session before sign-in, the refused
 * attempt of a test) are `expected` and left out.
 */
export const open = async (browser: Browser, url: string, options: { readonly expected?: ReadonlyArray<RegExp> } = {}): Promise<Session> => {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 }, reducedMotion: "reduce", colorScheme: "light" })
  context.setDefaultTimeout(30_000)
  // A page load on a busy two-core machine can take longer than an action does.
  context.setDefaultNavigationTimeout(45_000)
  const page = await context.newPage()
  const problems: Array<string> = []
  const expected = [/status of 401 \(Unauthorized\)/, ...(options.expected ?? [])]
  page.on("console", (message) => {
    if (message.type() === "error" && !expected.some((pattern) => pattern.test(message.text()))) problems.push(`console: ${message.text()}`)
  })
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`))
  return { context, page, problems }
}

/** Signs the context in as the administrator through the sign-in route (the app's own request). */
export const signInAsAdmin = async (session: Session, url: string) => {
  const response = await session.context.request.post(`${url}/auth/sign-in`, {
    data: { email: admin.email, password: admin.password },
    headers: { origin: url }
  })
  expect(response.status()).toBe(200)
}

/** Signs the session in as the administrator and opens `path` (a page of a change request); the page's editor. */
export const openEditor = async (session: Session, url: string, path: string) => {
  await signInAsAdmin(session, url)
  await session.page.goto(path)
  return session.page.getByRole("textbox", { name: "Page content" })
}

/** Signs in as the administrator on the sign-in screen the page shows, as a person does (Enter submits). */
export const signInOnScreen = async (page: Page) => {
  await page.getByRole("heading", { name: "Sign in" }).waitFor()
  await page.getByLabel("Email").fill(admin.email)
  await page.getByLabel("Password").fill(admin.password)
  await page.getByLabel("Password").press("Enter")
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/**
 * axe-core on the page as it is (every rule, or only `rules`): serious or critical violations fail the test.
 * `exclude` names elements left out: a screen of thousands of identical parts checks its first and leaves
 * the rest out, which axe would lay out one by one (27 s here for a page of 600,000 lines, four minutes under CI's load).
 */
export const expectAccessible = async (page: Page, screen: string, rules?: ReadonlyArray<string>, exclude: ReadonlyArray<string> = []) => {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (it allows no inline script);
  // once per document (its half a megabyte compiled again for each check was most of a check's time).
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(axeSource)
  const violations = await page.evaluate(async ({ only, exclude }) => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown }> }> }> } }).axe
    const runOnly = only === undefined ? {} : { runOnly: { type: "rule", values: only } }
    const context = exclude.length === 0 ? document : { include: [document], exclude: exclude.map((selector) => [selector]) }
    const result = await axe.run(context, { resultTypes: ["violations"], ...runOnly })
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.map((node) => JSON.stringify(node.target)).slice(0, 5) }))
  }, { only: rules, exclude })
  const serious = violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")
  const described = serious.map((violation) => `${violation.impact} ${violation.id}: ${violation.help} at ${violation.targets.join(", ")}`)
  expect(described.length, `axe on ${screen}:\n${described.join("\n")}`).toBe(0)
}

/** The innermost elements that reach past the screen's right edge, named by tag, class and text (none when it does not scroll sideways). */
const widerThanScreen = (page: Page) =>
  page.evaluate(() => {
    const root = document.documentElement
    if (root.scrollWidth <= root.clientWidth) return []
    const past = (element: Element) => element.getBoundingClientRect().right > root.clientWidth + 0.5
    const outliers = [...document.body.querySelectorAll("*")].filter((element) => past(element) && ![...element.children].some(past))
    return outliers.slice(0, 5).map((element) =>
      `${element.tagName.toLowerCase()}${element.className === "" ? "" : `.${String(element.className).split(" ").join(".")}`} "${(element.textContent ?? "").trim().slice(0, 40)}" reaches ${Math.round(element.getBoundingClientRect().right)} px`)
  })

/**
 * The whole page in one picture, taken in a window as tall as the page: Chromium's full-page
 * capture draws the fixed shell (sidebar, header) where the window was scrolled to and only as
 * tall as the window, so a long page showed it cut off or in the middle.
 */
const photograph = async (page: Page, path: string) => {
  const window = page.viewportSize() ?? { width: 1280, height: 800 }
  const height = await page.evaluate(() => document.documentElement.scrollHeight)
  await page.setViewportSize({ width: window.width, height: Math.min(Math.max(height, window.height), 8_000) })
  await page.evaluate(() => globalThis.scrollTo(0, 0))
  await page.screenshot({ path })
  await page.setViewportSize(window)
}

/**
 * The screen as two people see it: light at 1280 px and dark at 390 px (`<name>-<theme>-<width>.png`),
 * every axe rule on each, and no sideways scrolling at 390 px. Between them they cover both themes
 * (the colours are the theme's at any width) and the narrow layout (the same in either theme), at
 * half the cost of all four pairs, most of a browser test's time. The page is left light at 1280 px.
 */
export const captureScreen = async (page: Page, name: string, options: { readonly exclude?: ReadonlyArray<string> } = {}) => {
  for (const [colorScheme, width] of [["light", 1280], ["dark", 390]] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: "reduce" })
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
    if (screenshotsWanted()) await photograph(page, `${artifacts}${name}-${colorScheme}-${width}.png`)
    await expectAccessible(page, `${name} (${colorScheme}, ${width} px)`, undefined, options.exclude)
  }
  expect(await widerThanScreen(page), `${name} scrolls sideways at 390 px`).toEqual([])
  await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" })
  await page.setViewportSize({ width: 1280, height: 800 })
}

/** The two theme and width pairs `captureScreen` leaves out (dark at 1280 px, light at 390 px), photographed only. */
export const captureOtherPairs = async (page: Page, name: string) => {
  if (!screenshotsWanted()) return
  for (const [colorScheme, width] of [["dark", 1280], ["light", 390]] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: "reduce" })
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
    await photograph(page, `${artifacts}${name}-${colorScheme}-${width}.png`)
  }
  await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" })
  await page.setViewportSize({ width: 1280, height: 800 })
}

/** A screen checked by `captureScreen` and photographed in all four pairs of theme and width. */
export const captureAllPairs = async (page: Page, name: string) => {
  await captureScreen(page, name)
  await captureOtherPairs(page, name)
}

/** Opens a tab of a site's dashboard (routes/Site.tsx) as a person does, by its link, and waits until it is the current one. */
export const openSiteTab = async (page: Page, name: string) => {
  const tab = page.getByRole("navigation", { name: "Site dashboard" }).getByRole("link", { name, exact: true })
  await tab.click()
  await expect.poll(() => tab.getAttribute("aria-current")).toBe("page")
}

/** Opens a menu button (ui/Menu.tsx, e.g. the space's "More") by its name: its `role="menu"`, to pick an entry from. */
export const openMenu = async (page: Page, name: string): Promise<Locator> => {
  await page.getByRole("button", { name, exact: true }).click()
  const menu = page.getByRole("menu", { name, exact: true })
  await menu.waitFor()
  return menu
}

/** Chooses an entry of a menu button's menu, as a person does: opens the menu, clicks the entry. */
export const chooseFromMenu = async (page: Page, menu: string, item: string | RegExp) => {
  const opened = await openMenu(page, menu)
  const name = { name: item, ...(typeof item === "string" ? { exact: true } : {}) }
  // An action, or one of a set of choices (the theme in the person's menu).
  await opened.getByRole("menuitem", name).or(opened.getByRole("menuitemradio", name)).click()
}

/** The words under a field: the error its `aria-describedby` names (`<id>-error`, as ui/Field.tsx writes it). */
export const errorOf = async (field: Locator) => {
  const ids = (await field.getAttribute("aria-describedby")) ?? ""
  const page = field.page()
  const texts = await Promise.all(ids.split(" ").filter((id) => id.endsWith("-error")).map((id) => page.locator(`[id="${id}"]`).textContent()))
  return texts.join(" ")
}

