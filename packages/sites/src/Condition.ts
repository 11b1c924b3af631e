/**
 * Conditions of adaptive content: GitBook's JavaScript-like expressions over `visitor.claims`
 * (`visitor.claims.unsigned.plan === "pro" && visitor.claims.beta`), parsed with jsep into a small
 * tree of what the interpreter supports, and evaluated without `eval` against a visitor's claims.
 */
import jsep from "jsep"

/** Longest condition accepted, in characters. */
export const maxLength = 1024

type BinaryOperator =
  | "&&"
  | "||"
  | "=="
  | "!="
  | "==="
  | "!=="
  | "<"
  | "<="
  | ">"
  | ">="
  | "+"
  | "-"
  | "in"

type UnaryOperator = "!" | "-" | "+"

/** The supported expression tree; built only by `parse`. */
export type Node =
  | { readonly kind: "Literal"; readonly value: string | number | boolean | null | undefined }
  | { readonly kind: "Visitor" }
  | { readonly kind: "Array"; readonly elements: ReadonlyArray<Node> }
  | { readonly kind: "Member"; readonly object: Node; readonly key: string | number }
  | { readonly kind: "Includes"; readonly object: Node; readonly argument: Node }
  | { readonly kind: "Unary"; readonly operator: UnaryOperator; readonly argument: Node }
  | { readonly kind: "Binary"; readonly operator: BinaryOperator; readonly left: Node; readonly right: Node }
  | { readonly kind: "Conditional"; readonly test: Node; readonly consequent: Node; readonly alternate: Node }

/** A parsed condition: its source and the tree the interpreter runs. */
export interface Condition {
  readonly source: string
  readonly node: Node
}

export type ParseResult =
  | { readonly ok: true; readonly condition: Condition }
  | { readonly ok: false; readonly message: string }

const binaryOperators: ReadonlySet<string> = new Set<BinaryOperator>([
  "&&",
  "||",
  "==",
  "!=",
  "===",
  "!==",
  "<",
  "<=",
  ">",
  ">=",
  "+",
  "-",
  "in"
])
const unaryOperators: ReadonlySet<string> = new Set<UnaryOperator>(["!", "-", "+"])

/** Property names never read, even when a claim object has them as its own. */
const forbiddenKeys: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"])

// jsep has no `in` by default; relational precedence as in JavaScript.
if (!("in" in jsep.binary_ops)) jsep.addBinaryOp("in", 7)

/** Words jsep reads as names but that start JavaScript constructs no condition may use. */
const keywords: ReadonlySet<string> = new Set([
  "new",
  "typeof",
  "void",
  "delete",
  "await",
  "yield",
  "function",
  "class",
  "import",
  "let",
  "var",
  "const",
  "async"
])

class Unsupported extends Error {}

/** Parses a condition, rejecting anything the interpreter does not support. */
export const parse = (source: string): ParseResult => {
  if (typeof source !== "string") return { ok: false, message: "a condition must be a string" }
  if (source.length > maxLength) {
    return { ok: false, message: `a condition has at most ${maxLength} characters (this one has ${source.length})` }
  }
  if (source.trim() === "") return { ok: false, message: "a condition cannot be empty" }
  let tree: jsep.Expression
  try {
    tree = jsep(source)
  } catch (error) {
    const e = error as { description?: unknown; index?: unknown; message?: unknown }
    const description = typeof e.description === "string" ? e.description : String(e.message)
    const where = typeof e.index === "number" ? ` at character ${e.index}` : ""
    return { ok: false, message: `syntax error${where}: ${description}` }
  }
  try {
    return { ok: true, condition: { source, node: convert(tree) } }
  } catch (error) {
    if (error instanceof Unsupported) return { ok: false, message: error.message }
    throw error
  }
}

const unsupported = (what: string, node: jsep.Expression): never => {
  throw new Unsupported(`${what}, in \`${print(node)}\``)
}

