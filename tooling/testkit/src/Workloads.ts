/**
 * Inputs shared by a unit test, which checks what is done with them, and `pnpm bench --unit`, which
 * times it against its goal: unit tests hold no wall-clock limits.
 */

/**
 * A repository in GitBook's layout of `sections` × `pages` pages plus `README.md`: `SUMMARY.md` with
 * one `## Section s` group per folder `section-s/`, each page with YAML frontmatter (description,
 * owner, layout), a title heading, links and a hint (1,000 pages by default).
 */
export const gitBookRepository = (sections = 50, pages = 20): Record<string, string> => {
  const source: Record<string, string> = {}
  const summary = ["# Table of contents", "", "* [Home](README.md)"]
  source["README.md"] = "# Home\n\nWelcome.\n"
  for (let s = 0; s < sections; s++) {
    summary.push("", `## Section ${s}`, "")
    for (let p = 0; p < pages; p++) {
      const path = `section-${s}/page-${p}.md`
      summary.push(`* [Page ${s}.${p}](${path})`)
      source[path] = `---\ndescription: Page ${p} of section ${s}\nowner: team-${s}\nlayout:\n  width: wide\n  title:\n    visible: true\n---\n\n# Page ${s}.${p}\n\n${"Some text with a [link](../README.md) and `code`.\n\n".repeat(20)}{% hint style="info" %}\nA hint.\n{% endhint %}\n`
    }
  }
  source["SUMMARY.md"] = `${summary.join("\n")}\n`
  return source
}

/** A long page: `paragraphs` paragraphs separated by blank lines (5,000 by default, about 200 KB). */
export const longPage = (paragraphs = 5_000): string =>
  Array.from({ length: paragraphs }, (_, i) => `Paragraph ${i}: words about topic ${i % 37}.`).join("\n\n")
