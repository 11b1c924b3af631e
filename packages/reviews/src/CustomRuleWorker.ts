/**
 * The entry point of a thread that evaluates one custom merge rule (see `CustomRules.ts`): a
 * QuickJS interpreter compiled to WebAssembly, with no host objects but the rule's context, a
 * memory limit, a stack limit and an interrupt deadline. It says `{ ready: true }` once loaded,
 * then answers the one task it is sent: `{ value }` (true or false), `{ type }` (what the
 * expression gave instead of a boolean) or `{ error }` (its error's name and message).
 * `CustomRules` terminates it if it overruns all the same.
 */
import variant from "@jitl/quickjs-singlefile-mjs-release-sync"
import { newQuickJSWASMModuleFromVariant, shouldInterruptAfterDeadline } from "quickjs-emscripten-core"
import { parentPort } from "node:worker_threads"

interface Task {
  readonly expression: string
  /** The globals the expression reads, as JSON. */
  readonly context: string
  readonly memoryBytes: number
  readonly deadlineMillis: number
}

const port = parentPort
if (port !== null) {
  const quickjs = await newQuickJSWASMModuleFromVariant(variant)
  port.once("message", (task: Task) => {
    const runtime = quickjs.newRuntime()
    runtime.setMemoryLimit(task.memoryBytes)
    runtime.setMaxStackSize(256 * 1024)
    const vm = runtime.newContext()
    let answer: { readonly value: boolean } | { readonly type: string } | { readonly error: string }
    try {
      // The context is JSON, parsed inside the sandbox: no host object or function crosses over.
      const globals = vm.evalCode(`(() => { const c = JSON.parse(${JSON.stringify(task.context)}); for (const k of Object.keys(c)) globalThis[k] = c[k] })()`)
      if (globals.error !== undefined) throw new Error("the rule's context could not be set")
      globals.value.dispose()
      // The deadline starts with the expression: setting the context is not part of its time.
      runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + task.deadlineMillis))
      const result = vm.evalCode(task.expression, "merge-rule.js")
      if (result.error !== undefined) {
        const error: unknown = vm.dump(result.error)
        result.error.dispose()
        answer = {
          error: typeof error === "object" && error !== null && "message" in error
            ? `${String("name" in error ? error.name : "Error")}: ${String(error.message)}`
            : `it threw ${String(error)}`
        }
      } else {
        const type = vm.typeof(result.value)
        answer = type === "boolean" ? { value: vm.dump(result.value) === true } : { type }
        result.value.dispose()
      }
    } catch (error) {
      answer = { error: error instanceof Error ? error.message : String(error) }
    }
    // An interpreter that ran out of memory may not free cleanly: the thread ends either way.
    try {
      vm.dispose()
      runtime.dispose()
    } catch {
      // Nothing of it outlives this thread.
    }
    port.postMessage(answer)
  })
  port.postMessage({ ready: true })
}
