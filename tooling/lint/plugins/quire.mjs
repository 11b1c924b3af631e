/**
 * Quire's own lint rules, an oxlint JS plugin (`jsPlugins` in oxlintrc.json).
 *
 * `quire/no-module-state`: a module of `packages/<name>/src` keeps no mutable state of its own.
 * A cache, a loaded instance or a table is state of a service built in a layer, so two servers in
 * one process share nothing by accident (STYLE.md). The rule flags, at a module's top level:
 * - a `let` or `var` declaration;
 * - a `const` that the module mutates: a method that changes a Map, Set, WeakMap or array (`set`,
 *   `add`, `delete`, `clear`, `push`, `splice`...), or an assignment, `delete` or `++` of a
 *   property, on the constant or a property path of it;
 * - a function called at load whose own scope declares a `let` or builds a Map, Set, WeakMap or
 *   WeakSet (a memo hidden in a closure).
 * Where module state is truly needed, `// quire-lint-allow module-state: <reason>` on the line
 * before the declaration allows it; the reason is required.
 *
 * `quire/no-measurement-comments`: a comment in `packages/<name>/src` or `apps/<name>/src` says what
 * the code does and why, not what a run measured or which issue asked for it: those go to docs/,
 * where they can be dated and measured again. The rule flags a comment that names an issue
 * ("issue 35", "(#35)"), or a sentence of one that quotes a figure as evidence: a number with a
 * unit of time, throughput or ratio ("300 ms", "927 req/s", "3x", "40%") beside a verb of
 * measuring ("took", "held", "spent", "measured", "faster"...). A setting or a bound described by
 * its value ("every 100 ms", "at most 1 MB") is not evidence and passes.
 * `// quire-lint-allow measurement: <reason>` as a comment's first line allows it and the line
 * comments that continue it.
 */

const mutators = new Set([
  "set", "add", "delete", "clear", "push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin"
])
const collections = new Set(["Map", "Set", "WeakMap", "WeakSet"])
const allowPattern = /quire-lint-allow module-state:\s*\S/
const scoped = /(^|[\\/])packages[\\/][^\\/]+[\\/]src[\\/]/

/** Whether a comment just above `node` allows module state, with a reason. */
const allowed = (sourceCode, node) =>
  sourceCode.getCommentsBefore(node).some((comment) => allowPattern.test(comment.value))

/** The expression a use of a binding changes, if it changes one: the binding's value or a property path of it. */
const mutation = (identifier) => {
  let node = identifier
  while (node.parent?.type === "MemberExpression" && node.parent.object === node) {
    const member = node.parent
    const above = member.parent
    if (above?.type === "AssignmentExpression" && above.left === member) return "assigns to a property of"
    if (above?.type === "UpdateExpression" && above.argument === member) return "updates a property of"
    if (above?.type === "UnaryExpression" && above.operator === "delete" && above.argument === member) return "deletes a property of"
    if (above?.type === "CallExpression" && above.callee === member) {
      const name = member.computed ? (member.property.type === "Literal" ? member.property.value : undefined) : member.property.name
      return typeof name === "string" && mutators.has(name) ? `calls \`${name}\` on` : undefined
    }
    node = member
  }
  return undefined
}