const convert = (node: jsep.Expression): Node => {
  switch (node.type) {
    case "Literal": {
      const { value } = node as jsep.Literal
      if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
        return { kind: "Literal", value }
      }
      return unsupported("only strings, numbers, booleans and null are literals", node)
    }
    case "Identifier": {
      const { name } = node as jsep.Identifier
      if (name === "undefined") return { kind: "Literal", value: undefined }
      if (name === "visitor") return unsupported("`visitor` is read through `visitor.claims.<claim>`", node)
      return unsupported(`unknown name \`${name}\` (conditions read \`visitor.claims.<claim>\`)`, node)
    }
    case "ArrayExpression": {
      const { elements } = node as jsep.ArrayExpression
      return {
        kind: "Array",
        elements: elements.map((element) =>
          element === null ? unsupported("arrays cannot have holes", node) : convert(element)
        )
      }
    }
    case "MemberExpression": {
      const member = node as jsep.MemberExpression
      if (member.optional === true) return unsupported("optional chaining (`?.`) is not supported", node)
      if (!member.computed && member.object.type === "Identifier" && (member.object as jsep.Identifier).name === "visitor") {
        const property = member.property as jsep.Identifier
        if (property.name !== "claims") {
          return unsupported("`visitor` has only `claims`", node)
        }
        return { kind: "Member", object: { kind: "Visitor" }, key: "claims" }
      }
      const key = memberKey(member)
      return { kind: "Member", object: convert(member.object), key }
    }
    case "CallExpression": {
      const call = node as jsep.CallExpression
      const callee = call.callee
      if (
        callee.type === "MemberExpression" &&
        !(callee as jsep.MemberExpression).computed &&
        (callee as jsep.MemberExpression).property.type === "Identifier" &&
        ((callee as jsep.MemberExpression).property as jsep.Identifier).name === "includes"
      ) {
        if (call.arguments.length !== 1) return unsupported("`.includes()` takes exactly one argument", node)
        if ((callee as jsep.MemberExpression).optional === true) {
          return unsupported("optional chaining (`?.`) is not supported", node)
        }
        return {
          kind: "Includes",
          object: convert((callee as jsep.MemberExpression).object),
          argument: convert(call.arguments[0]!)
        }
      }
      return unsupported("calls are not supported, except `<array or string>.includes(<value>)`", node)
    }
    case "UnaryExpression": {
      const { operator, argument } = node as jsep.UnaryExpression
      if (!unaryOperators.has(operator)) return unsupported(`the operator \`${operator}\` is not supported`, node)
      return { kind: "Unary", operator: operator as UnaryOperator, argument: convert(argument) }
    }
    case "BinaryExpression": {
      const { operator, left, right } = node as jsep.BinaryExpression
      if (!binaryOperators.has(operator)) {
        return unsupported(
          `the operator \`${operator}\` is not supported (use ! && || == != === !== < <= > >= + - in)`,
          node
        )
      }
      return { kind: "Binary", operator: operator as BinaryOperator, left: convert(left), right: convert(right) }
    }
    case "ConditionalExpression": {
      const { test, consequent, alternate } = node as jsep.ConditionalExpression
      return { kind: "Conditional", test: convert(test), consequent: convert(consequent), alternate: convert(alternate) }
    }
    case "Compound": {
      const keyword = (node as jsep.Compound).body.find(
        (e): e is jsep.Identifier => e.type === "Identifier" && keywords.has((e as jsep.Identifier).name)
      )
      if (keyword !== undefined) return unsupported(`\`${keyword.name}\` is not supported`, node)
      return unsupported("a condition is one expression (no `;` or juxtaposed expressions)", node)
    }
    case "SequenceExpression":
      return unsupported("a condition is one expression (no `,` sequences)", node)
    case "ThisExpression":
      return unsupported("`this` is not supported", node)
    default:
      return unsupported(`${node.type} is not supported`, node)
  }
}

const memberKey = (member: jsep.MemberExpression): string | number => {
  const property = member.property
  let key: string | number
  if (!member.computed) {
    key = (property as jsep.Identifier).name
  } else if (property.type === "Literal" && typeof (property as jsep.Literal).value === "string") {
    key = (property as jsep.Literal).value as string
  } else if (
    property.type === "Literal" &&
    typeof (property as jsep.Literal).value === "number" &&
    Number.isInteger((property as jsep.Literal).value) &&
    ((property as jsep.Literal).value as number) >= 0
  ) {
    key = (property as jsep.Literal).value as number
  } else {
    return unsupported("computed member access takes a string or a non-negative integer literal", member)
  }
  return key
}

/** Prints a jsep node back to source, for messages. */
const print = (node: jsep.Expression): string => {
  switch (node.type) {
    case "Literal":
      return String((node as jsep.Literal).raw)
    case "Identifier":
      return (node as jsep.Identifier).name
    case "ThisExpression":
      return "this"
    case "ArrayExpression":
      return `[${(node as jsep.ArrayExpression).elements.map((e) => (e === null ? "" : print(e))).join(", ")}]`
    case "MemberExpression": {
      const m = node as jsep.MemberExpression
      const dot = m.optional === true ? "?." : "."
      return m.computed
        ? `${print(m.object)}${m.optional === true ? "?." : ""}[${print(m.property)}]`
        : `${print(m.object)}${dot}${print(m.property)}`
    }
    case "CallExpression": {
      const c = node as jsep.CallExpression
      return `${print(c.callee)}(${c.arguments.map(print).join(", ")})`
    }
    case "UnaryExpression": {
      const u = node as jsep.UnaryExpression
      return `${u.operator}${print(u.argument)}`
    }
    case "BinaryExpression": {
      const b = node as jsep.BinaryExpression
      return `${print(b.left)} ${b.operator} ${print(b.right)}`
    }
    case "ConditionalExpression": {
      const c = node as jsep.ConditionalExpression
      return `${print(c.test)} ? ${print(c.consequent)} : ${print(c.alternate)}`
    }
    case "Compound":
      return (node as jsep.Compound).body.map(print).join(" ")
    case "SequenceExpression":
      return (node as jsep.SequenceExpression).expressions.map(print).join(", ")
    default:
      return node.type
  }
}

/** `visitor.claims` itself. */
const isClaims = (node: Node): boolean => node.kind === "Member" && node.object.kind === "Visitor"

