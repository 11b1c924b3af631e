/**
 * A space's first page, to be typed into: a new change request holding one page titled
 * "Untitled", opened in the editor with its title selected (`typeTitleAt`). Creating a space and
 * an empty space's "Write the first page" both land there.
 */
import { callApi } from "../../api/call.ts"
import { useRegistry } from "../../api/react.ts"
import { navigate } from "../../router.ts"
import { changeRequestWithFirstPage, typeTitleAt } from "../editing/content.ts"

/** Opens the space's first page in a new change request; rejects with the API's failure. */
export const useStartFirstPage = () => {
  const registry = useRegistry()
  return async (spaceId: string) => {
    const opened = await callApi(registry, changeRequestWithFirstPage(spaceId))
    navigate(typeTitleAt(spaceId, opened))
  }
}