/** Whether a function's own body (not nested functions) declares a `let` or builds a collection. */
const keepsState = (fn) => {
  let found = false
  const visit = (node, top) => {
    if (found || node === null || typeof node !== "object") return
    if (!top && (node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression" || node.type === "FunctionDeclaration")) return
    if (node.type === "VariableDeclaration" && (node.kind === "let" || node.kind === "var")) found = true
    if (node.type === "NewExpression" && node.callee.type === "Identifier" && collections.has(node.callee.name)) found = true
    for (const key of Object.keys(node)) {
      if (key === "parent") continue
      const child = node[key]
      if (Array.isArray(child)) for (const item of child) visit(item, false)
      else if (child !== null && typeof child === "object" && typeof child.type === "string") visit(child, false)
    }
  }
  visit(fn, true)
  return found
}

/** The function called at load by `init`, if it is one (`(() => {...})()`, `(function () {...})()`). */
const immediatelyCalled = (init) => {
  if (init?.type !== "CallExpression") return undefined
  const callee = init.callee
  return callee.type === "ArrowFunctionExpression" || callee.type === "FunctionExpression" ? callee : undefined
}

const noModuleState = {
  meta: {
    type: "problem",
    docs: { description: "No mutable state at a module's top level in packages/*/src: make it state of a service built in a layer." },
    schema: []
  },
  create(context) {
    if (!scoped.test(context.physicalFilename ?? context.filename)) return {}
    const sourceCode = context.sourceCode
    const checkDeclaration = (declaration, statement) => {
      if (allowed(sourceCode, statement)) return
      if (declaration.kind === "let" || declaration.kind === "var") {
        context.report({
          node: declaration,
          message: `Module-level \`${declaration.kind}\`: keep this state in a service built in a layer.`
        })
        return
      }
      for (const declarator of declaration.declarations) {
        const fn = immediatelyCalled(declarator.init)
        if (fn !== undefined && keepsState(fn)) {
          context.report({ node: declarator, message: "A function called at load keeps state in its closure: keep it in a service built in a layer." })
        }
      }
      for (const variable of sourceCode.getDeclaredVariables(declaration)) {
        for (const reference of variable.references) {
          if (reference.init) continue
          const what = mutation(reference.identifier)
          if (what === undefined) continue
          context.report({
            node: reference.identifier,
            message: `This ${what} the module-level \`${variable.name}\`: keep mutable state in a service built in a layer.`
          })
        }
      }
    }
    return {
      Program(program) {
        for (const statement of program.body) {
          if (statement.type === "VariableDeclaration") checkDeclaration(statement, statement)
          else if (statement.type === "ExportNamedDeclaration" && statement.declaration?.type === "VariableDeclaration") {
            checkDeclaration(statement.declaration, statement)
          }
        }
      }
    }
  }
}

const sourceScoped = /(^|[\\/])(packages|apps)[\\/][^\\/]+[\\/]src[\\/]/
const issuePattern = /\bissues?\s+#?\d+\b|\(#\d+\)/i
const quantityPattern = /(?<![\w.-])\d[\d,.]*\s?(?:ms|µs|us|ns|s|seconds?|minutes?|req\/s|CPU-s|%|x)(?![\w-])|\b\d+ times\b|\b(?:twice|half|a (?:third|quarter|fifth|tenth)) (?:as (?:fast|slow|long)|the (?:CPU|time|throughput))/i
const measuringPattern = /\b(?:took|takes|taking|held|spent|spends|measured|measurements?|benchmarked|faster|slower|speed-?up|regress(?:ed|ion))\b/i
const allowMeasurement = /quire-lint-allow measurement:\s*\S/

/** The sentences of a comment's text, its `*` gutters and line breaks folded. */
const sentences = (text) => text.replace(/^\s*\*+ ?/gm, " ").replace(/\s+/g, " ").split(/(?<=[.;!?])\s+(?=[A-Z(`"])/)

const noMeasurementComments = {
  meta: {
    type: "suggestion",
    docs: { description: "Comments in packages/*/src and apps/*/src say what and why; measurements and issue numbers go to docs/." },
    schema: []
  },
  create(context) {
    if (!sourceScoped.test(context.physicalFilename ?? context.filename)) return {}
    return {
      Program() {
        // An allowing line reaches the comments that continue it on the next lines.
        let allowedThrough = -1
        for (const comment of context.sourceCode.getAllComments()) {
          const text = comment.value
          if (allowMeasurement.test(text.split("\n")[0] ?? "") || comment.loc.start.line === allowedThrough + 1) {
            allowedThrough = comment.loc.end.line
            continue
          }
          if (issuePattern.test(text)) {
            context.report({ loc: comment.loc, message: "A comment names an issue: say what the code does and why; the issue's story goes to docs/ or the commit message." })
            continue
          }
          const quoted = sentences(text).find((sentence) => quantityPattern.test(sentence) && measuringPattern.test(sentence))
          if (quoted !== undefined) {
            const at = quoted.search(quantityPattern)
            const figure = quoted.slice(Math.max(0, at - 40), at + 30).trim()
            context.report({ loc: comment.loc, message: `A comment quotes a measurement ("…${figure}…"): keep the why here and move the figure to docs/.` })
          }
        }
      }
    }
  }
}

export default {
  meta: { name: "quire" },
  rules: { "no-module-state": noModuleState, "no-measurement-comments": noMeasurementComments }
}
