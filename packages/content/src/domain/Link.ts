/** What the domain says about a link of a page: its status, defined with the markdown link rules. */
export { LinkStatus } from "@quire/markdown/domain/LinkStatus"
