/** The package runs in the browser and on the server alike: no Node module in its sources, no DOM touched to build the schema or run the codec. */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { createMarkdownCodec, createSchema } from "../src/index.ts"

const src = join(import.meta.dirname, "../src")
const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "../package.json"), "utf8")) as { dependencies: Record<string, string> }

/** The package a bare specifier names (`@tiptap/pm/model` is `@tiptap/pm`). */
const packageOf = (specifier: string): string => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/")

describe("@quire/document is browser-safe", () => {
  it("imports no Node module, and no package it does not declare", () => {
    const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"))
    expect(files.length).toBeGreaterThan(40)
    for (const file of files) {
      const text = readFileSync(join(src, file), "utf8")
      for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
        if (specifier!.startsWith(".")) continue
        expect(specifier, file).not.toMatch(/^node:/)
        expect(Object.keys(manifest.dependencies), `${file} imports ${specifier}`).toContain(packageOf(specifier!))
      }
    }
  })

  it("builds the schema and parses and writes a page where there is no DOM", () => {
    expect(typeof (globalThis as { document?: unknown }).document).toBe("undefined")
    expect(typeof (globalThis as { window?: unknown }).window).toBe("undefined")
    const codec = createMarkdownCodec(createSchema())
    const md = "# Title\n\n{% hint style=\"info\" %}\nSome *text*.\n{% endhint %}\n\n```js\nx()\n```\n"
    const doc = codec.parse(md)
    expect(doc.child(1).type.name).toBe("hint")
    expect(codec.serialize(doc)).toBe(md)
  })
})
