/**
 * The built-in space templates (docs/TEMPLATES.md lists them). A template is a tree of markdown
 * pages and the files they show; its id is stable, because clients apply templates by id.
 * Markdown refers to a template's files as `{{file:<key>}}`, replaced by the file's id when the
 * template is applied.
 */

export interface TemplatePage {
  readonly title: string
  readonly type?: "document" | "group"
  readonly emoji?: string
  readonly description?: string
  /** Documents only. */
  readonly markdown?: string
  readonly pages?: ReadonlyArray<TemplatePage>
}

export interface TemplateFile {
  /** How the template's markdown refers to the file: `{{file:<key>}}`. */
  readonly key: string
  readonly name: string
  readonly contentType: string
  readonly base64: string
}

export interface Template {
  readonly id: string
  readonly title: string
  readonly description: string
  readonly pages: ReadonlyArray<TemplatePage>
  readonly files: ReadonlyArray<TemplateFile>
}

// A 96×32 PNG: a blue banner with a white bar.
const bannerPng =
  "iVBORw0KGgoAAAANSUhEUgAAAGAAAAAgCAIAAABiouoDAAAASklEQVR42u3QAREAIAzEsImaLRQjhjlAwD69Kkj1uf5cCAABAgQIEKA4oBcWIECAAAECBAgQIECAAAECBAhQOpABAQIECBAgQMsfs8tWeAiU0BEAAAAASUVORK5CYII="

const blank: Template = {
  id: "blank",
  title: "Blank",
  description: "One empty page to start writing.",
  files: [],
  pages: [{ title: "Untitled", markdown: "" }]
}

const productDocs: Template = {
  id: "product-docs",
  title: "Product documentation",
  description: "An overview, a quickstart, guides, a FAQ and a changelog for a product.",
  files: [{ key: "banner", name: "banner.png", contentType: "image/png", base64: bannerPng }],
  pages: [
    {
      title: "Overview",
      emoji: "1f44b",
      description: "What the product does and where to start.",
      markdown: `![Product banner](/files/{{file:banner}})

Welcome to the documentation. This page says what the product does, who it is for, and where to go next.

## What it does

Describe the problem the product solves in two or three sentences, then the main things a user can do with it.

## Where to go next

- [Quickstart](quickstart.md): get something working in five minutes.
- [Configuration](guides/configuration.md): adapt it to your setup.
- [FAQ](faq.md): answers to the questions people ask most.
`
    },
    {
      title: "Quickstart",
      emoji: "1f680",
      description: "From nothing to a working setup in five minutes.",
      markdown: `Follow these steps to get a first result.

## 1. Install

\`\`\`bash
npm install example
\`\`\`

## 2. Configure

Create a configuration file with the minimum settings:

\`\`\`json
{
  "name": "my-project"
}
\`\`\`

## 3. Run

\`\`\`bash
npx example start
\`\`\`

{% hint style="info" %}
Stuck? See the [FAQ](faq.md).
{% endhint %}
`
    },
    {
      title: "Guides",
      type: "group",
      pages: [
        {
          title: "Configuration",
          description: "Every setting, with its default.",
          markdown: `Settings are read from the configuration file, then from environment variables.

| Setting | Default | Description |
| --- | --- | --- |
| \`name\` | none | The project's name. |
| \`port\` | \`8080\` | Where the server listens. |
| \`logLevel\` | \`info\` | How much is logged. |
`
        },
        {
          title: "Deployment",
          description: "Running it in production.",
          markdown: `## Requirements

- A server with at least 1 GB of memory.
- A domain name and a TLS certificate.

## Steps

1. Build the release.
2. Copy it to the server.
3. Start it behind a reverse proxy.
`
        }
      ]
    },
    {
      title: "FAQ",
      emoji: "2753",
      markdown: `## Is there a free plan?

Yes. Describe what it includes.

## Where is my data stored?

Describe where and how data is kept.

## How do I get help?

Say where to ask questions and how fast you answer.
`
    },
    {
      title: "Changelog",
      markdown: `## 1.0.0

- First stable release.
`
    }
  ]
}

