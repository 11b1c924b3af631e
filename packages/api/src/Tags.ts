/**
 * How the OpenAPI document groups its operations for a reader (`/docs`): each contract group's
 * operations under GitBook's tag name for the same resource (`change-request-content`, not the
 * group's `changeRequestContent`), with a title (`x-displayName`) and a description in our words,
 * and the tags gathered into sections (`x-tagGroups`) as GitBook's reference nests them.
 */

interface Tag {
  /** GitBook's tag name where it has one for the resource. */
  readonly name: string
  readonly title: string
  readonly description: string
}

interface Section {
  readonly name: string
  /** Contract group identifiers, in reading order. */
  readonly groups: Readonly<Record<string, Tag>>
}

const sections: ReadonlyArray<Section> = [
  {
    name: "Organizations and people",
    groups: {
      organizations: { name: "organizations", title: "Organizations", description: "The organizations the caller belongs to: their settings, spaces and collections." },
      members: { name: "organization-members", title: "Organization members", description: "Who belongs to an organization, with which role; inviting and removing members." },
      teams: { name: "teams", title: "Teams", description: "Named groups of members, granted access to spaces and collections together." },
      teamMembers: { name: "team-members", title: "Team members", description: "Adding people to a team and removing them." },
      users: { name: "users", title: "Users", description: "The signed-in person and other people's public profiles." },
      notifications: { name: "notifications", title: "Notifications", description: "What happened that concerns the signed-in person: review requests, replies, mentions, merges." },
      permissions: { name: "permissions", title: "Permissions", description: "Who can do what in a space or a collection: granted to a person, a team, or inherited." },
      auditEvents: { name: "audit-events", title: "Audit log", description: "Who changed what, when and from where: sign-ins, tokens, members and roles. Organization admins read it; nobody edits it." },
      sso: { name: "sso", title: "SSO", description: "SAML and OpenID Connect identity providers through which an organization's members sign in." },
      agentInstructions: { name: "agents", title: "Agent instructions", description: "What every agent working in an organization is told, as a document its admins write." },
      aiLog: { name: "ai-log", title: "AI log", description: "Quire's: every call of the model made for an organization, what it was sent and answered, for its admins." }
    }
  },
  {
    name: "Content",
    groups: {
      spaces: { name: "spaces", title: "Spaces", description: "Spaces hold one set of pages with their history; create, move, duplicate and delete them." },
      collections: { name: "collections", title: "Collections", description: "Folders of spaces and other collections, nested to any depth." },
      spaceContent: { name: "space-content", title: "Space content", description: "The pages and files of a space's current revision, read and imported." },
      revisions: { name: "revisions", title: "Revisions", description: "Every past state of a space's content, its pages and files, and what changed." },
      reusableContents: { name: "reusable-content", title: "Reusable content", description: "Blocks of content kept once and shown on many pages." },
      comments: { name: "space-comments", title: "Space comments", description: "Discussions on a space's pages, with replies." },
      search: { name: "search", title: "Search", description: "Full-text search over a space or over every space of an organization." },
      links: { name: "links", title: "Links", description: "The links between pages and files, and those that lead nowhere." },
      freshness: { name: "freshness", title: "Freshness", description: "Quire's: which pages are past their verification, never verified or owned by nobody, per space and organization." },
      spaceEmbeds: { name: "space-embeds", title: "Embeds", description: "What Quire knows of a URL embedded in a space's pages." },
      spaceDocuments: { name: "space-documents", title: "Documents and computed content", description: "Documents of a space by id, pages drawn from an OpenAPI spec without being stored, and a page's meta links." },
      storage: { name: "storage", title: "Storage", description: "Signed URLs a client sends a file's bytes to, for an import or the organization." },
      imports: { name: "imports", title: "Imports", description: "Content brought into a space from a website, Word documents, or exports of Confluence, Notion and other docs tools, by runs with progress." },
      spacePdf: { name: "space-pdf", title: "Export", description: "A space, or one of its pages, as a PDF document; a space as a zip of markdown in GitBook's layout." }
    }
  },
  {
    name: "Change requests",
    groups: {
      changeRequests: { name: "change-requests", title: "Change requests", description: "Proposed edits to a space, reviewed and merged into its main content." },
      changeRequestContent: { name: "change-request-content", title: "Change request content", description: "The pages and files of a change request, read and edited." },
      changeRequestChanges: { name: "change-request-changes", title: "Change request changes", description: "What a change request changes compared with main, page by page." },
      changeRequestConflicts: { name: "change-request-conflicts", title: "Change request conflicts", description: "Where a change request and main edited the same lines, and how each is resolved." },
      changeRequestReviews: { name: "change-request-reviewers", title: "Reviews and reviewers", description: "Requested reviewers, their reviews and the merge rules they satisfy." },
      changeRequestComments: { name: "change-request-comments", title: "Change request comments", description: "Discussions on a change request and on blocks of its pages." },
      changeRequestConversations: { name: "change-request-conversations", title: "Change request agent", description: "Conversations with the agent in a change request: it reads the change request's pages and writes them for the person who asks." }
    }
  },
  {
    name: "Publishing",
    groups: {
      sites: { name: "sites", title: "Docs sites", description: "Published sites: their visibility, customization, structure and publishing state." },
      siteSpaces: { name: "site-spaces", title: "Site spaces", description: "The spaces a site publishes, as variants of a section." },
      siteSections: { name: "site-sections", title: "Site sections", description: "The top-level parts of a site, each with its own spaces." },
      siteStructureOps: { name: "site-structure", title: "Site structure", description: "A site's external links, its structure sorted as a whole, a variant's own look, duplicated variants, templates, search prewarming and channels." },
      siteSectionGroups: { name: "site-section-groups", title: "Site section groups", description: "Sections gathered under one heading in a site's navigation." },
      siteShareLinks: { name: "site-share-links", title: "Site share links", description: "Secret links that open a site that is not public." },
      sitePermissions: { name: "site-permissions", title: "Site permissions", description: "Who may change a site's settings, structure and publishing: members and teams invited with a role on the site." },
      siteUsers: { name: "site-users", title: "Site users", description: "Everyone who can access a site with their role on it, and the roles granted to each user." },
      sitePreview: { name: "site-preview", title: "Site previews", description: "A site as it would be with a change request merged, and links that open that preview." },
      siteRedirects: { name: "site-redirects", title: "Site redirects", description: "Source paths a published site answers with a redirect to a page, a section or another URL." },
      siteExport: { name: "site-export", title: "Site export", description: "Quire's: a published site as static files (pages, markdown, machine files, assets and an offline search) that run from a file system or any static host." },
      urls: { name: "urls", title: "Published URLs", description: "What a published site's URL shows a visitor, with a token that reads only that." },
      siteInsights: { name: "site-insights", title: "Site insights", description: "Events of a published site's readers (page views, searches, link clicks, ratings), kept without cookies or personal data, and their aggregation." },
      siteAgentFeedback: { name: "site-agent-feedback", title: "Site agent feedback", description: "Feedback AI agents leave a site about its pages, tools and endpoints." },
      siteQuestions: { name: "site-questions", title: "Site questions", description: "The questions readers asked a site's Ask, grouped, with whether they were answered and the pages the answers drew on." },
      siteContext: { name: "site-context", title: "Site findings", description: "What readers and customers asked (the site's unanswered questions, failed searches, help desk tickets, issues), clustered into topics, checked against the docs, and the findings that open change requests fixing the gaps." },
      siteAsk: { name: "site-ask", title: "Site Ask", description: "Questions about a published site answered by the team's own model, from the pages the asker may see, citing them." },
      organizationAgentConversations: { name: "organization-agent-conversations", title: "Organization agent", description: "A member's own conversations with the organization's agent, answered from the pages they may read." },
      organizationAsk: { name: "organization-ask", title: "Organization Ask", description: "The organization's assistant: questions answered from the pages of the spaces the asker may read, and the questions worth asking." },
      siteAgentSettings: { name: "site-agent-settings", title: "Site agent settings", description: "What the editing agent is told about a site, and how it treats the findings of scans." },
      styleguides: { name: "styleguides", title: "Style guides", description: "A site's writing rules, started from a template or written by the team, and the checks that comment where a change request's sentences break them." },
      siteMcpServers: { name: "site-mcp-servers", title: "Site MCP servers", description: "Outside tools a site's assistant may call over the Model Context Protocol; their headers are kept sealed and never read back." },
      customFonts: { name: "custom-fonts", title: "Custom fonts", description: "An organization's own fonts, uploaded as WOFF2 or WOFF files, which a site's customization picks and serves with @font-face." },
      customHostnames: { name: "custom-hostnames", title: "Custom hostnames", description: "A site's own hostname, whether its DNS points at this server yet, and an organization's subdomain." }
    }
  },
  {
    name: "Integrations",
    groups: {
      git: { name: "space-git", title: "Git sync", description: "A space kept in step with a Git repository: import, export and their state." },
      gitInstallations: { name: "git", title: "Git installations", description: "An organization's connection to GitHub or GitLab, its token kept sealed, and the repositories and branches it reaches." },
      gitWebhook: { name: "git-webhooks", title: "Git webhooks", description: "Where GitHub and GitLab report pushes, so a synced space imports them." },
      openAPISpecs: { name: "openapi", title: "OpenAPI specs", description: "OpenAPI documents hosted for an organization, with their versions, shown on pages." },
      translations: { name: "translations", title: "Translations", description: "Spaces kept translated into other languages, run by run." },
      translationsGlossary: { name: "glossary", title: "Translation glossary", description: "Terms every translation run keeps as the organization gave them, by language." }
    }
  },
  {
    name: "System",
    groups: {
      system: { name: "system", title: "System", description: "The server's health and version." }
    }
  }
]

