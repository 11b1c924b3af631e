/**
 * Ask's retrieval measured on real GitBook repositories: GitBook's own public docs (the
 * `documentation` project of GitbookIO/public-docs), Beefree SDK's docs (with 30–40 KB video
 * transcripts beside short reference pages) and Airstack's. Each repository's markdown pages, read
 * from its mirror's main branch under its GitBook root, are written into a space through change
 * requests (images and other files left out), published, and asked twenty questions written as
 * support tickets are (their own words, a product word for the docs' one, now and then a typo).
 * Ten more per repository, held out, were written after the ranking was tuned and are never tuned on:
 * they say whether a change generalises (reported apart).
 * A question counts twice: when the page that answers it is among the sources Ask passes the
 * model, and when the sentence that answers it (a phrase of it, `fact`) is in the passages passed.
 * The test (AskRetrieval.test.ts) and `pnpm bench --ask-retrieval` run it.
 */
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"

/** A question, the title of the page that answers it and a phrase of the answering sentence. */
export interface Question {
  readonly question: string
  readonly page: string
  readonly fact: string
}

/** Which of a repository's questions: those the ranking was tuned on, or those held out from tuning. */
export type QuestionSet = "tuned" | "held-out"

/** A GitBook repository measured, if its bare mirror is on this machine. */
export interface Repository {
  readonly name: string
  readonly mirror: string
  /** The GitBook root (`.gitbook.yaml`'s `root`), `""` for the repository's. */
  readonly root: string
  readonly questions: ReadonlyArray<Question>
  /**
   * Questions written after the ranking was last tuned, to tell whether a change generalises: never
   * tuned on, measured and reported apart from `questions`.
   */
  readonly heldOut: ReadonlyArray<Question>
}

const q = (question: string, page: string, fact: string): Question => ({ question, page, fact })

const gitbook: Repository = {
  name: "GitBook's public docs",
  mirror: process.env["QUIRE_PUBLIC_DOCS_MIRROR"] ?? "/work/.mirror/GitbookIO+public-docs/repo",
  root: "documentation/",
  questions: [
    q("How do I share my docs privately with customers without inviting them?", "Private publishing with share links", "give non-GitBook users access to your content"),
    q("How can I redirect an old URL of my site to a new page?", "Site redirects", "Fill in the source path"),
    q("Can visitors download my documentation as a PDF?", "PDF export", "readers of your published content can download it in PDF format"),
    q("How do I use my own domain name for my docs site?", "Set a custom domain", "Copy the contents of the Name and Target fields"),
    q("Can I require a review before a change request is merged?", "Merge rules", "needing a review from a specific user"),
    q("How do I leave feedback on a specific piece of content?", "Comments", "comment on a specific block by hovering over a block"),
    q("How do I manage access for a group of members at once?", "Teams", "grant or remove their access to spaces or collections"),
    q("What default role do new members of the organization get?", "Roles", "apply to any content that inherits its permissions from the organization"),
    q("How do I write mathematical formulas with KaTeX?", "Math & TeX", "use the mathTeX format to include mathematical formulae"),
    q("How do I draw diagrams in a page?", "Mermaid blocks", "create diagrams using the Mermaid syntax"),
    q("How can I sync the same block across multiple pages?", "Reusable content", "edit all instances of the block at the same time"),
    q("How do I define variables to reuse text in expressions?", "Variables and expressions", "click Variables"),
    q("How do I sync several spaces from one repository with docs.yaml?", "Monorepos", "Map each space to its own directory"),
    q("My Git Sync is failing, how do I fix it?", "Troubleshooting", "create a new change request with a small change"),
    q("How do I migrate my existing documentation into GitBook?", "Migrate to GitBook", "add the URL of the site and GitBook will handle the rest"),
    q("How do I cancel my subscription?", "Subscription cancellations", "Click Cancel subscription"),
    q("What are the keyboard shortcuts for editing?", "Keyboard shortcuts", "Insert a soft line break in a paragraph"),
    q("How do I publish several versions of the same documentation?", "Content variants", "publish multiple versions of the same documentation"),
    q("How do I embed the docs in a React app?", "React", "npm install @gitbook/embed"),
    q("Why do Test It requests fail because of CORS?", "Using OpenAPI proxy", "Without CORS configured, Test It requests fail in the browser")
  ],
  heldOut: [
    q("our git server only accepts traffic from known IPs, which addresses does the sync come from?", "GitHub & GitLab Sync", "allowlist these outbound Git Sync IPs"),
    q("how do I link someone straight to one section of a page", "Headings", "it creates an anchor link"),
    q("can I hide the try it panel on some of our endpoints", "Configuring the “Test it” button", "x-hideTryItPanel"),
    q("we want the docs at ourcompany.com/docs, not on a subdomain", "Setting a custom subdirectory", "With a custom subdirectory, you can make your docs site accessible at"),
    q("is there a free plan for open source projects if we show an ad", "Sponsored site plan", "while displaying a small, relevant ad"),
    q("can I put a collapsible section inside a step by step guide block?", "Stepper", "you cannot add expandable blocks or another stepper block"),
    q("formatting gets mangled when I paste markdown into the editor", "Markdown", "Paste and Match Style"),
    q("I installed an integration but it only works in one section, how do I turn it on everywhere", "Install and manage integrations", "all the sections across your organization"),
    q("where do I see all open change requests for a site in one list", "Change requests screen", "view and manage active change requests across your site"),
    q("can claude code or cursor edit our docs for us", "GitBook MCP", "Tools like Claude Code, Codex, Cursor")
  ]
}