const apiReference: Template = {
  id: "api-reference",
  title: "API reference",
  description: "Introduction, authentication, errors, pagination and a page per resource of an HTTP API.",
  files: [],
  pages: [
    {
      title: "Introduction",
      emoji: "1f4d6",
      markdown: `The API is organized around REST: predictable resource URLs, JSON bodies, standard HTTP verbs and status codes.

## Base URL

\`\`\`
https://api.example.com/v1
\`\`\`

Read [Authentication](authentication.md) before your first call.
`
    },
    {
      title: "Authentication",
      emoji: "1f511",
      markdown: `Every request carries an API token as a bearer token:

\`\`\`bash
curl https://api.example.com/v1/users/me \\
  -H "Authorization: Bearer $API_TOKEN"
\`\`\`

Tokens are created in your account settings. Keep them secret: a token acts as you.
`
    },
    {
      title: "Errors",
      markdown: `Errors use HTTP status codes and a JSON body:

\`\`\`json
{ "error": { "code": 404, "message": "User \\"123\\" not found" } }
\`\`\`

| Status | Meaning |
| --- | --- |
| 400 | The request is invalid; the message names the field. |
| 401 | The token is missing or invalid. |
| 403 | The token's user may not do this. |
| 404 | The resource does not exist. |
| 409 | The request conflicts with the current state. |
`
    },
    {
      title: "Pagination",
      markdown: `Lists answer at most \`limit\` items (default 50) and a \`next.page\` cursor when more exist:

\`\`\`json
{ "items": [], "next": { "page": "eyJrIjoxfQ" } }
\`\`\`

Pass the cursor as the \`page\` query parameter to get the next page.
`
    },
    {
      title: "Resources",
      type: "group",
      pages: [
        {
          title: "Users",
          markdown: `## Get the current user

\`GET /users/me\`

Answers the user the token belongs to.

\`\`\`json
{ "id": "u_123", "displayName": "Ada Lovelace" }
\`\`\`
`
        }
      ]
    }
  ]
}

const knowledgeBase: Template = {
  id: "knowledge-base",
  title: "Knowledge base",
  description: "How-to articles, troubleshooting and a glossary, for a team or for customers.",
  files: [],
  pages: [
    {
      title: "Welcome",
      emoji: "1f4da",
      markdown: `This knowledge base collects what we know so nobody has to ask twice.

- [How-to articles](how-to.md): step-by-step answers to common tasks.
- [Troubleshooting](troubleshooting.md): symptoms and their fixes.
- [Glossary](glossary.md): the words we use.
`
    },
    {
      title: "How-to",
      markdown: "Step-by-step articles, one task each.\n",
      pages: [
        {
          title: "Reset a password",
          markdown: `1. Open the sign-in page and choose **Forgot password**.
2. Enter your email address.
3. Follow the link in the email within one hour.
`
        },
        {
          title: "Invite a teammate",
          markdown: `1. Open **Settings → Members**.
2. Choose **Invite** and enter their email address.
3. Pick their role, then send the invitation.
`
        }
      ]
    },
    {
      title: "Troubleshooting",
      markdown: `## The page does not load

Clear the browser's cache, then try again in a private window.

## I do not receive emails

Check the spam folder, then ask an administrator to check the address on your account.
`
    },
    {
      title: "Glossary",
      markdown: `**Space**
: A set of pages about one subject.

**Collection**
: A folder of spaces.
`
    }
  ]
}

const runbook: Template = {
  id: "runbook",
  title: "Runbook",
  description: "On-call, incident response, escalation and postmortems for an operations team.",
  files: [],
  pages: [
    {
      title: "Overview",
      emoji: "1f6a8",
      markdown: `This runbook says what to do when something breaks. Keep it short, current and tested.

- [On-call](on-call.md)
- [Incident response](incident-response.md)
- [Escalation](escalation.md)
- [Postmortem template](postmortem-template.md)
`
    },
    {
      title: "On-call",
      markdown: `## Rotation

One primary and one secondary, weekly, handed over on Monday at 10:00.

## Before your shift

- [ ] Your phone receives test pages.
- [ ] You can reach the dashboards and the production console.
`
    },
    {
      title: "Incident response",
      markdown: `1. **Acknowledge** the alert within 5 minutes.
2. **Assess** the impact: who is affected, since when, how badly.
3. **Communicate**: open an incident channel and post a first status.
4. **Mitigate** first, investigate later.
5. **Close** the incident once the service is back, then schedule a postmortem.
`
    },
    {
      title: "Escalation",
      markdown: `| Severity | Example | Escalate to | Within |
| --- | --- | --- | --- |
| SEV1 | Full outage | Engineering lead | 15 minutes |
| SEV2 | Degraded service | Team lead | 1 hour |
| SEV3 | Minor bug | Backlog | Next working day |
`
    },
    {
      title: "Postmortem template",
      markdown: `## Summary

What happened, in two sentences.

## Timeline

| Time (UTC) | Event |
| --- | --- |
| | |

## Root cause

## What went well

## Action items

- [ ] 
`
    }
  ]
}

/** Every built-in template, by id. */
export const templates: ReadonlyMap<string, Template> = new Map(
  [blank, productDocs, apiReference, knowledgeBase, runbook].map((template) => [template.id, template])
)
