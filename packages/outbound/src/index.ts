/** The SSRF-guarded fetch of user-given URLs, shared by content's imports, specs, reviews and gitsync. */
export {
  type AllowList,
  type FetchedResource,
  type FetchOptions,
  isPublicAddress,
  OutboundFetch,
  OutboundFetchError,
  type OutboundFetchOptions,
  OutboundFetchReason,
  parseAllowList,
  permittedAddresses,
  type ResolvedAddress
} from "./OutboundFetch.ts"
