/**
 * State of the in-memory adapters that takes part in the memory Transactor's transactions: each
 * write made inside a transaction is journaled on the fiber running it, and a transaction that
 * fails or is interrupted undoes its writes, as a database rolls back.
 */
import { Context, Exit, Fiber } from "effect"

/** The undo actions of one transaction, in the order its writes happened. */
export class Journal {
  private readonly undo: Array<() => void> = []

  record(action: () => void): void {
    this.undo.push(action)
  }

  /** Undoes every write, newest first. */
  rollback(): void {
    for (let i = this.undo.length - 1; i >= 0; i--) this.undo[i]!()
    this.undo.length = 0
  }

  /** Hands the writes of a nested transaction that succeeded to its parent (which may still roll them back). */
  commitInto(parent: Journal | undefined): void {
    if (parent !== undefined) for (const action of this.undo) parent.record(action)
    this.undo.length = 0
  }

  /** Ends the transaction: keeps its writes on success, undoes them otherwise. */
  settle(exit: Exit.Exit<unknown, unknown>, parent: Journal | undefined): void {
    if (Exit.isSuccess(exit)) this.commitInto(parent)
    else this.rollback()
  }
}

/** The journal of the transaction the current fiber runs in, if any. */
export const CurrentJournal = Context.Reference<Journal | undefined>("@quire/kernel/MemoryStore/CurrentJournal", {
  defaultValue: () => undefined
})

/** Journals `undo` when the current fiber is inside a memory transaction. */
export const recordUndo = (undo: () => void): void => {
  Fiber.getCurrent()?.getRef(CurrentJournal)?.record(undo)
}

/**
 * A Map whose writes roll back with the memory transaction that made them. Values are replaced,
 * never mutated in place, by the adapters that use it (an in-place mutation is not journaled).
 */
export class TxMap<K, V> extends Map<K, V> {
  override set(key: K, value: V): this {
    if (super.has(key)) {
      const previous = super.get(key) as V
      recordUndo(() => super.set(key, previous))
    } else {
      recordUndo(() => super.delete(key))
    }
    return super.set(key, value)
  }

  override delete(key: K): boolean {
    if (!super.has(key)) return false
    const previous = super.get(key) as V
    recordUndo(() => super.set(key, previous))
    return super.delete(key)
  }

  override clear(): void {
    const entries = Array.from(super.entries())
    recordUndo(() => {
      for (const [key, value] of entries) super.set(key, value)
    })
    super.clear()
  }
}

/** A mutable cell (a counter, a sequence) whose writes roll back like a {@link TxMap}'s. */
export class TxRef<A> {
  constructor(private current: A) {}

  get(): A {
    return this.current
  }

  set(value: A): void {
    const previous = this.current
    recordUndo(() => {
      this.current = previous
    })
    this.current = value
  }
}
