/**
 * An endpoint's example request body in the OpenAPI document. Effect's OpenAPI annotations have no
 * key for it, so it is an `OpenApi.annotations({ transform })` of the endpoint's operation:
 * `.annotateMerge(OpenApi.annotations({ summary, description, transform: requestExample(body) }))`.
 */

type Operation = Record<string, any>

/** Shows `example` as the operation's JSON request body; an operation without one is a mistake, thrown. */
export const requestExample = (example: unknown) => (operation: Operation): Operation => {
  const requestBody = operation["requestBody"]
  const json = requestBody?.content?.["application/json"]
  if (json === undefined) throw new Error(`${operation["operationId"]}: a request example needs a JSON request body`)
  return { ...operation, requestBody: { ...requestBody, content: { ...requestBody.content, "application/json": { ...json, example } } } }
}