const beefree: Repository = {
  name: "Beefree SDK's docs",
  mirror: "/work/.mirror/BeefreeSDK+beefree-sdk-docs/repo",
  root: "",
  questions: [
    q("uploaded gif loses its frames and the colors look off after upload, why?", "Mime Types and Groups", "it will be resized to fit within 1920px"),
    q("can I change the editor settings on the fly without reloading the whole builder", "Configuration Reload", "without the need to reload the Beefree application"),
    q("how can I see the json behind a row or module while building", "Debugging the Beefree SDK Editor", "inspect the specific JSON used for that element"),
    q("are we billed twice when the same user id is used in dev and prod apps?", "How the UID parameter works", "count this UID twice"),
    q("how do i force everyone on our account to use an authenticator app at login", "Set up two-factor authentication", "Require two-factor authentication at login"),
    q("can we get new editor releases early to test them before everyone else", "Release Candidate Environment", "After a one week waiting period"),
    q("the header I configured reaches my server with a different name", "Custom Headers", "all custom headers will be prefixed with"),
    q("how do I put the button tile first in the content sidebar", "Content Tile Sorting", "defaultModulesOrder"),
    q("can we have separate billing for two business units in one console?", "Manage Subscriptions", "Add new subscription"),
    q("users get kicked out of the editor after some hours, token expired", "Authorization Process", "refresh an expired token automatically for 12 hours"),
    q("will images in emails we already sent break during your downtime?", "Scheduled maintenances", "will display correctly"),
    q("show my own error message in the file manager when my storage refuses a file", "File System Provider errors", "3999"),
    q("editor hangs in waiting mode after opening our own image picker", "Custom File Picker", "call is mandatory"),
    q("does usage in our QA app count toward our plan?", "Development Applications", "that usage will count towards your plan's monthly allotment"),
    q("move the blocks panel to the right side of the screen", "Custom Sidebar Position", "on the left or on the right side of the screen"),
    q("dark version of the loading animation?", "Loading Spinner Theme", "choose between a dark and light theme for the loading animation"),
    q("personalization tags show raw syntax to my customers, can they see a friendly name instead", "Smart Merge Tags", "human-friendly names"),
    q("which inboxes show the interactive carousel emails", "AMP for Email", "Gmail, Yahoo Mail"),
    q("how wide is the phone preview in the editor", "Mobile Design Mode", "resize the work area width to 320px"),
    q("whats the biggest file a user can upload in the file manger", "Mime Types and Groups", "maximum file size you can upload is 20MB")
  ],
  heldOut: [
    q("when the editor opens I want the rows tab selected instead of content", "Custom Tab Layout", "decide which content should be visible first in the sidebar"),
    q("can we add fullstory tracking inside the editor?", "Custom JavaScript Libraries Injection", "like FullStory or Heap"),
    q("users want to set the spacing between lines of text as a percentage", "Line Height", "Enter exact Line height values (in percentage)"),
    q("how do I get the list of template categories for our template gallery", "Categories", "all the Categories present within the catalog"),
    q("can users pick google fonts in the text toolbar", "Font management", "adding web fonts from popular services, such as Google fonts"),
    q("which gpt model runs behind the write with ai button if we choose openai", "Available Providers", "is the model used when you configure OpenAI as your provider"),
    q("lock a form field so our users cant change it in the builder", "Passing forms to the builder", "the configuration for that field will be locked"),
    q("can you host our full email designs for us the way you host saved rows?", "Storage options", "there currently isn't a way to host full email, page, and popup designs"),
    q("is the client side demo ok to put in production", "Sample Code", "The client-side sample is not safe for a production environment"),
    q("can landing pages play a youtube shorts clip", "Content options", "embedding a YouTube, YouTube Shorts, or Vimeo video")
  ]
}

