import { assert, describe, it } from "@effect/vitest"
import { alertsToHints } from "../src/Alerts.ts"

describe("alertsToHints", () => {
  it("turns each GitHub alert kind into GitBook's hint of its style", () => {
    const styles = { NOTE: "info", TIP: "success", IMPORTANT: "info", WARNING: "warning", CAUTION: "danger" }
    for (const [kind, style] of Object.entries(styles)) {
      assert.strictEqual(
        alertsToHints(`> [!${kind}]\n> Read this.`),
        `{% hint style="${style}" %}\nRead this.\n{% endhint %}`
      )
    }
  })

  it("keeps the alert's lines (blank ones, markdown) and everything around it byte for byte", () => {
    const markdown = "Intro.\n\n> [!warning]\n> Back up **first**.\n>\n> - one\n>   - two\n\nAfter.\n"
    assert.strictEqual(
      alertsToHints(markdown),
      "Intro.\n\n{% hint style=\"warning\" %}\nBack up **first**.\n\n- one\n  - two\n{% endhint %}\n\nAfter.\n"
    )
  })

  it("ends the alert at the first line outside the blockquote; two alerts in a row are two hints", () => {
    assert.strictEqual(
      alertsToHints("> [!TIP]\n> One.\n> [!NOTE]\nPlain."),
      "{% hint style=\"success\" %}\nOne.\n[!NOTE]\n{% endhint %}\nPlain."
    )
    assert.strictEqual(
      alertsToHints("> [!TIP]\n> One.\n\n> [!CAUTION]\n> Two."),
      "{% hint style=\"success\" %}\nOne.\n{% endhint %}\n\n{% hint style=\"danger\" %}\nTwo.\n{% endhint %}"
    )
  })

  it("leaves plain blockquotes, unknown kinds, markers with text after them, and fenced code alone", () => {
    const untouched = [
      "> Just a quote.\n> [!NOTE]\n> not first",
      "> [!DANGER]\n> unknown kind",
      "> [!NOTE] inline text\n> more",
      "```md\n> [!NOTE]\n> shown as code\n```\n",
      "~~~~\n```\n> [!NOTE]\n~~~~\n",
      "Text with [!NOTE] in it."
    ]
    for (const markdown of untouched) assert.strictEqual(alertsToHints(markdown), markdown)
  })

  it("converts after a fence closes, and keeps CRLF line ends", () => {
    assert.strictEqual(
      alertsToHints("```\ncode\n```\n> [!NOTE]\n> Yes."),
      "```\ncode\n```\n{% hint style=\"info\" %}\nYes.\n{% endhint %}"
    )
    assert.strictEqual(
      alertsToHints("> [!NOTE]\r\n> Windows.\r\nAfter.\r\n"),
      "{% hint style=\"info\" %}\r\nWindows.\r\n{% endhint %}\r\nAfter.\r\n"
    )
  })
})
