/**
 * The document's operationIds as GitBook's reference names them (`listCommentsInSpace`), not as
 * effect names them by default (`<group>.<endpoint>`): the endpoints are declared under GitBook's
 * operationIds, and a tool that reads GitBook's and Quire's documents side by side (a generated
 * client, a coverage check) finds each operation under the same name. The contract group stays
 * readable as `x-quire-group`. An endpoint name two groups share keeps its group prefix, so ids stay
 * unique.
 */
type Spec = Record<string, any>

const httpMethods = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"])

export const withGitBookOperationIds = (spec: Spec): Spec => {
  const entries = Object.values<Spec>(spec["paths"] ?? {}).flatMap((item) =>
    Object.entries<Spec>(item).filter(([method]) => httpMethods.has(method)).map(([, operation]) => operation)
  )
  const bare = (id: string) => id.slice(id.indexOf(".") + 1)
  const counts = new Map<string, number>()
  for (const operation of entries) {
    const id = String(operation["operationId"] ?? "")
    counts.set(bare(id), (counts.get(bare(id)) ?? 0) + 1)
  }
  const paths = Object.fromEntries(Object.entries<Spec>(spec["paths"] ?? {}).map(([path, item]) => [
    path,
    Object.fromEntries(Object.entries<Spec>(item).map(([method, operation]) => {
      const id = httpMethods.has(method) ? String(operation["operationId"] ?? "") : ""
      if (!id.includes(".") || counts.get(bare(id)) !== 1) return [method, operation]
      return [method, { ...operation, operationId: bare(id), "x-quire-group": id.slice(0, id.indexOf(".")) }]
    }))
  ]))
  return { ...spec, paths }
}