const airstack: Repository = {
  name: "Airstack's docs",
  mirror: "/work/.mirror/Airstack-xyz+docs/repo",
  root: "",
  questions: [
    q("how many calls a minute do I get with the free test key?", "🔐 Authentication", "20 req/min"),
    q("how many records come back per call if I dont pass anything?", "🚸 Limit", "the APIs will return 50 responses"),
    q("my graphql query keeps getting rejected as invalid, what should I check", "ERROR\\_001", "necessary closing brackets"),
    q("I ask for 500 items in one call and get an error", "ERROR\\_003", "between 1 and 200"),
    q("do you resize nft images or do we have to do it ourselves", "🚦 Tech Infra & Capabilities", "5 image sizes"),
    q("do i need to keep holding something for my api key to keep working?", "🗝️ Get API Key", "as long as you hold the /airstack channel Fan Token"),
    q("how many NOTA points does a developer get per user of their frame", "😶 Not A Token", "25 per unique FID"),
    q("how do I know there are no more pages of results", "📍 Cursor Pagination", "returned as an empty string"),
    q("can I fetch followers and followings in one request?", "🎆 Multiple Queries Execution", "call multiple API in one request"),
    q("codegen fails when two of my queries have the same name", "💡 Generate TypeScript Interfaces", "UNIQUE to each other"),
    q("where can I see how many people used my frames", "📊 Frame Analytics", "click on Frames Dev"),
    q("does validating frame messages cost credits?", "✅ Frames Validator 🆓", "No credits will be charged"),
    q("how to check how much storage an fid has left on the hub", "📦 Storage", "getCurrentStorageLimitsByFid"),
    q("what sizes do the farcaster avatars come in", "🖼️ Farcaster Profile Image", "medium: 500x500px"),
    q("are hub reads and writes charged?", "🖥️ Farcaster Hubs 🆓", "no credits are charged for read/write to Hubs"),
    q("can someone be a moxie hero two weeks in a row", "🦸 Moxie Heroes", "no one is hero in consecutive weeks"),
    q("only let people who follow me use my app", "🚪 Token Gating", "gates only users that follow a given user"),
    q("how do I pass a dynamic value into my query instead of hardcoding it", "🌪️ Variables", "specify the correct typing"),
    q("got an error that looks like its on your side, not my query", "ERROR\\_002", "internal server-side error"),
    q("how do i list every farcaster user id", "🗒️ FIDs", "get all existing FIDs")
  ],
  heldOut: [
    q("how do I filter results where a number is bigger than some value", "📏 Working with GraphQL", "comparison operators which are used to filter data in queries"),
    q("cant get hub events older than a few days", "🎉 Hub Events", "Hubs prune events older than 3 days"),
    q("how do i post a cast through your hubs api", "📧 Message", "submit a signed protobuf-serialized message to the Hub"),
    q("what info can I get about a farcaster channel", "FarcasterChannels API", "channel name, channel ID, description, image URI, participants"),
    q("get someone's twitter handle from their ens name", "✍️ ENS Domain Details", "fetch an ENS domain text records using the texts field"),
    q("do follows from inactive people still count toward someone's score?", "😎 FarScores, FarBoost, and Cast Scores", "do not factor in follows from users who have not been active"),
    q("see everyone who hearted a specific post on farcaster", "👍 Farcaster Likes", "get all the users that liked a cast"),
    q("look up which fid owns a username", "💳 Username Proofs", "get username by a specific username"),
    q("getting an error that my input is missing or wrong", "ERROR\\_004", "insufficient filter fields"),
    q("how to get the quote casts of a cast", "FarcasterQuotedRecasts API", "fetch a list of all quoted recasts")
  ]
}