/**
 * The claims a condition can read: the names after `visitor.claims.` it reaches, or `"all"` when
 * it uses `visitor.claims` as a whole (`"aud" in visitor.claims`, `visitor.claims.includes(…)`).
 */
export const claimsRead = (condition: Condition): ReadonlySet<string> | "all" => {
  const names = new Set<string>()
  const walk = (node: Node): boolean => {
    switch (node.kind) {
      case "Literal":
        return true
      case "Visitor":
        return false
      case "Member":
        if (isClaims(node)) return false
        if (isClaims(node.object)) {
          names.add(String(node.key))
          return true
        }
        return walk(node.object)
      case "Array":
        return node.elements.every(walk)
      case "Includes":
        return walk(node.object) && walk(node.argument)
      case "Unary":
        return walk(node.argument)
      case "Binary":
        return walk(node.left) && walk(node.right)
      case "Conditional":
        return walk(node.test) && walk(node.consequent) && walk(node.alternate)
    }
  }
  return walk(condition.node) ? names : "all"
}

class RuntimeProblem extends Error {}

const fail = (): never => {
  throw new RuntimeProblem()
}

/** Evaluates a condition for a visitor's claims; any runtime problem makes it false. */
export const evaluate = (condition: Condition, claims: Readonly<Record<string, unknown>>): boolean => {
  try {
    return Boolean(run(condition.node, claims))
  } catch {
    return false
  }
}

type Primitive = string | number | boolean | null | undefined

const isPrimitive = (value: unknown): value is Primitive =>
  value === null ||
  value === undefined ||
  typeof value === "string" ||
  typeof value === "number" ||
  typeof value === "boolean"

const primitive = (value: unknown): Primitive => (isPrimitive(value) ? value : fail())

const run = (node: Node, claims: Readonly<Record<string, unknown>>): unknown => {
  switch (node.kind) {
    case "Literal":
      return node.value
    case "Visitor":
      return { claims }
    case "Array":
      return node.elements.map((element) => run(element, claims))
    case "Member":
      return read(run(node.object, claims), node.key)
    case "Includes": {
      const target = run(node.object, claims)
      const argument = run(node.argument, claims)
      if (Array.isArray(target)) return target.includes(argument)
      if (typeof target === "string" && typeof argument === "string") return target.includes(argument)
      return fail()
    }
    case "Unary": {
      const argument = run(node.argument, claims)
      switch (node.operator) {
        case "!":
          return !argument
        case "-":
          return -(primitive(argument) as number)
        case "+":
          return +(primitive(argument) as number)
      }
      return fail()
    }
    case "Binary": {
      const left = run(node.left, claims)
      switch (node.operator) {
        case "&&":
          return left ? run(node.right, claims) : left
        case "||":
          return left ? left : run(node.right, claims)
      }
      const right = run(node.right, claims)
      switch (node.operator) {
        case "===":
          return left === right
        case "!==":
          return left !== right
        case "==":
          return looseEquals(left, right)
        case "!=":
          return !looseEquals(left, right)
        case "<":
          return compare(left, right, (a, b) => a < b)
        case "<=":
          return compare(left, right, (a, b) => a <= b)
        case ">":
          return compare(left, right, (a, b) => a > b)
        case ">=":
          return compare(left, right, (a, b) => a >= b)
        case "+": {
          const a = primitive(left)
          const b = primitive(right)
          return typeof a === "string" || typeof b === "string" ? String(a) + String(b) : (a as number) + (b as number)
        }
        case "-":
          return (primitive(left) as number) - (primitive(right) as number)
        case "in": {
          if (typeof right !== "object" || right === null) return fail()
          return ownHas(right, primitive(left))
        }
      }
      return fail()
    }
    case "Conditional":
      return run(node.test, claims) ? run(node.consequent, claims) : run(node.alternate, claims)
  }
}

const ownHas = (object: object, key: Primitive): boolean => {
  const name = String(key)
  return !forbiddenKeys.has(name) && Object.hasOwn(object, name)
}

/** Reads an own property of a plain object or an array; anything else reads as undefined. */
const read = (object: unknown, key: string | number): unknown => {
  if (typeof object !== "object" || object === null) return undefined
  const name = String(key)
  if (forbiddenKeys.has(name) || !Object.hasOwn(object, name)) return undefined
  const descriptor = Object.getOwnPropertyDescriptor(object, name)
  // A getter is code; claims are data.
  return descriptor !== undefined && "value" in descriptor ? descriptor.value : undefined
}

/** `==` between primitives as JavaScript does it; objects and arrays only equal themselves. */
const looseEquals = (left: unknown, right: unknown): boolean =>
  // oxlint-disable-next-line eqeqeq
  isPrimitive(left) && isPrimitive(right) ? left == right : left === right

/** Orders two numbers or two strings; any other pair is not ordered. */
const compare = (
  left: unknown,
  right: unknown,
  ordered: (a: number | string, b: number | string) => boolean
): boolean =>
  (typeof left === "number" && typeof right === "number") || (typeof left === "string" && typeof right === "string")
    ? ordered(left, right)
    : false
