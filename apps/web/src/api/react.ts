/**
 * The React binding of `effect/reactivity`, written here because `@effect/atom-react`'s only
 * release imports `effect/unstable/reactivity`, which effect 4.1 moved to `effect/reactivity`
 * (docs/web.md). It is the small part the app uses: a registry in context, `useAtomValue` over
 * `useSyncExternalStore` (the atom stays mounted while a component reads it), and `useMutation`,
 * which runs a mutation atom and resolves with its result.
 */
import { Cause, Option } from "effect"
import { AsyncResult, Atom, AtomRegistry } from "effect/reactivity"
import { createContext, createElement, type ReactNode, useCallback, useContext, useSyncExternalStore } from "react"

const RegistryContext = createContext<AtomRegistry.AtomRegistry | undefined>(undefined)

/** Provides the app's one registry to the components below. */
export const RegistryProvider = (props: { readonly registry: AtomRegistry.AtomRegistry; readonly children: ReactNode }) =>
  createElement(RegistryContext.Provider, { value: props.registry }, props.children)

export const useRegistry = (): AtomRegistry.AtomRegistry => {
  const registry = useContext(RegistryContext)
  if (registry === undefined) throw new Error("useRegistry: no RegistryProvider above this component")
  return registry
}

/** The atom's current value; the component renders again when it changes. */
export const useAtomValue = <A>(atom: Atom.Atom<A>): A => {
  const registry = useRegistry()
  const subscribe = useCallback((onChange: () => void) => {
    const unmount = registry.mount(atom)
    // Told after the current task: reading one atom while a component renders can settle another,
    // and React refuses an update of one component during another's render.
    let live = true
    const unsubscribe = registry.subscribe(atom, () => queueMicrotask(() => live && onChange()))
    return () => {
      live = false
      unsubscribe()
      unmount()
    }
  }, [registry, atom])
  const read = useCallback(() => registry.get(atom), [registry, atom])
  return useSyncExternalStore(subscribe, read, read)
}

/** Reads the atom again (a query atom fetches anew). */
export const useRefresh = () => {
  const registry = useRegistry()
  return useCallback(<A>(atom: Atom.Atom<A>) => registry.refresh(atom), [registry])
}

/** The error a failed result carries, or the failure itself (a defect: transport, decoding). */
export const failureOf = <A, E>(result: AsyncResult.Failure<A, E>): E | unknown => {
  const error = Cause.findErrorOption(result.cause)
  return Option.isSome(error) ? error.value : Cause.squash(result.cause)
}

/**
 * Runs a mutation atom (`QuireApi.mutation(...)`) with `arg`: resolves with its success value,
 * rejects with its typed error (or the defect). The atom stays mounted until it settles.
 */
export const runMutation = <W, A, E>(registry: AtomRegistry.AtomRegistry, atom: Atom.AtomResultFn<W, A, E>, arg: W): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    const unmount = registry.mount(atom)
    let settled = false
    let unsubscribe: (() => void) | undefined
    const settle = (result: AsyncResult.AsyncResult<A, E>) => {
      if (settled || result.waiting || AsyncResult.isInitial(result)) return
      settled = true
      queueMicrotask(() => {
        unsubscribe?.()
        unmount()
      })
      if (AsyncResult.isSuccess(result)) resolve(result.value)
      else reject(failureOf(result))
    }
    unsubscribe = registry.subscribe(atom, settle)
    registry.set(atom, arg)
    settle(registry.get(atom))
  })

/** `runMutation` bound to the registry of the calling component. */
export const useMutation = <W, A, E>(atom: Atom.AtomResultFn<W, A, E>) => {
  const registry = useRegistry()
  return useCallback((arg: W) => runMutation(registry, atom, arg), [registry, atom])
}
