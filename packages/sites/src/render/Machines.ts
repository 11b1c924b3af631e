/**
 * What a published site serves to machines: `sitemap.xml`, `robots.txt`, `llms.txt` and
 * `llms-full.txt`, as pure functions of the pages the audience may read (the caller filters by
 * condition and visibility first).
 */
import { escapeHtml } from "@quire/kernel"

/** A page as machines see it. URLs are absolute. */
export interface MachinePage {
  readonly title: string
  /** The page's published URL. */
  readonly url: string
  /** Its raw markdown (`<page url>.md`). */
  readonly markdownUrl: string
  readonly description?: string | undefined
  readonly lastModified?: Date | undefined
  /** The page's markdown, for `llms-full.txt`. */
  readonly markdown?: string | undefined
}

/** The pages of one section (or of the whole site when it has no sections: `title` undefined). */
export interface MachineSection {
  readonly title?: string | undefined
  readonly pages: ReadonlyArray<MachinePage>
}

/** `sitemap.xml`: one `<url>` per page with its `lastmod`. */
export const sitemap = (pages: ReadonlyArray<Pick<MachinePage, "url" | "lastModified">>): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
  pages
    .map(
      (p) =>
        `  <url><loc>${escapeHtml(p.url)}</loc>` +
        (p.lastModified && !Number.isNaN(p.lastModified.getTime())
          ? `<lastmod>${p.lastModified.toISOString()}</lastmod>`
          : "") +
        `</url>\n`
    )
    .join("") +
  `</urlset>\n`

/**
 * `robots.txt`: a public site allows every crawler and names its sitemap; an unlisted,
 * share-link or visitor-auth site disallows everything.
 */
export const robots = (options: { readonly indexable: boolean; readonly sitemapUrl: string }): string =>
  options.indexable
    ? `User-agent: *\nAllow: /\n\nSitemap: ${options.sitemapUrl.replace(/[\r\n]/g, "")}\n`
    : `User-agent: *\nDisallow: /\n`

/** One line of markdown: no line breaks inside. */
const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim()

/** Link text with the characters that would close it escaped. */
const linkText = (text: string): string => oneLine(text).replace(/([\\[\]])/g, "\\$1")

/** A link destination in angle brackets escapes nothing but `<`, `>` and line breaks. */
const destination = (url: string): string => url.replace(/[<>\s]/g, (c) => encodeURIComponent(c))

const pageLine = (p: MachinePage): string =>
  `- [${linkText(p.title)}](${destination(p.markdownUrl)})` + (p.description ? `: ${oneLine(p.description)}` : "")

/**
 * `llms.txt` in GitBook's format: `# Site title`, an optional description as a quote, then per
 * section `## Section` and one `- [Page title](<page url>.md): description` line per page.
 */
export const llmsTxt = (site: {
  readonly title: string
  readonly description?: string | undefined
  readonly sections: ReadonlyArray<MachineSection>
}): string => {
  const out: Array<string> = [`# ${oneLine(site.title)}`, ""]
  if (site.description) out.push(`> ${oneLine(site.description)}`, "")
  for (const section of site.sections) {
    if (section.pages.length === 0) continue
    if (section.title !== undefined) out.push(`## ${oneLine(section.title)}`, "")
    out.push(...section.pages.map(pageLine), "")
  }
  return out.join("\n")
}

/**
 * `llms-full.txt`: every page's markdown in reading order, each introduced by its title and
 * source URL, pages separated by a rule.
 */
export const llmsFullTxt = (site: {
  readonly title: string
  readonly sections: ReadonlyArray<MachineSection>
}): string => {
  const pages = site.sections.flatMap((s) => s.pages)
  return (
    `# ${oneLine(site.title)}\n\n` +
    pages
      .map((p) => {
        const body = (p.markdown ?? "").trim()
        return `# ${oneLine(p.title)}\n\nSource: ${p.url}\n\n${body}\n`
      })
      .join("\n---\n\n")
  )
}
