/**
 * Ask's retrieval measured on a real GitBook repository: GitBook's own public docs (the
 * `documentation` project of GitbookIO/public-docs: its markdown pages, read from the mirror's main
 * branch, written into a space through change requests (its images and other files left out), published,
 * and asked twenty questions written against its pages. A question counts when the page that
 * answers it is among the sources Ask passes the model. The test (AskRetrieval.test.ts) and
 * `pnpm bench --ask-retrieval` run it.
 */
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"

/** Where the mirror of GitbookIO/public-docs is on this machine (a bare repository), if anywhere. */
export const publicDocsMirror = process.env["QUIRE_PUBLIC_DOCS_MIRROR"] ?? "/work/.mirror/GitbookIO+public-docs/repo"
export const mirrorPresent = () => existsSync(publicDocsMirror)

/** A question and the title of the page that answers it. */
export const questions: ReadonlyArray<readonly [question: string, page: string]> = [
  ["How do I share my docs privately with customers without inviting them?", "Private publishing with share links"],
  ["How can I redirect an old URL of my site to a new page?", "Site redirects"],
  ["Can visitors download my documentation as a PDF?", "PDF export"],
  ["How do I use my own domain name for my docs site?", "Set a custom domain"],
  ["Can I require a review before a change request is merged?", "Merge rules"],
  ["How do I leave feedback on a specific piece of content?", "Comments"],
  ["How do I manage access for a group of members at once?", "Teams"],
  ["What default role do new members of the organization get?", "Roles"],
  ["How do I write mathematical formulas with KaTeX?", "Math & TeX"],
  ["How do I draw diagrams in a page?", "Mermaid blocks"],
  ["How can I sync the same block across multiple pages?", "Reusable content"],
  ["How do I define variables to reuse text in expressions?", "Variables and expressions"],
  ["How do I sync several spaces from one repository with docs.yaml?", "Monorepos"],
  ["My Git Sync is failing, how do I fix it?", "Troubleshooting"],
  ["How do I migrate my existing documentation into GitBook?", "Migrate to GitBook"],
  ["How do I cancel my subscription?", "Subscription cancellations"],
  ["What are the keyboard shortcuts for editing?", "Keyboard shortcuts"],
  ["How do I publish several versions of the same documentation?", "Content variants"],
  ["How do I embed the docs in a React app?", "React"],
  ["Why do Test It requests fail because of CORS?", "Using OpenAPI proxy"]
]

/** What the measurement found: per question, whether the answering page was passed, and the titles that were. */
export interface RetrievalReport {
  readonly questions: number
  readonly found: number
  readonly rate: number
  readonly misses: ReadonlyArray<{ readonly question: string; readonly expected: string; readonly passed: ReadonlyArray<string> }>
}

/** The titles of the sources in a prompt Ask sent the model. */
export const sourceTitles = (system: string): ReadonlyArray<string> =>
  [...system.matchAll(/<source n="\d+" title=("[^"]*")/g)].map((m) => JSON.parse(m[1]!) as string)

export const reportOf = (results: ReadonlyArray<{ question: string; expected: string; passed: ReadonlyArray<string> }>): RetrievalReport => {
  const found = results.filter((r) => r.passed.includes(r.expected)).length
  return {
    questions: results.length,
    found,
    rate: results.length === 0 ? 0 : found / results.length,
    misses: results.filter((r) => !r.passed.includes(r.expected))
  }
}

/** The markdown pages of the `documentation` project, each titled by its first heading, without that heading. */
export const documentationPages = (): ReadonlyArray<{ readonly title: string; readonly slug: string; readonly document: { readonly markdown: string } }> => {
  const git = (args: ReadonlyArray<string>, input?: string) =>
    execFileSync("git", ["--git-dir", publicDocsMirror, ...args], { maxBuffer: 1 << 30, ...(input === undefined ? {} : { input }) })
  const entries = git(["ls-tree", "-r", "-z", "main", "documentation/"]).toString("utf8").split("\0")
    .filter((e) => e.endsWith(".md") && e.includes(" blob ") && !e.includes("/.gitbook/") && !e.endsWith("/SUMMARY.md"))
    .map((e) => {
      const [meta, path] = e.split("\t") as [string, string]
      return [path, meta.split(" ")[2]!] as const
    })
  const batch = git(["cat-file", "--batch"], entries.map(([, sha]) => sha).join("\n") + "\n")
  let at = 0
  const slugs = new Set<string>()
  return entries.map(([path]) => {
    const header = batch.indexOf(10, at)
    const size = Number(batch.toString("latin1", at, header).split(" ")[2])
    const text = batch.toString("utf8", header + 1, header + 1 + size)
    at = header + 1 + size + 1
    const body = text.replace(/^---\n[\s\S]*?\n---\n/, "")
    const heading = /^# (.+)$/m.exec(body)
    let slug = path.slice("documentation/".length).replace(/(\/README)?\.md$/, "").replace(/[^a-z0-9]+/gi, "-").toLowerCase().slice(-90) || "home"
    while (slugs.has(slug)) slug = `${slug}-x`
    slugs.add(slug)
    return { title: heading?.[1]?.trim() ?? slug, slug, document: { markdown: heading === null ? body : body.replace(heading[0], "") } }
  })
}
