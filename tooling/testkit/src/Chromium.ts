/**
 * Debian's Chromium, the one browser the tests and benches drive through playwright-core (none is
 * ever downloaded), and the flags each launch passes.
 */

export const chromiumPath = "/usr/bin/chromium"

/**
 * No sandbox (the tests run as root in a container), no GPU (there is none), and none of the
 * omnibox popups Chromium preloads in a renderer process of its own for each window, which is each
 * browser context here: a popup nobody sees, that cost about a third of a new context's CPU.
 */
export const chromiumArgs: ReadonlyArray<string> = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup"
]
