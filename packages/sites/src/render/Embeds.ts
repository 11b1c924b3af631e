/**
 * `{% embed url="..." %}` of the providers GitBook plays in the page (YouTube, Vimeo, Loom,
 * CodePen, Figma, Spotify, CodeSandbox): the URL of their player, which the page loads only when
 * the reader asks (a facade button: nothing, not even a thumbnail, is requested from the provider
 * before the click). The published page's CSP allows frames from these players' origins only.
 */

/** A provider's player for an embedded URL. */
export interface Player {
  readonly provider: string
  /** The player's URL: on one of `playerOrigins`. */
  readonly src: string
}

interface Provider {
  readonly name: string
  readonly origin: string
  readonly player: (url: URL) => string | undefined
}

const id = /^[\w-]{1,64}$/
const segments = (url: URL) => url.pathname.split("/").filter((s) => s !== "")
const host = (url: URL) => url.hostname.toLowerCase().replace(/^(?:www|m)\./, "")

const youtubeId = (url: URL): string | undefined => {
  const h = host(url)
  const parts = segments(url)
  if (h === "youtu.be") return parts[0]
  if (h !== "youtube.com" && h !== "youtube-nocookie.com") return undefined
  if (parts[0] === "watch") return url.searchParams.get("v") ?? undefined
  if (parts[0] === "embed" || parts[0] === "shorts" || parts[0] === "live" || parts[0] === "v") return parts[1]
  return undefined
}

const providers: ReadonlyArray<Provider> = [
  {
    name: "YouTube",
    origin: "https://www.youtube-nocookie.com",
    player: (url) => {
      const video = youtubeId(url)
      if (video === undefined || !id.test(video)) return undefined
      const start = /^(\d+)s?$/.exec(url.searchParams.get("t") ?? url.searchParams.get("start") ?? "")?.[1]
      return `https://www.youtube-nocookie.com/embed/${video}?autoplay=1${start === undefined ? "" : `&start=${start}`}`
    }
  },
  {
    name: "Vimeo",
    origin: "https://player.vimeo.com",
    player: (url) => {
      if (host(url) !== "vimeo.com" && host(url) !== "player.vimeo.com") return undefined
      const video = segments(url).find((s) => /^\d{1,20}$/.test(s))
      return video === undefined ? undefined : `https://player.vimeo.com/video/${video}?autoplay=1&dnt=1`
    }
  },
  {
    name: "Loom",
    origin: "https://www.loom.com",
    player: (url) => {
      const [kind, video] = segments(url)
      return host(url) === "loom.com" && (kind === "share" || kind === "embed") && video !== undefined && id.test(video)
        ? `https://www.loom.com/embed/${video}?autoplay=1`
        : undefined
    }
  },
  {
    name: "CodePen",
    origin: "https://codepen.io",
    player: (url) => {
      const [user, kind, pen] = segments(url)
      return host(url) === "codepen.io" && user !== undefined && id.test(user) && (kind === "pen" || kind === "embed") &&
          pen !== undefined && id.test(pen)
        ? `https://codepen.io/${user}/embed/${pen}?default-tab=result`
        : undefined
    }
  },
  {
    name: "Figma",
    origin: "https://www.figma.com",
    player: (url) => {
      const [kind] = segments(url)
      return host(url) === "figma.com" && ["file", "design", "proto", "board", "slides"].includes(kind ?? "")
        ? `https://www.figma.com/embed?embed_host=quire&url=${encodeURIComponent(url.href)}`
        : undefined
    }
  },
  {
    name: "Spotify",
    origin: "https://open.spotify.com",
    player: (url) => {
      const parts = segments(url).filter((s) => !s.startsWith("intl-"))
      const [kind, item] = parts[0] === "embed" ? parts.slice(1) : parts
      return host(url) === "open.spotify.com" && ["track", "album", "playlist", "episode", "show", "artist"].includes(kind ?? "") &&
          item !== undefined && id.test(item)
        ? `https://open.spotify.com/embed/${kind}/${item}`
        : undefined
    }
  },
  {
    name: "CodeSandbox",
    origin: "https://codesandbox.io",
    player: (url) => {
      const parts = segments(url)
      const sandbox = parts[0] === "s" || parts[0] === "embed" ? parts[1] : parts[0] === "p" && parts[1] === "sandbox" ? parts[2] : undefined
      return host(url) === "codesandbox.io" && sandbox !== undefined && id.test(sandbox) ? `https://codesandbox.io/embed/${sandbox}` : undefined
    }
  }
]

/** The origins of the players: the only ones a published page may frame. */
export const playerOrigins: ReadonlyArray<string> = providers.map((p) => p.origin)

/** An http or https URL; undefined for anything else. */
const webUrl = (href: string): URL | undefined => {
  try {
    const url = new URL(href)
    return url.protocol === "https:" || url.protocol === "http:" ? url : undefined
  } catch {
    return undefined
  }
}

/** The player of an embedded URL, when a known provider plays it. */
export const playerOf = (href: string): Player | undefined => {
  const url = webUrl(href)
  if (url === undefined) return undefined
  for (const provider of providers) {
    const src = provider.player(url)
    if (src !== undefined) return { provider: provider.name, src }
  }
  return undefined
}

/** What an embedded URL's link card shows, from the URL alone: the provider that plays it, else its host. */
export interface EmbedLink {
  readonly title: string
  readonly site: string
}

/** The link card of an http or https URL; undefined for anything else. */
export const embedLinkOf = (href: string): EmbedLink | undefined => {
  const url = webUrl(href)
  if (url === undefined) return undefined
  return { title: url.href, site: playerOf(href)?.provider ?? host(url) }
}