const byGroup = new Map(sections.flatMap((section) => Object.entries(section.groups)))

type Spec = Record<string, any>

/** Renames the document's tags (the contract's group identifiers) to the table's, titled, described and sectioned. */
const rename = (tag: string) => byGroup.get(tag)?.name ?? tag

export const withTags = (spec: Spec): Spec => {
  const paths: Spec = {}
  for (const [path, item] of Object.entries<Spec>(spec["paths"] ?? {})) {
    const operations: Spec = {}
    for (const [method, operation] of Object.entries<Spec>(item)) {
      operations[method] = Array.isArray(operation?.["tags"]) ? { ...operation, tags: operation["tags"].map(rename) } : operation
    }
    paths[path] = operations
  }
  const present = new Set<string>((spec["tags"] ?? []).map((tag: Spec) => String(tag["name"])))
  const tags = sections.flatMap((section) =>
    Object.entries(section.groups).filter(([group]) => present.has(group)).map(([, tag]) => ({
      name: tag.name,
      description: tag.description,
      "x-displayName": tag.title
    }))
  )
  const unlisted = (spec["tags"] ?? []).filter((tag: Spec) => !byGroup.has(String(tag["name"])))
  const tagGroups = sections.map((section) => ({
    name: section.name,
    tags: Object.entries(section.groups).filter(([group]) => present.has(group)).map(([, tag]) => tag.name)
  })).filter((group) => group.tags.length > 0)
  return { ...spec, tags: [...tags, ...unlisted], "x-tagGroups": tagGroups, paths }
}
