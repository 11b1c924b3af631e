/**
 * The pages an empty space can start from, in GitBook markdown (hints, tabs, steppers: what the
 * editor and the published site draw), and markdown files turned into pages. Pure, so Node tests it.
 */

/** A page to insert: its title and its markdown. */
export interface StartPage {
  readonly title: string
  readonly markdown: string
}

export interface Template {
  readonly key: string
  readonly title: string
  readonly description: string
  readonly pages: ReadonlyArray<StartPage>
}

export const templates: ReadonlyArray<Template> = [
  {
    key: "getting-started",
    title: "Getting started guide",
    description: "An overview, installation and a first tutorial, for a product people set up themselves.",
    pages: [
      {
        title: "Overview",
        markdown: `What the product is, who it is for, and what this guide covers.

{% hint style="info" %}
New here? Read Installation first, then follow Your first project.
{% endhint %}

## What you can do with it

* The first thing people use it for.
* The second thing.
* Where to get help when something does not work.
`
      },
      {
        title: "Installation",
        markdown: `## Requirements

* The systems it runs on.
* What must be installed first.

## Install

{% tabs %}
{% tab title="macOS" %}
\`\`\`bash
brew install example
\`\`\`
{% endtab %}

{% tab title="Linux" %}
\`\`\`bash
curl -fsSL https://example.com/install.sh | sh
\`\`\`
{% endtab %}
{% endtabs %}

## Check that it works

\`\`\`bash
example --version
\`\`\`
`
      },
      {
        title: "Your first project",
        markdown: `Build something small from start to finish.

{% stepper %}
{% step %}
### Create a project

Run \`example new my-project\` and open the folder it made.
{% endstep %}

{% step %}
### Change something

Edit the file the project starts with, and save it.
{% endstep %}

{% step %}
### See the result

Run \`example start\` and open the address it prints.
{% endstep %}
{% endstepper %}
`
      }
    ]
  },
  {
    key: "api-reference",
    title: "API reference overview",
    description: "Authentication, errors and the resources of an HTTP API, ready for your endpoints.",
    pages: [
      {
        title: "API overview",
        markdown: `The API is organised around REST: predictable URLs, JSON bodies and standard HTTP status codes.

## Base URL

\`\`\`
https://api.example.com/v1
\`\`\`

{% hint style="warning" %}
Every request needs an API key: see Authentication.
{% endhint %}
`
      },
      {
        title: "Authentication",
        markdown: `Send your API key as a bearer token in the \`Authorization\` header:

\`\`\`bash
curl https://api.example.com/v1/things \\
  -H "Authorization: Bearer $API_KEY"
\`\`\`

Keep keys secret: anyone with a key acts as you.
`
      },
      {
        title: "Errors",
        markdown: `Errors answer a status code and a JSON body saying what went wrong.

| Status | Meaning |
| ------ | ------- |
| 400 | The request is malformed: the message names the field. |
| 401 | No API key, or one that is not valid. |
| 404 | The resource does not exist. |
| 429 | Too many requests: wait and try again. |
`
      }
    ]
  },
  {
    key: "faq",
    title: "FAQ",
    description: "Frequently asked questions, each answer folded under its question.",
    pages: [
      {
        title: "Frequently asked questions",
        markdown: `Answers to the questions people ask most. Missing one? Tell us.

<details>

<summary>How do I get started?</summary>

Follow the getting started guide: it takes about ten minutes.

</details>

<details>

<summary>How much does it cost?</summary>

Say what is free, what is paid, and where prices are listed.

</details>

<details>

<summary>Who do I contact for help?</summary>

Say where to write, and how soon people can expect an answer.

</details>
`
      }
    ]
  }
]

/** A file's name without its folder and extension, as a title: `getting-started.md` → `Getting started`. */
const titleOfName = (path: string): string => {
  const base = (path.split("/").pop() ?? path).replace(/\.(md|markdown)$/i, "").replace(/[-_]+/g, " ").trim()
  return base === "" ? "Untitled" : base.charAt(0).toUpperCase() + base.slice(1)
}

/**
 * A markdown file as a page: its first `# Heading` (after any frontmatter) is the title and leaves
 * the body, else the file's name is; titles are cut to the API's 200 characters.
 */
export const pageOfFile = (path: string, text: string): StartPage => {
  const source = text.replace(/^\uFEFF/, "")
  const frontmatter = /^---\r?\n[\s\S]*?\r?\n---\r?\n/.exec(source)?.[0] ?? ""
  const rest = source.slice(frontmatter.length)
  const heading = /^\s*# +(.+?)\s*#*\s*(?:\r?\n|$)/.exec(rest)
  const title = (heading === null ? titleOfName(path) : heading[1]!).slice(0, 200)
  return { title, markdown: heading === null ? source : `${frontmatter}${rest.slice(heading[0].length).replace(/^\s*\n/, "")}` }
}

/** Whether a file is markdown, by its name. */
export const isMarkdown = (name: string): boolean => /\.(md|markdown)$/i.test(name)
