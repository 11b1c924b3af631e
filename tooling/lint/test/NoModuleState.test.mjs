import { RuleTester } from "oxlint/plugins-dev"
import { describe, it } from "vitest"
import plugin from "../plugins/quire.mjs"

RuleTester.describe = describe
RuleTester.it = it

const rule = plugin.rules["no-module-state"]
const inPackage = "/repo/packages/sites/src/Render.ts"
const tester = new RuleTester({ languageOptions: { sourceType: "module" } })

tester.run("quire/no-module-state", rule, {
  valid: [
    // Constants, read-only tables and functions.
    { code: `const limit = 1000\nconst plain = new Set(["", "text"])\nexport const has = (name) => plain.has(name)`, filename: inPackage },
    // State made inside a function (a service's layer) is that function's.
    { code: `export const make = () => {\n  let hits = 0\n  const seen = new Map()\n  return { get: (k) => { hits++; return seen.get(k) }, set: (k, v) => seen.set(k, v) }\n}`, filename: inPackage },
    // A local that shadows a module-level table is not the table.
    { code: `const table = new Map()\nexport const f = () => { const table = new Map(); table.set(1, 2); return table }`, filename: inPackage },
    // Allowed with a reason.
    { code: `// quire-lint-allow module-state: the process's dumps, shared by its suites on purpose\nconst dumps = new Map()\nexport const keep = (k, v) => dumps.set(k, v)`, filename: inPackage },
    // Outside packages/*/src (an app, a test) the rule says nothing.
    { code: `let count = 0\nexport const next = () => ++count`, filename: "/repo/apps/server/src/main.ts" },
    { code: `const seen = new Map()\nseen.set(1, 2)`, filename: "/repo/packages/sites/test/Render.test.ts" }
  ],
  invalid: [
    {
      code: `let instance\nexport const get = () => instance ??= {}`,
      filename: inPackage,
      errors: [{ message: "Module-level `let`: keep this state in a service built in a layer." }]
    },
    {
      code: `export let loading = undefined`,
      filename: inPackage,
      errors: [{ message: "Module-level `let`: keep this state in a service built in a layer." }]
    },
    {
      code: `const parsed = new Map()\nexport const parse = (s) => {\n  let found = parsed.get(s)\n  if (found === undefined) { found = s.trim(); parsed.set(s, found) }\n  return found\n}`,
      filename: inPackage,
      errors: [{ message: "This calls `set` on the module-level `parsed`: keep mutable state in a service built in a layer." }]
    },
    {
      code: `const cache = new WeakMap()\nexport const clear = (k) => { cache.delete(k) }`,
      filename: inPackage,
      errors: [{ message: "This calls `delete` on the module-level `cache`: keep mutable state in a service built in a layer." }]
    },
    {
      code: `const state = { count: 0, items: [] }\nexport const add = (x) => { state.count++; state.items.push(x) }`,
      filename: inPackage,
      errors: [
        { message: "This updates a property of the module-level `state`: keep mutable state in a service built in a layer." },
        { message: "This calls `push` on the module-level `state`: keep mutable state in a service built in a layer." }
      ]
    },
    {
      code: `const pattern = /x/y\nexport const at = (s, i) => { pattern.lastIndex = i; return pattern.exec(s) }`,
      filename: inPackage,
      errors: [{ message: "This assigns to a property of the module-level `pattern`: keep mutable state in a service built in a layer." }]
    },
    {
      code: `export const memo = (() => {\n  const seen = new Map()\n  return (k) => seen.get(k)\n})()`,
      filename: inPackage,
      errors: [{ message: "A function called at load keeps state in its closure: keep it in a service built in a layer." }]
    },
    {
      // A comment without a reason does not allow it.
      code: `// quire-lint-allow module-state:\nlet count = 0\nexport const next = () => ++count`,
      filename: inPackage,
      errors: [{ message: "Module-level `let`: keep this state in a service built in a layer." }]
    }
  ]
})
