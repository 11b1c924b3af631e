/** Real-looking GitBook pages (as Git Sync writes them) and edits of each block kind, for the review diff's tests. */

export const install = `---
description: Install Quire on your own server in a few minutes.
icon: download
---

# Installation

Quire runs as **one process** next to a PostgreSQL database. You need Node 24 and a database.

{% hint style="info" %}
Quire stores every page as markdown, so your content stays yours.
{% endhint %}

## Requirements

* Node.js 24 or later
* PostgreSQL 16 or later
* 1 GB of memory

{% tabs %}
{% tab title="npm" %}
\`\`\`bash
npm install -g quire
\`\`\`
{% endtab %}

{% tab title="Docker" %}
\`\`\`bash
docker run -p 3000:3000 quire/quire
\`\`\`
{% endtab %}
{% endtabs %}

## Settings

| Name | Default | Meaning |
| ---- | ------- | ------- |
| \`PORT\` | 3000 | Where the server listens |
| \`DATABASE_URL\` | none | The PostgreSQL database |

<details>

<summary>Behind a proxy?</summary>

Set \`TRUST_PROXY=1\` so Quire reads the client's address from \`X-Forwarded-For\`.

</details>

{% content-ref url="configuration.md" %}
[configuration.md](configuration.md)
{% endcontent-ref %}
`

export const quickstart = `# Quickstart

1. Sign in as the administrator.
2. Create a space.
3. Write your first page.

{% stepper %}
{% step %}
### Create a space

Pick a name and an emoji.
{% endstep %}

{% step %}
### Invite your team

Send invite links from **Settings › Members**.
{% endstep %}
{% endstepper %}

- [x] Space created
- [ ] Team invited

> Tip: press \`Ctrl+K\` anywhere to search.

$$
f(x) = x^2
$$
`

/** One edit of one block kind: the page before and after, and what the review must show. */
export interface Edit {
  readonly name: string
  readonly base: string
  readonly head: string
}

const swap = (text: string, from: string, to: string): string => {
  if (!text.includes(from)) throw new Error(`fixture edit does not apply: ${from}`)
  return text.replace(from, to)
}

export const edits: ReadonlyArray<Edit> = [
  { name: "hint style changed", base: install, head: swap(install, `{% hint style="info" %}`, `{% hint style="warning" %}`) },
  {
    name: "tab added",
    base: install,
    head: swap(install, `{% endtab %}\n{% endtabs %}`, `{% endtab %}\n\n{% tab title="pnpm" %}\n\`\`\`bash\npnpm add -g quire\n\`\`\`\n{% endtab %}\n{% endtabs %}`)
  },
  { name: "list item removed", base: install, head: swap(install, "* PostgreSQL 16 or later\n", "") },
  { name: "table cell changed", base: install, head: swap(install, "| `PORT` | 3000 |", "| `PORT` | 8080 |") },
  { name: "heading renamed", base: install, head: swap(install, "## Requirements", "## What you need") },
  { name: "frontmatter changed", base: install, head: swap(install, "icon: download", "icon: rocket") },
  { name: "paragraph reworded", base: install, head: swap(install, "You need Node 24 and a database.", "You need Node 24, a database and a domain.") },
  { name: "expandable body changed", base: install, head: swap(install, "`TRUST_PROXY=1`", "`TRUST_PROXY=true`") },
  { name: "code in a tab changed", base: install, head: swap(install, "quire/quire", "ghcr.io/quire/quire") },
  { name: "step added", base: quickstart, head: swap(quickstart, "{% endstep %}\n{% endstepper %}", "{% endstep %}\n\n{% step %}\n### Write\n\nOpen the editor.\n{% endstep %}\n{% endstepper %}") },
  { name: "task checked", base: quickstart, head: swap(quickstart, "- [ ] Team invited", "- [x] Team invited") },
  { name: "math changed", base: quickstart, head: swap(quickstart, "f(x) = x^2", "f(x) = x^3") },
  { name: "block added and block removed", base: quickstart, head: swap(swap(quickstart, "> Tip: press `Ctrl+K` anywhere to search.\n\n", ""), "3. Write your first page.\n", "3. Write your first page.\n\n---\n") }
]
