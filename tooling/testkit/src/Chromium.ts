/**
 * Debian's Chromium, the one browser the tests and benches drive through playwright-core (none is
 * ever downloaded), and the flags each launch passes.
 */

export const chromiumPath = "/usr/bin/chromium"

/**
 * Whether the browser tests photograph what they check: `QUIRE_SCREENSHOTS=1` or `0` says so, and
 * by default they do, except in CI (`CI`, or `.ci/run`, which sets `QUIRE_SCREENSHOTS=0`), where
 * nobody looks at them: a full-page PNG costs Chromium more than the axe check beside it. A failing
 * test's own screenshot is taken either way.
 */
export const screenshotsWanted = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env.QUIRE_SCREENSHOTS === undefined ? env.CI !== "true" && env.CI !== "1" : env.QUIRE_SCREENSHOTS !== "0"

/**
 * The features playwright-core (1.65) turns off with its own `--disable-features`. Chromium reads
 * only the last `--disable-features` of its command line, so the list below carries these too, or
 * ours would turn them back on (tooling/e2e/test/ChromiumFlags.test.ts checks it against the
 * installed playwright-core).
 */
export const playwrightDisabledFeatures: ReadonlyArray<string> = [
  "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades", "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch",
  "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion"
]

/**
 * The omnibox popups Chromium preloads in a renderer process of its own for each window, which is
 * each browser context here: a popup nobody sees, that cost about a third of a new context's CPU.
 */
export const quireDisabledFeatures: ReadonlyArray<string> = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]

/** No sandbox (the tests run as root in a container), no GPU (there is none), and the features above off. */
export const chromiumArgs: ReadonlyArray<string> = [
  "--no-sandbox",
  "--disable-gpu",
  `--disable-features=${[...playwrightDisabledFeatures, ...quireDisabledFeatures].join(",")}`
]
