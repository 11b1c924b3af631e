import { assert, describe, it } from "@effect/vitest"
import * as Condition from "../src/Condition.ts"

const parsed = (source: string): Condition.Condition => {
  const result = Condition.parse(source)
  if (!result.ok) assert.fail(`${source} did not parse: ${result.message}`)
  return result.condition
}

const rejected = (source: string): string => {
  const result = Condition.parse(source)
  if (result.ok) assert.fail(`${source} parsed`)
  return result.message
}

const holds = (source: string, claims: Record<string, unknown>): boolean => Condition.evaluate(parsed(source), claims)

describe("Condition", () => {
  const proBeta = {
    isBetaUser: true,
    products: ["create", "publish"],
    plan: "pro",
    seats: 12,
    unsigned: { bucket: "test", plan: "pro", language: "fr" },
    "org-id": "acme",
    nested: { team: { name: "docs" } }
  }
  const free = { isBetaUser: false, products: ["read"], plan: "free", seats: 1, unsigned: { bucket: "control" } }

  it("evaluates the expressions of GitBook's adaptive content docs", () => {
    const cases: ReadonlyArray<readonly [string, boolean, boolean]> = [
      ["visitor.claims.isBetaUser", true, false],
      ["visitor.claims.products.includes('create')", true, false],
      ['visitor.claims.unsigned.bucket === "test"', true, false],
      ['visitor.claims.unsigned.plan === "pro" && visitor.claims.isBetaUser', true, false],
      ['visitor.claims.plan == "pro" || visitor.claims.seats > 10', true, false],
      ["!visitor.claims.isBetaUser", false, true],
      ['visitor.claims.plan !== "free"', true, false],
      ['visitor.claims.plan != "free"', true, false],
      ["visitor.claims.seats >= 12", true, false],
      ["visitor.claims.seats <= 1", false, true],
      ["visitor.claims.seats < 2", false, true],
      ["visitor.claims.seats - 2 > 5", true, false],
      ['visitor.claims.unsigned.language + "-FR" === "fr-FR"', true, false],
      ['["pro", "enterprise"].includes(visitor.claims.plan)', true, false],
      ['"isBetaUser" in visitor.claims && visitor.claims.isBetaUser', true, false],
      ['visitor.claims["org-id"] === "acme"', true, false],
      ["visitor.claims.products[0] === 'create'", true, false],
      ["visitor.claims.products.length > 1", true, false],
      ['visitor.claims.nested.team.name === "docs"', true, false],
      ['visitor.claims.isBetaUser ? visitor.claims.seats > 10 : visitor.claims.plan === "free"', true, true],
      ['visitor.claims.unsigned.bucket.includes("es")', true, false],
      ["(visitor.claims.seats + 1) > 2", true, false],
      ["-visitor.claims.seats < -5", true, false]
    ]
    for (const [source, forPro, forFree] of cases) {
      assert.strictEqual(holds(source, proBeta), forPro, `${source} for a pro beta visitor`)
      assert.strictEqual(holds(source, free), forFree, `${source} for a free visitor`)
    }
  })

  it("reads a missing claim as undefined, and a missing path does not throw", () => {
    assert.isFalse(holds("visitor.claims.missing", {}))
    assert.isTrue(holds("visitor.claims.missing === undefined", {}))
    assert.isTrue(holds("visitor.claims.missing == null", {}))
    assert.isTrue(holds("!visitor.claims.unsigned", {}))
    // Reading through a missing claim is undefined again, not an error.
    assert.isTrue(holds("visitor.claims.unsigned.plan === undefined", {}))
    assert.isTrue(holds('visitor.claims.unsigned.plan !== "pro"', {}))
  })

  it("coerces the result to a boolean", () => {
    assert.isTrue(holds("visitor.claims.plan", { plan: "pro" }))
    assert.isFalse(holds("visitor.claims.plan", { plan: "" }))
    assert.isFalse(holds("visitor.claims.seats", { seats: 0 }))
    assert.isTrue(holds("visitor.claims.seats", { seats: 3 }))
    assert.isTrue(holds('visitor.claims.plan || "anyone"', {}))
    assert.isTrue(holds("true", {}))
    assert.isFalse(holds("null", {}))
  })

  it("is false when evaluation goes wrong instead of throwing", () => {
    // includes on a number, `in` on a string, arithmetic on objects.
    assert.isFalse(holds('visitor.claims.seats.includes("1")', { seats: 12 }))
    assert.isFalse(holds('"a" in visitor.claims.plan', { plan: "abc" }))
    assert.isFalse(holds("visitor.claims.products + 1 === 2", { products: [1] }))
    assert.isFalse(holds('!(visitor.claims.products.includes("x")) && visitor.claims.x.includes(1)', { products: [] }))
    // Ordering only compares two numbers or two strings.
    assert.isFalse(holds("visitor.claims.seats > 1", { seats: "12" }))
    assert.isFalse(holds("visitor.claims.list < 2", { list: [1] }))
    // Loose equality compares objects by identity only.
    assert.isFalse(holds('visitor.claims.list == "1"', { list: [1] }))
  })

  it("never reads the prototype: __proto__, constructor and inherited members are undefined", () => {
    const claims = { plan: "pro", list: ["a"] }
    for (const source of [
      "visitor.claims.__proto__",
      'visitor.claims["__proto__"]',
      "visitor.claims.constructor",
      "visitor.claims.constructor.constructor",
      "visitor.claims.toString",
      "visitor.claims.hasOwnProperty",
      "visitor.claims.plan.length",
      "visitor.claims.list.map",
      '"toString" in visitor.claims',
      '"constructor" in visitor.claims',
      '"__proto__" in visitor.claims',
      "visitor.claims.list.constructor"
    ]) {
      assert.isFalse(holds(source, claims), source)
    }
    assert.isTrue(holds("visitor.claims.constructor === undefined", claims))
    // An own `__proto__` key, as JSON.parse makes from a token's payload, is not read either.
    const hostile = JSON.parse('{"__proto__": {"admin": true}, "constructor": {"name": "x"}}') as Record<string, unknown>
    assert.isFalse(holds("visitor.claims.__proto__.admin", hostile))
    assert.isFalse(holds("visitor.claims.constructor.name", hostile))
    // A getter is code, not a claim.
    let called = false
    const withGetter = Object.defineProperty({}, "plan", {
      enumerable: true,
      get: () => {
        called = true
        return "pro"
      }
    })
    assert.isFalse(holds('visitor.claims.plan === "pro"', withGetter))
    assert.isFalse(called)
    // Array's includes is not looked up on the claim: an own `includes` is never called.
    const fake = { list: { includes: () => true } }
    assert.isFalse(holds('visitor.claims.list.includes("x")', fake))
  })

  it("rejects calls other than includes, with the offending expression in the message", () => {
    for (const source of [
      "visitor.claims.plan.toString()",
      "visitor.claims.constructor.constructor('return process')()",
      "alert(1)",
      "visitor.claims.list.map(visitor.claims.f)",
      'visitor.claims.list.includes("a", 1)',
      "visitor.claims.list.includes()",
      'visitor.claims.list["includes"]("a")'
    ]) {
      const message = rejected(source)
      assert.match(message, /call|includes|argument|unknown name/, `${source}: ${message}`)
    }
    assert.include(rejected("visitor.claims.plan.toString()"), "visitor.claims.plan.toString()")
    assert.include(rejected("visitor.claims.list.includes()"), "exactly one argument")
  })

  it("rejects assignments, this, new, template literals, sequences and unknown names", () => {
    const expectations: ReadonlyArray<readonly [string, RegExp]> = [
      ["visitor.claims.plan = 'pro'", /syntax error at character 20/],
      ["visitor.claims.plan += 1", /syntax error/],
      ["this.constructor", /`this` is not supported/],
      ["new Function('x')", /`new` is not supported/],
      ["typeof visitor.claims.plan", /`typeof` is not supported/],
      ["`${visitor.claims.plan}`", /syntax error at character 0/],
      ["visitor.claims.a, visitor.claims.b", /one expression/],
      ["visitor.claims.a; visitor.claims.b", /one expression/],
      ["process.env", /unknown name `process`/],
      ["user.claims.plan", /unknown name `user`/],
      ["visitor", /visitor\.claims/],
      ["visitor.id", /`visitor` has only `claims`/],
      ["visitor.claims.a ?? 1", /operator `\?\?` is not supported/],
      ["visitor.claims.a * 2", /operator `\*` is not supported/],
      ["visitor.claims.a | 2", /operator `\|` is not supported/],
      ["~visitor.claims.a", /operator `~` is not supported/],
      ["visitor.claims?.a", /optional chaining/],
      ["visitor.claims[visitor.claims.key]", /computed member access/],
      ["visitor.claims[-1]", /computed member access/],
      ["[1,,2]", /holes/],
      ["x => x", /syntax error/],
      ["", /empty/],
      ["   ", /empty/],
      ["visitor.claims.plan ===", /syntax error at character 23/],
      ['visitor.claims.plan === "pro', /syntax error/]
    ]
    for (const [source, expected] of expectations) {
      assert.match(rejected(source), expected, source)
    }
  })

  it("rejects a condition longer than 1024 characters, and handles long valid ones", () => {
    const long = Array.from({ length: 45 }, (_, i) => `visitor.claims.c${i}`).join(" || ")
    assert.isBelow(long.length, 1025)
    assert.isTrue(holds(long, { c44: true }))
    assert.isFalse(holds(long, {}))
    const huge = `visitor.claims.a === "${"x".repeat(1024)}"`
    assert.match(rejected(huge), /at most 1024 characters/)
    // Deep nesting within the limit neither crashes nor hangs.
    const deep = `${"!".repeat(1000)}visitor.claims.a`
    assert.isTrue(holds(deep, { a: true }))
    const parens = `${"(".repeat(500)}visitor.claims.a${")".repeat(500)}`
    assert.isTrue(holds(parens, { a: 1 }))
  })

  it("reads `in` as an operator only between expressions, not inside claim names", () => {
    const claims = { index: 1, inside: true, in: "yes", income: { a: 1 } }
    assert.isTrue(holds("visitor.claims.index === 1", claims))
    assert.isTrue(holds("visitor.claims.inside", claims))
    assert.isTrue(holds('visitor.claims.in === "yes"', claims))
    assert.isTrue(holds('"a" in visitor.claims.income', claims))
    assert.isFalse(holds('"b" in visitor.claims.income', claims))
  })

  it("keeps the source of a parsed condition", () => {
    const source = 'visitor.claims.plan === "pro"'
    assert.strictEqual(parsed(source).source, source)
  })
})