/** The repositories measured, in the order reported. */
export const repositories: ReadonlyArray<Repository> = [gitbook, beefree, airstack]

export const mirrorPresent = (repository: Repository) => existsSync(repository.mirror)

/** What one question found: the titles of the sources passed, and whether its fact was in their text. */
export interface Result {
  readonly question: string
  readonly expected: string
  readonly fact: string
  readonly passed: ReadonlyArray<string>
  readonly factFound: boolean
}

/** What the measurement found on one repository. */
export interface RetrievalReport {
  readonly repository: string
  readonly questions: number
  /** Questions whose answering page was among the sources. */
  readonly found: number
  readonly rate: number
  /** Questions whose fact was in the passages passed. */
  readonly factsFound: number
  readonly factRate: number
  readonly misses: ReadonlyArray<Result>
}

/** The titles of the sources in a prompt Ask sent the model. */
export const sourceTitles = (system: string): ReadonlyArray<string> =>
  [...system.matchAll(/<source n="\d+" title=("[^"]*")/g)].map((m) => JSON.parse(m[1]!) as string)

const folded = (text: string) => text.toLowerCase().replace(/\s+/g, " ")

/** Whether the passages of a prompt hold `fact` (case and runs of spaces aside). */
export const factIn = (system: string, fact: string): boolean => {
  const sources = [...system.matchAll(/<source [^>]*>([\s\S]*?)<\/source>/g)].map((m) => m[1]!).join("\n")
  return folded(sources).includes(folded(fact))
}

export const reportOf = (repository: string, results: ReadonlyArray<Result>): RetrievalReport => {
  const found = results.filter((r) => r.passed.includes(r.expected)).length
  const factsFound = results.filter((r) => r.factFound).length
  return {
    repository,
    questions: results.length,
    found,
    rate: results.length === 0 ? 0 : found / results.length,
    factsFound,
    factRate: results.length === 0 ? 0 : factsFound / results.length,
    misses: results.filter((r) => !r.passed.includes(r.expected) || !r.factFound)
  }
}

/** A repository's markdown pages under its GitBook root, each titled by its first heading, without that heading. */
export const documentationPages = (repository: Repository): ReadonlyArray<{ readonly title: string; readonly slug: string; readonly document: { readonly markdown: string } }> => {
  const git = (args: ReadonlyArray<string>, input?: string) =>
    execFileSync("git", ["--git-dir", repository.mirror, ...args], { maxBuffer: 1 << 30, ...(input === undefined ? {} : { input }) })
  const entries = git(["ls-tree", "-r", "-z", "main", ...(repository.root === "" ? [] : [repository.root])]).toString("utf8").split("\0")
    .filter((e) => e.endsWith(".md") && e.includes(" blob "))
    .map((e) => {
      const [meta, path] = e.split("\t") as [string, string]
      return [path, meta.split(" ")[2]!] as const
    })
    .filter(([path]) => !path.startsWith(".") && !path.includes("/.") && !path.endsWith("SUMMARY.md"))
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
    let slug = path.slice(repository.root.length).replace(/(\/README)?\.md$/i, "").replace(/[^a-z0-9]+/gi, "-").toLowerCase().slice(-90).replace(/^-+|-+$/g, "") || "home"
    if (slug === "readme") slug = "home"
    while (slugs.has(slug)) slug = `${slug}-x`
    slugs.add(slug)
    return { title: heading?.[1]?.trim() ?? slug, slug, document: { markdown: heading === null ? body : body.replace(heading[0], "") } }
  })
}
