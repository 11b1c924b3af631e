/**
 * What a list or a tree shows while moves are on their way to the API: the API's value, or the one
 * the last move drew. A move is drawn at once and stays drawn until the API's value agrees with
 * it, or until every move sent has its answer and the API sends a value again. A value the API
 * sends while a move is unanswered is a read from before that move (the refresh after an earlier
 * one), so it does not undraw it; a refused move is undrawn when its answer comes.
 *
 * `served` must keep its identity between the API's answers (an atom's value, or a memo of it).
 */
import { useEffect, useRef, useState } from "react"

export const useShownMove = <A>(served: A, same: (drawn: A, served: A) => boolean = Object.is) => {
  const [drawn, setDrawn] = useState<{ readonly value: A } | undefined>(undefined)
  const unanswered = useRef(0)
  const sameRef = useRef(same)
  sameRef.current = same
  useEffect(() => setDrawn((current) => current !== undefined && unanswered.current > 0 && !sameRef.current(current.value, served) ? current : undefined), [served])
  return {
    shown: drawn === undefined ? served : drawn.value,
    /** Draws `next` now and sends the move; `send` answers whether the API took it. */
    move: async (next: A, send: () => Promise<boolean>) => {
      unanswered.current += 1
      setDrawn({ value: next })
      const accepted = await send().finally(() => { unanswered.current -= 1 })
      if (!accepted) setDrawn(undefined)
    }
  }
}
