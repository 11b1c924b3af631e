/**
 * What the OpenAPI document says about each operation: a summary, a description and, for the main
 * writes, an example request body. Keyed by `"<group>.<endpoint>"` (the names in `packages/api`);
 * `withOperationDocs` writes them into the document where it is generated (`Api.ts`'s transform).
 */

/** The documentation of one operation. `example` is a request body the operation accepts. */
export interface OperationDoc {
  readonly summary: string
  readonly description: string
  readonly example?: unknown
}

/** Every operation's documentation, by `"<group>.<endpoint>"`. */
export const operationDocs: Readonly<Record<string, OperationDoc>> = {
  // system
  "system.health": {
    summary: "Check the server is up",
    description: "Answers 200 with the kind of database in use while the database answers a query (within 3 seconds), 503 when it does not, so an orchestrator restarts the process. Needs no token; load balancers and orchestrators poll it."
  },

  // users
  "users.getAuthenticatedUser": {
    summary: "Get the authenticated user",
    description: "Answers the user whose API token made the request."
  },
  "users.listInvitesForAuthenticatedUser": {
    summary: "List my pending invitations",
    description: "Quire's addition: the invitations to organizations waiting for the caller to accept or decline them. A single sign-on token sees those of its organization only."
  },
  "users.getUserById": {
    summary: "Get a user",
    description: "Answers a user's public profile by id. Any authenticated caller may read it."
  },
  "users.updateUserById": {
    summary: "Update a user",
    description: "Changes a user's display name or photo. Only the user themselves or an instance administrator may call it.",
    example: { displayName: "Ada Lovelace" }
  },
  "users.createUser": {
    summary: "Create a user",
    description: "Creates a user account on this instance. Only instance administrators may call it.",
    example: { email: "ada@example.com", displayName: "Ada Lovelace" }
  },
  "users.createUserToken": {
    summary: "Issue an API token",
    description: "Issues a new API token for a user; the secret is shown in this answer only and stored as a hash. A user issues their own; instance administrators may issue one for anyone."
  },
  "users.listUserTokens": {
    summary: "List a user's API tokens",
    description: "Lists the tokens of a user, without their secrets, with when each was last used. For the user and instance administrators; others get 404."
  },
  "users.deleteUserTokenById": {
    summary: "Revoke an API token",
    description: "Revokes a token at once on every server of the instance. For the token's owner and instance administrators; others get 404."
  },

  // organizations
  "organizations.listOrganizationsForAuthenticatedUser": {
    summary: "List your organizations",
    description: "Lists the organizations the caller is a member of, paginated."
  },
  "organizations.createOrganization": {
    summary: "Create an organization",
    description: "Creates an organization with the caller as its administrator.",
    example: { title: "Acme Docs" }
  },
  "organizations.getOrganizationById": {
    summary: "Get an organization",
    description: "Answers an organization and the caller's permissions in it. Callers outside the organization get 404."
  },
  "organizations.updateOrganizationById": {
    summary: "Update an organization",
    description: "Changes an organization's title, hostname, default role or other settings. Needs the admin role in the organization.",
    example: { title: "Acme Documentation", hostname: "acme" }
  },
  "organizations.getOrganizationsForEmailDomain": {
    summary: "Find organizations by email domain",
    description: "Lists the organizations that claim an email domain. Callers whose own email is in the domain see all of them; others only those they belong to."
  },
  "organizations.inviteUsersToOrganization": {
    summary: "Invite people by email",
    description: "Invites people to an organization by email, with a role each. Each invitation is an offer: it grants nothing until the person with that email, signed in as themselves, accepts it (`acceptOrganizationMemberInvite`; they find it with `listInvitesForAuthenticatedUser`). It waits 30 days, for an account created later too. An instance administrator's invitation adds existing accounts at once. `users` names the existing users invited, `invited` counts the emails. Needs the admin role."
  },
  "organizations.listOrganizationMemberInvites": {
    summary: "List pending invitations",
    description: "Quire's addition: the organization's invitations that their people have not accepted or declined yet, oldest first. Needs the admin role."
  },
  "organizations.acceptOrganizationMemberInvite": {
    summary: "Accept an invitation",
    description: "Quire's addition: the invited person, signed in as themselves, joins the organization with the invitation's role (a member keeps the higher of the two roles) and, for an `sso` invitation, as an SSO member. Answers the organization. Anyone else's invitation is not found (404)."
  },
  "organizations.declineOrganizationMemberInvite": {
    summary: "Decline an invitation",
    description: "Quire's addition: the invited person declines an invitation, or an admin of the organization withdraws it; it is forgotten. Anyone else gets 404."
  },
  "organizations.listOrganizationInviteLinks": {
    summary: "List invite links",
    description: "Lists an organization's invite links. Needs the admin role."
  },
  "organizations.createOrganizationInvite": {
    summary: "Create an invite link",
    description: "Creates a link that lets whoever holds it join the organization with the given role. Needs the admin role."
  },
  "organizations.deleteOrganizationInviteById": {
    summary: "Delete an invite link",
    description: "Deletes an invite link so it can no longer be used. Needs the admin role."
  },
  "organizations.getOrganizationInviteLink": {
    summary: "Get an invite link",
    description: "Answers an invite link with its role and whether joining would give the caller anything (`redundant`). Admins see any of their organization's links; anyone else who holds the link's id sees it while it can be used."
  },
  "organizations.updateOrganizationInviteById": {
    summary: "Update an invite link",
    description: "Changes the role an invite link gives, or when it expires (`expiresAt`, null for never). Needs the admin role.",
    example: { role: "edit", expiresAt: "2030-01-31T12:00:00Z" }
  },
  "organizations.joinOrganizationWithInvite": {
    summary: "Join with an invite link",
    description: "Makes the caller a member with the invite link's role; a member whose role is lower gets the link's, anyone else is left as they are. Refused when the link is unknown (404), the organization turned invite links off (403) or the link expired (400)."
  },

  // members
  "members.listMembersInOrganizationById": {
    summary: "List members",
    description: "Lists the members of an organization with their roles, paginated. Any member may call it."
  },
  "members.getMemberInOrganizationById": {
    summary: "Get a member",
    description: "Answers one member of an organization and their role. Any member may call it."
  },
  "members.updateMemberInOrganizationById": {
    summary: "Change a member's role",
    description: "Changes a member's role in the organization. Needs the admin role; the last administrator cannot be demoted."
  },
  "members.removeMemberFromOrganizationById": {
    summary: "Remove a member",
    description: "Removes a person from an organization, with their team memberships. Needs the admin role, or is the member leaving."
  },
  "members.setUserAsSSOMemberForOrganization": {
    summary: "Mark a member as SSO",
    description: "Records that a member signs in through the organization's single sign-on. Needs the admin role."
  },
  "members.listTeamsForOrganizationMember": {
    summary: "List a member's teams",
    description: "Lists the teams of the organization a member belongs to. Any member may call it."
  },
  "members.updateOrganizationMemberLastSeenAt": {
    summary: "Record activity",
    description: "Marks the caller as seen now in the organization, which member listings show."
  },

  // teams
  "teams.listTeamsInOrganizationById": {
    summary: "List teams",
    description: "Lists an organization's teams, paginated. Any member may call it."
  },
  "teams.createOrganizationTeam": {
    summary: "Create a team",
    description: "Creates a team holding exactly the members given (the creator is not added). Needs the admin role.",
    example: { title: "Writers", members: [] }
  },
  "teams.getTeamInOrganizationById": {
    summary: "Get a team",
    description: "Answers one team of an organization. Any member may call it."
  },
  "teams.updateTeamInOrganizationById": {
    summary: "Rename a team",
    description: "Changes a team's title. Needs the admin role."
  },
  "teams.removeTeamFromOrganizationById": {
    summary: "Delete a team",
    description: "Deletes a team; its members stay in the organization. Needs the admin role."
  },

  // team members
  "teamMembers.listTeamMembersInOrganizationById": {
    summary: "List a team's members",
    description: "Lists a team's members by name, each with their organization membership and their role in the team. Any member with a role may call it."
  },
  "teamMembers.updateMembersInOrganizationTeam": {
    summary: "Change a team's members",
    description: "Adds, removes and sets the roles of several team members at once, named by user id or email. Someone both added and removed is removed; added users must be members of the organization. Needs the admin role or ownership of the team.",
    example: { add: ["ada@example.com"], remove: [], memberships: {} }
  },
  "teamMembers.addMemberToOrganizationTeamById": {
    summary: "Add a team member",
    description: "Adds a member of the organization to a team, or changes their role in it (`owner` or `member`). Needs the admin role or ownership of the team.",
    example: { role: "member" }
  },
  "teamMembers.deleteMemberFromOrganizationTeamById": {
    summary: "Remove a team member",
    description: "Takes a user out of a team: 205 when they were removed, 204 when they were not in it. Needs the admin role or ownership of the team."
  },

  // sso
  "sso.listSAMLProvidersInOrganizationById": {
    summary: "List SAML providers",
    description: "Lists the SAML identity providers configured for an organization. Needs the admin role."
  },
  "sso.createOrganizationSAMLProvider": {
    summary: "Add a SAML provider",
    description: "Configures a SAML identity provider for signing in to the organization. Needs the admin role."
  },
  "sso.getOrganizationSAMLProviderById": {
    summary: "Get a SAML provider",
    description: "Answers one SAML provider's configuration. Needs the admin role."
  },
  "sso.updateOrganizationSAMLProvider": {
    summary: "Update a SAML provider",
    description: "Changes a SAML provider's label, endpoints or certificate. Needs the admin role."
  },
  "sso.deleteOrganizationSAMLProvider": {
    summary: "Delete a SAML provider",
    description: "Removes a SAML provider; its members sign in with tokens only. Needs the admin role."
  },
  "sso.listSSOProviderLoginsInOrganization": {
    summary: "List sign-in options",
    description: "Lists the single sign-on providers a member of the organization can sign in with."
  },

  // spaces
  "spaces.createSpace": {
    summary: "Create a space",
    description: "Creates an empty space at the organization's root or in a collection. Needs the create permission where the space goes.",
    example: { title: "User guide", emoji: "1f4d8" }
  },
  "spaces.listSpacesInOrganizationById": {
    summary: "List spaces",
    description: "Lists the spaces of an organization the caller can view, paginated."
  },
  "spaces.listSpacesForOrganizationMember": {
    summary: "List a member's spaces",
    description: "Lists the spaces a member of the organization can access, with the permission they hold on each."
  },
  "spaces.getSpaceById": {
    summary: "Get a space",
    description: "Answers a space with its URLs and the caller's permissions. Callers who cannot view it get 404."
  },
  "spaces.updateSpaceById": {
    summary: "Update a space",
    description: "Changes a space's title, emoji, visibility, default access level or lock. Needs the admin permission on the space.",
    example: { title: "User guide (v2)", visibility: "public" }
  },
  "spaces.deleteSpaceById": {
    summary: "Move a space to the trash",
    description: "Moves a space to the trash, from which it can be restored for 7 days. Needs the admin permission; a space the caller cannot see answers 204 as well."
  },
  "spaces.duplicateSpace": {
    summary: "Duplicate a space",
    description: "Copies a space and its current content beside it. Needs view permission on the space and create where the copy goes."
  },
  "spaces.restoreSpace": {
    summary: "Restore a space",
    description: "Brings a space back from the trash within 7 days of its deletion. Needs the admin permission."
  },
  "spaces.moveSpace": {
    summary: "Move a space",
    description: "Moves a space into another collection or to the root, optionally before or after a sibling. Needs the admin permission on the space.",
    example: { parent: null, position: { before: { type: "space", space: "spc_0123456789abcdef" } } }
  },
  "spaces.transferSpace": {
    summary: "Transfer a space to another organization",
    description: "Moves a space to the root of another organization. Needs the admin permission on the space and the admin role in the target organization."
  },

  // collections
  "collections.listCollectionsInOrganizationById": {
    summary: "List collections",
    description: "Lists the collections of an organization the caller can view, paginated."
  },
  "collections.createCollection": {
    summary: "Create a collection",
    description: "Creates a collection at the root or inside another collection. Needs the create permission where it goes.",
    example: { title: "Guides" }
  },
  "collections.getCollectionById": {
    summary: "Get a collection",
    description: "Answers a collection and the caller's permissions on it. Callers who cannot view it get 404."
  },
  "collections.updateCollectionById": {
    summary: "Update a collection",
    description: "Changes a collection's title, description or default access level. Needs the admin permission on it.",
    example: { title: "Product guides", description: "Everything a new user reads first" }
  },
  "collections.deleteCollectionById": {
    summary: "Delete a collection",
    description: "Deletes a collection but keeps its content: its spaces and sub-collections move up to its parent. Needs the admin permission."
  },
  "collections.listSpacesInCollectionById": {
    summary: "List a collection's spaces",
    description: "Lists the spaces directly inside a collection that the caller can view, paginated."
  },
  "collections.moveCollection": {
    summary: "Move a collection",
    description: "Moves a collection into another collection or to the root, never into itself. Needs the admin permission on it."
  },
  "collections.transferCollection": {
    summary: "Transfer a collection to another organization",
    description: "Moves a collection with everything in it to another organization's root. Needs admin on the collection and its content and the admin role in the target."
  },

  // permissions on spaces and collections
  "permissions.inviteToSpace": {
    summary: "Invite users and teams to a space",
    description: "Grants a role on the space to members (guests included) and teams of its organization; a grant they had there takes the new role. A person's access is the highest of what they inherit and their grants. Needs admin on the space; a user who is not a member or a team of another organization is a 400 naming it.",
    example: { role: "edit", users: ["user-id"], teams: ["team-id"] }
  },
  "permissions.listPermissionsAggregateInSpace": {
    summary: "List who can access a space",
    description: "Every member of the organization who can access the space, with their effective role: organization admins, the inherited level, and the grants to them and their teams on the space and its collections. `role` keeps one role only."
  },
  "permissions.listUserPermissionsInSpace": {
    summary: "List the users invited to a space",
    description: "The users with an explicit grant on the space, in the order they were invited, with the role granted."
  },
  "permissions.updateUserPermissionInSpace": {
    summary: "Change a user's role on a space",
    description: "Sets the role granted to a member on the space; null removes the grant. Needs admin on the space; a user who is not a member is a 404.",
    example: { role: "review" }
  },
  "permissions.removeUserFromSpace": {
    summary: "Remove a user's grant on a space",
    description: "Removes the role granted to the user on the space: 205 when it was removed, 204 when there was none. What they inherit stays."
  },
  "permissions.listTeamPermissionsInSpace": {
    summary: "List the teams invited to a space",
    description: "The teams with an explicit grant on the space, in the order they were invited, with the role granted."
  },
  "permissions.updateTeamPermissionInSpace": {
    summary: "Change a team's role on a space",
    description: "Sets the role granted to a team on the space; null removes the grant. Needs admin on the space.",
    example: { role: "comment" }
  },
  "permissions.removeTeamFromSpace": {
    summary: "Remove a team's grant on a space",
    description: "Removes the role granted to the team on the space: 205 when it was removed, 204 when there was none."
  },
  "permissions.inviteToCollection": {
    summary: "Invite users and teams to a collection",
    description: "Grants a role on the collection, and so on everything inside it, to members (guests included) and teams of its organization. Needs admin on the collection; a user who is not a member or a team of another organization is a 400 naming it.",
    example: { role: "read", teams: ["team-id"] }
  },
  "permissions.listPermissionsAggregateInCollection": {
    summary: "List who can access a collection",
    description: "Every member of the organization who can access the collection, with their effective role. `role` keeps one role only."
  },
  "permissions.listUserPermissionsInCollection": {
    summary: "List the users invited to a collection",
    description: "The users with an explicit grant on the collection, in the order they were invited, with the role granted."
  },
  "permissions.updateUserPermissionInCollection": {
    summary: "Change a user's role on a collection",
    description: "Sets the role granted to a member on the collection; null removes the grant. Needs admin on the collection.",
    example: { role: "edit" }
  },
  "permissions.removeUserFromCollection": {
    summary: "Remove a user's grant on a collection",
    description: "Removes the role granted to the user on the collection: 205 when it was removed, 204 when there was none."
  },
  "permissions.listTeamPermissionsInCollection": {
    summary: "List the teams invited to a collection",
    description: "The teams with an explicit grant on the collection, in the order they were invited, with the role granted."
  },
  "permissions.updateTeamPermissionInCollection": {
    summary: "Change a team's role on a collection",
    description: "Sets the role granted to a team on the collection; null removes the grant. Needs admin on the collection.",
    example: { role: "review" }
  },
  "permissions.removeTeamFromCollection": {
    summary: "Remove a team's grant on a collection",
    description: "Removes the role granted to the team on the collection: 205 when it was removed, 204 when there was none."
  },

  // space content
  "spaceContent.getCurrentRevision": {
    summary: "Get the current revision",
    description: "Answers the space's main content: its latest revision with the page tree and files. Needs view permission."
  },
  "spaceContent.listPages": {
    summary: "List pages",
    description: "Answers the page tree of the space's main content, without page bodies. Needs view permission."
  },
  "spaceContent.getPageById": {
    summary: "Get a page",
    description: "Answers a page of the main content, as GitBook's JSON document or, with `format=markdown`, as markdown. Needs view permission."
  },
  "spaceContent.listFiles": {
    summary: "List files",
    description: "Lists the files of the space's main content with their signed download URLs. Needs view permission."
  },
  "spaceContent.getFileById": {
    summary: "Get a file",
    description: "Answers one file of the main content with a signed download URL valid for at least an hour. Needs view permission."
  },
  "spaceContent.applyTemplateToSpace": {
    summary: "Apply a template",
    description: "Adds a built-in template's pages after the space's pages as a new revision. Needs edit permission."
  },
  "spaceContent.importContent": {
    summary: "Import a web page",
    description: "Fetches a web page and adds it to the space's main content as a new page. Needs edit permission."
  },

  "spaceContent.getPageByPath": {
    summary: "Get a page by path",
    description: "Answers the page of the main content at a path (its slugs from the root, joined by `/`; nested paths may keep their slashes or encode them), as a JSON document or, with `format=markdown`, as markdown. 404 when no page has that path. Needs view permission."
  },
  "spacePdf.getSpacePDF": {
    summary: "Export the space as a PDF",
    description: "Renders the main content to a PDF (every page in tree order, or `page` and its subpages, or with `only` that page alone) in embedded Unicode fonts, and answers `{url}`, a download link valid for at least an hour. Needs view permission."
  },

  // revisions
  "revisions.getRevisionById": {
    summary: "Get a revision",
    description: "Answers any revision of the space: a past state of the main content or a revision of one of its change requests, with its page tree and files. 404 for a revision of another space. Needs view permission."
  },
  "revisions.listPagesInRevisionById": {
    summary: "List a revision's pages",
    description: "Answers the page tree of a revision of the space, without page bodies. Needs view permission."
  },
  "revisions.getPageInRevisionById": {
    summary: "Get a page in a revision",
    description: "Answers a page as it was in a revision of the space, as a JSON document or, with `format=markdown`, as markdown. Needs view permission."
  },
  "revisions.getPageInRevisionByPath": {
    summary: "Get a page in a revision by path",
    description: "Answers the page at a path (slugs joined by `/`) in a revision of the space. 404 when no page has that path there. Needs view permission."
  },
  "revisions.listFilesInRevisionById": {
    summary: "List a revision's files",
    description: "Lists the files of a revision of the space with signed download URLs. Needs view permission."
  },
  "revisions.getFileInRevisionById": {
    summary: "Get a file in a revision",
    description: "Answers one file of a revision of the space with a signed download URL. Needs view permission."
  },
  "revisions.getRevisionSemanticChanges": {
    summary: "List what a revision changed",
    description: "Compares a revision with its first parent and answers the pages created, edited (with the attributes that changed), moved and deleted, the files created, edited and deleted, and the variables edited; `limit` (default 10) bounds the list and `more` counts the rest. With `diff=true` (Quire's extension), each page whose markdown changed carries `diff`, a unified line diff. A merge revision names the change request it merged (`mergedFrom`). Needs view permission."
  },
  "changeRequestChanges.getChangeRequestChanges": {
    summary: "List what a change request changed",
    description: "Compares the change request's head with the main revision it was created from or last updated to, so main's own changes since do not show, and answers the changes as getRevisionSemanticChanges does (`limit`, `diff=true`). Needs view permission."
  },

  // search
  "search.searchSpaceContent": {
    summary: "Search a space",
    description: "Searches the main content of a space and answers the matching pages with their best sections, ranked. Needs view permission."
  },
  "search.searchOrganizationContent": {
    summary: "Search an organization",
    description: "Searches the main content of every space of the organization the caller can view, ranked, grouped by space."
  },

  // links
  "links.listSpaceLinks": {
    summary: "List a space's links",
    description: "Lists every link of the space's main content grouped by target, with broken ones marked. Needs view permission."
  },
  "links.listPageLinks": {
    summary: "List a page's links",
    description: "Lists the links that appear on one page of the main content, grouped by target. Needs view permission."
  },
  "links.listPageBacklinks": {
    summary: "List a page's backlinks",
    description: "Lists the pages of the main content that link to a page. Needs view permission."
  },
  "links.listFileBacklinks": {
    summary: "List a file's backlinks",
    description: "Lists the pages of the main content that link to or embed a file. Needs view permission."
  },

  // change requests
  "changeRequests.listChangeRequestsForSpace": {
    summary: "List change requests",
    description: "Lists a space's change requests, newest first; open ones unless `status` says otherwise. Needs view permission."
  },
  "changeRequests.createChangeRequest": {
    summary: "Open a change request",
    description: "Starts a change request, a branch of the space's current content, as a draft. Needs edit permission.",
    example: { subject: "Document the new export options" }
  },
  "changeRequests.getChangeRequestById": {
    summary: "Get a change request",
    description: "Answers a change request by id or number, with whether it is outdated against main. Needs view permission."
  },
  "changeRequests.updateChangeRequestById": {
    summary: "Update a change request",
    description: "Changes a change request's subject, description or status (draft, open, archived); only a merge makes it merged. Needs edit permission.",
    example: { subject: "Document the export options", status: "open" }
  },
  "changeRequests.mergeChangeRequest": {
    summary: "Merge a change request",
    description: "Merges a change request into the space's main content by a three-way merge; conflicts are answered and change nothing. Needs the review permission."
  },
  "changeRequests.updateChangeRequest": {
    summary: "Bring a change request up to date",
    description: "Merges main's latest content into the change request, so it is no longer outdated; conflicts are answered and change nothing. Needs edit permission."
  },
  "changeRequests.getChangeRequestPDF": {
    summary: "Export a change request as PDF",
    description: "Answers a URL to a PDF of the change request's pages. Needs view permission."
  },

  // change request conflicts (Quire's own operations)
  "changeRequestConflicts.listChangeRequestConflicts": {
    summary: "List a change request's conflicts",
    description: "Lists the conflicts the change request's last merge or update found, each with an id (c1, c2, …); a content conflict carries one hunk: the ancestor's, main's and the change request's lines. `stale` says main moved since they were found. Needs view permission."
  },
  "changeRequestConflicts.resolveChangeRequestConflicts": {
    summary: "Resolve a change request's conflicts",
    description: "Settles every conflict in one call, each by taking main's side, the change request's, or (content conflicts) markdown that replaces the hunk's lines. The result is one revision of the change request with main as its second parent, holding main's other changes too, so the next merge is clean. Answers 409 when main or the change request moved since the conflicts were found: update again. Needs edit permission.",
    example: { resolutions: [{ conflict: "c1", take: "markdown", markdown: "The combined paragraph." }, { conflict: "c2", take: "main" }] }
  },

  // change request content
  "changeRequestContent.updateChangeRequestContent": {
    summary: "Edit a change request's content",
    description: "Applies a batch of page and file edits, in order, as one revision of the change request; the first edit that cannot apply refuses the whole batch with a 400. Needs edit permission. The answer is the change request, plus `files` (the files the batch's `insert_files` stored, with their ids and download URLs) when it inserted some.",
    example: {
      changes: [
        { operation: "insert_page", ref: "install", title: "Installation", document: { markdown: "Run `npm install`.\n" } },
        { operation: "update_page", page: "pg_0123456789abcdef", document: { markdown: "See [Installation](./install.md).\n" } }
      ]
    }
  },
  "changeRequestContent.getRevisionOfChangeRequestById": {
    summary: "Get a change request's revision",
    description: "Answers the head revision of a change request with its page tree and files. Needs view permission."
  },
  "changeRequestContent.listPagesInChangeRequest": {
    summary: "List a change request's pages",
    description: "Answers the page tree at the change request's head, without bodies. Needs view permission."
  },
  "changeRequestContent.getPageInChangeRequestById": {
    summary: "Get a page in a change request",
    description: "Answers a page at the change request's head, as a JSON document or markdown. Needs view permission."
  },
  "changeRequestContent.listFilesInChangeRequestById": {
    summary: "List a change request's files",
    description: "Lists the files at the change request's head with signed download URLs. Needs view permission."
  },
  "changeRequestContent.getFileInChangeRequestById": {
    summary: "Get a file in a change request",
    description: "Answers one file at the change request's head with a signed download URL. Needs view permission."
  },
  "changeRequestContent.getPageInChangeRequestByPath": {
    summary: "Get a page in a change request by path",
    description: "Answers the page at a path (slugs joined by `/`) at the change request's head, as a JSON document or markdown. 404 when no page has that path. Needs view permission."
  },
  "changeRequestContent.listChangeRequestFileBacklinks": {
    summary: "List a file's backlinks in a change request",
    description: "Lists the pages at the change request's head that link to a file. Needs view permission."
  },
  "changeRequestContent.listChangeRequestPageLinks": {
    summary: "List a page's links in a change request",
    description: "Lists the links of a page at the change request's head, grouped by target. Needs view permission."
  },
  "changeRequestContent.importContentInChangeRequest": {
    summary: "Import a web page into a change request",
    description: "Fetches a web page and adds it as a new page of the change request. Needs edit permission."
  },

  // comments
  "comments.listCommentsInSpace": {
    summary: "List comments",
    description: "Lists the comments on a space's main content, paginated. Needs view permission."
  },
  "comments.postCommentInSpace": {
    summary: "Post a comment",
    description: "Posts a markdown comment on the space or one of its pages. Needs the comment permission.",
    example: { body: { markdown: "Should this page mention the **CLI**?" }, page: "pg_0123456789abcdef" }
  },
  "comments.getCommentInSpace": {
    summary: "Get a comment",
    description: "Answers one comment with its reactions and the caller's permissions on it. Needs view permission."
  },
  "comments.updateCommentInSpace": {
    summary: "Update a comment",
    description: "Edits a comment's body (its author only), resolves or reopens it, or toggles a reaction. Needs the comment permission.",
    example: { resolved: true }
  },
  "comments.deleteCommentInSpace": {
    summary: "Delete a comment",
    description: "Deletes a comment with its replies. Its author or a space admin may call it; a comment already gone answers 204."
  },
  "comments.listCommentRepliesInSpace": {
    summary: "List replies",
    description: "Lists the replies to a comment, oldest first, paginated. Needs view permission."
  },
  "comments.postCommentReplyInSpace": {
    summary: "Reply to a comment",
    description: "Posts a markdown reply to a comment. Needs the comment permission.",
    example: { body: { markdown: "Yes, a short section at the end." } }
  },
  "comments.getCommentReplyInSpace": {
    summary: "Get a reply",
    description: "Answers one reply to a comment. Needs view permission."
  },
  "comments.updateCommentReplyInSpace": {
    summary: "Update a reply",
    description: "Edits a reply's body (its author only) or toggles a reaction. Needs the comment permission.",
    example: { body: { markdown: "Yes, a short section at the end, with an example." } }
  },
  "comments.deleteCommentReplyInSpace": {
    summary: "Delete a reply",
    description: "Deletes a reply. Its author or a space admin may call it; a reply already gone answers 204."
  },

  // change request reviews, reviewers, contributors and commenters
  "changeRequestReviews.submitChangeRequestReview": {
    summary: "Review a change request",
    description: "Approves the change request's current revision or asks for changes, optionally with a markdown comment that is posted on the change request. Needs the review role; the change request's author cannot review it. Clears the caller's pending review request. An approval counts for the space's merge rules only while the revision it approved is the change request's latest.",
    example: { status: "approved", comment: { markdown: "Reads well, thanks!" } }
  },
  "changeRequestReviews.getReviewsByChangeRequestId": {
    summary: "List a change request's reviews",
    description: "Lists the reviews of a change request, oldest first, paginated. A review is outdated when it was made on another revision than the change request's latest; `outdated=true` or `false` keeps only those. Needs view permission."
  },
  "changeRequestReviews.getChangeRequestReviewById": {
    summary: "Get a change request review",
    description: "Answers one review of the change request, with its comment if it has one. Needs view permission."
  },
  "changeRequestReviews.getRequestedReviewersByChangeRequestId": {
    summary: "List a change request's requested reviewers",
    description: "Lists the reviewers asked for a review who have not reviewed since, oldest request first, paginated. Needs view permission."
  },
  "changeRequestReviews.requestReviewersForChangeRequest": {
    summary: "Request reviewers for a change request",
    description: "Asks members of the organization for a review; each must be able to review the space (the review role or above) and must not be the change request's author (a 400 names `users[i]` otherwise). Asking again renews the request. Optionally changes the subject. Needs the edit role.",
    example: { users: ["u_reviewer"], subject: "Rewrite the installation guide" }
  },
  "changeRequestReviews.removeRequestedReviewerFromChangeRequest": {
    summary: "Withdraw a review request",
    description: "Withdraws the review request of a user: 205 when there was one, 204 when there was none. Needs the edit role, unless the caller withdraws their own request."
  },
  "changeRequestReviews.getContributorsByChangeRequestId": {
    summary: "List a change request's contributors",
    description: "Lists who edited the change request's content (`edit`, counting their edits) and who commented on it (`comment`, counting comments and replies), each with their latest contribution. Needs view permission."
  },
  "changeRequestReviews.listCommentersInSpace": {
    summary: "List the commenters of a space",
    description: "Lists, as organization members, the people who posted comments or replies on the space's own content (not its change requests), ordered by user id, paginated. Needs view permission."
  },
  "changeRequestReviews.listCommentersInChangeRequest": {
    summary: "List the commenters of a change request",
    description: "Lists, as organization members, the people who posted comments or replies on the change request, ordered by user id, paginated. Needs view permission."
  },

  // change request comments
  "changeRequestComments.listCommentsInChangeRequest": {
    summary: "List a change request's comments",
    description: "Lists the comments on a change request, paginated. Needs view permission."
  },
  "changeRequestComments.postCommentInChangeRequest": {
    summary: "Comment on a change request",
    description: "Posts a markdown comment on a change request or one of its pages. Needs the comment permission.",
    example: { body: { markdown: "The new section reads well; one typo in the second paragraph." } }
  },
  "changeRequestComments.getCommentInChangeRequest": {
    summary: "Get a change request comment",
    description: "Answers one comment of a change request. Needs view permission."
  },
  "changeRequestComments.updateCommentInChangeRequest": {
    summary: "Update a change request comment",
    description: "Edits a comment's body (its author only), resolves or reopens it, or toggles a reaction. Needs the comment permission.",
    example: { body: { markdown: "The new section reads well." } }
  },
  "changeRequestComments.deleteCommentInChangeRequest": {
    summary: "Delete a change request comment",
    description: "Deletes a comment with its replies. Its author or a space admin may call it."
  },
  "changeRequestComments.listCommentRepliesInChangeRequest": {
    summary: "List replies in a change request",
    description: "Lists the replies to a change request comment, paginated. Needs view permission."
  },
  "changeRequestComments.postCommentReplyInChangeRequest": {
    summary: "Reply in a change request",
    description: "Posts a markdown reply to a change request comment. Needs the comment permission.",
    example: { body: { markdown: "Fixed, thanks." } }
  },
  "changeRequestComments.getCommentReplyInChangeRequest": {
    summary: "Get a reply in a change request",
    description: "Answers one reply to a change request comment. Needs view permission."
  },
  "changeRequestComments.updateCommentReplyInChangeRequest": {
    summary: "Update a reply in a change request",
    description: "Edits a reply's body (its author only) or toggles a reaction. Needs the comment permission."
  },
  "changeRequestComments.deleteCommentReplyInChangeRequest": {
    summary: "Delete a reply in a change request",
    description: "Deletes a reply. Its author or a space admin may call it."
  },

  // sites
  "sites.listSites": {
    summary: "List sites",
    description: "Lists the organization's docs sites, paginated. Any member may call it."
  },
  "sites.createSite": {
    summary: "Create a site",
    description: "Creates an unpublished docs site in the organization. Needs the admin role.",
    example: { title: "Acme Help Center", visibility: "public" }
  },
  "sites.getSiteById": {
    summary: "Get a site",
    description: "Answers a site with its URLs and publishing state. Any member may call it."
  },
  "sites.updateSiteById": {
    summary: "Update a site",
    description: "Changes a site's title, visibility, hostname or base path. Needs the admin role.",
    example: { title: "Acme Help Center", visibility: "share-link" }
  },
  "sites.deleteSiteById": {
    summary: "Delete a site",
    description: "Deletes a site; its spaces are kept. Needs the admin role."
  },
  "sites.getSiteAdaptiveSchema": {
    summary: "Get a site's adaptive schema",
    description: "Answers the JSON schema of the visitor claims a site's adaptive content may use."
  },
  "sites.updateSiteAdaptiveSchema": {
    summary: "Set a site's adaptive schema",
    description: "Replaces the JSON schema of visitor claims for adaptive content. Needs the admin role."
  },
  "sites.listSiteAdaptiveTemplateConditions": {
    summary: "List adaptive conditions",
    description: "Lists the conditions the site's content uses on visitor claims."
  },
  "sites.getPublishedContentSite": {
    summary: "Get what a site publishes",
    description: "Answers the published form of a site: its sections, spaces and URLs as readers see them."
  },
  "sites.publishSite": {
    summary: "Publish a site",
    description: "Makes a site readable at its URL with its current spaces' main content. Needs the admin role."
  },
  "sites.unpublishSite": {
    summary: "Unpublish a site",
    description: "Takes a site offline at once on every server. Needs the admin role."
  },
  "sites.getSiteStructure": {
    summary: "Get a site's structure",
    description: "Answers a site's sections, section groups and site spaces as a tree."
  },
  "sites.getSitePublishingAuthById": {
    summary: "Get a site's visitor authentication",
    description: "Answers the private key visitors' tokens are signed with, for sites with authenticated access. Needs the admin role."
  },
  "sites.regenerateSitePublishingAuthById": {
    summary: "Regenerate a site's visitor key",
    description: "Replaces the key for authenticated access; tokens signed with the old one stop working. Needs the admin role."
  },
  "sites.getSiteCustomizationById": {
    summary: "Get a site's customization",
    description: "Answers a site's look: title, colors, header links and footer."
  },
  "sites.updateSiteCustomizationById": {
    summary: "Customize a site",
    description: "Replaces a site's customization (title, colors, header, footer). Needs the admin role."
  },

  // site sections
  "siteSections.listSiteSections": {
    summary: "List a site's sections",
    description: "Lists the sections of a site in order."
  },
  "siteSections.addSectionToSite": {
    summary: "Add a section",
    description: "Adds a section to a site, showing a space. Needs the admin role."
  },
  "siteSections.updateSiteSectionById": {
    summary: "Update a section",
    description: "Changes a section's title, icon or path. Needs the admin role."
  },
  "siteSections.deleteSiteSectionById": {
    summary: "Remove a section",
    description: "Removes a section and its site spaces from a site. Needs the admin role."
  },
  "siteSections.moveSiteSection": {
    summary: "Move a section",
    description: "Moves a section before or after another one. Needs the admin role."
  },

  // site section groups
  "siteSectionGroups.listSiteSectionGroups": {
    summary: "List section groups",
    description: "Lists the section groups of a site in order."
  },
  "siteSectionGroups.addSectionGroupToSite": {
    summary: "Add a section group",
    description: "Adds a group that gathers sections under one heading. Needs the admin role."
  },
  "siteSectionGroups.updateSiteSectionGroupById": {
    summary: "Update a section group",
    description: "Changes a section group's title or icon. Needs the admin role."
  },
  "siteSectionGroups.deleteSiteSectionGroupById": {
    summary: "Remove a section group",
    description: "Removes a section group; its sections stay on the site. Needs the admin role."
  },
  "siteSectionGroups.addSectionToSiteSectionGroup": {
    summary: "Put a section in a group",
    description: "Moves a section into a section group. Needs the admin role."
  },
  "siteSectionGroups.removeSectionFromSiteSectionGroup": {
    summary: "Take a section out of a group",
    description: "Takes a section out of its group; it stays on the site. Needs the admin role."
  },
  "siteSectionGroups.moveSiteSectionGroup": {
    summary: "Move a section group",
    description: "Moves a section group before or after another one. Needs the admin role."
  },

  // site spaces
  "siteSpaces.listSiteSpaces": {
    summary: "List site spaces",
    description: "Lists the spaces a site publishes, with their paths."
  },
  "siteSpaces.addSpaceToSite": {
    summary: "Publish a space on a site",
    description: "Adds a space to a site (or a section of it) under a path. Needs the admin role.",
    example: { spaceId: "spc_0123456789abcdef" }
  },
  "siteSpaces.updateSiteSpaceById": {
    summary: "Update a site space",
    description: "Changes a site space's path or the space it shows. Needs the admin role."
  },
  "siteSpaces.deleteSiteSpaceById": {
    summary: "Remove a space from a site",
    description: "Stops publishing a space on a site; the space itself is kept. Needs the admin role."
  },
  "siteSpaces.moveSiteSpace": {
    summary: "Move a site space",
    description: "Moves a site space before or after another one. Needs the admin role."
  },

  // site share links
  "siteShareLinks.listSiteShareLinks": {
    summary: "List share links",
    description: "Lists the links that open a share-link site. Needs the admin role."
  },
  "siteShareLinks.createSiteShareLink": {
    summary: "Create a share link",
    description: "Creates a secret link to a share-link site. Needs the admin role."
  },
  "siteShareLinks.updateSiteShareLinkById": {
    summary: "Update a share link",
    description: "Renames a share link or turns it on or off. Needs the admin role."
  },
  "siteShareLinks.deleteSiteShareLinkById": {
    summary: "Delete a share link",
    description: "Deletes a share link; readers holding it lose access. Needs the admin role."
  },

  // git sync
  "git.importGitRepository": {
    summary: "Import from Git",
    description: "Replaces the space's main content with a Git repository's markdown, in the background. Needs the edit permission on the space; `force` needs admin. The stored credentials serve only the connected branch (another `ref` brings its own or is a 403). Imports beyond the file, tree or page limits fail naming the limit."
  },
  "git.exportToGitRepository": {
    summary: "Export to Git",
    description: "Commits the space's main content to a Git repository branch, in the background. Needs the edit permission on the space; `force` needs admin. The stored credentials serve only the connected branch (another `ref` brings its own or is a 403)."
  },
  "git.getSpaceGitInfo": {
    summary: "Get Git sync state",
    description: "Answers the repository a space syncs with and the state of its last sync. Needs view permission."
  },
  "git.deleteSpaceGitLegacyInstallation": {
    summary: "Forget a legacy Git installation",
    description: "Removes a space's old-style Git installation record. Needs the admin permission on the space."
  },
  "git.connectSpaceGitRepository": {
    summary: "Connect a Git repository",
    description: "Links a space to a repository and branch for two-way sync. Needs the admin permission on the space."
  },
  "git.disconnectSpaceGitRepository": {
    summary: "Disconnect Git",
    description: "Stops syncing a space with its repository; content is kept. Needs the admin permission on the space."
  },
  "git.getSpaceGitWebhook": {
    summary: "Get the Git webhook",
    description: "Answers the URL and secret a Git host calls on each push. Needs the admin permission on the space."
  },
  "gitWebhook.receiveSpaceGitWebhook": {
    summary: "Receive a push from a Git host",
    description: "Called by the Git host on each push; its signature, made with the webhook's secret, authenticates it, so it needs no token."
  },

  // OpenAPI specs
  "openAPISpecs.listOpenAPISpecs": {
    summary: "List OpenAPI specs",
    description: "Lists the OpenAPI specifications stored in an organization. Any member may call it."
  },
  "openAPISpecs.createOpenAPISpec": {
    summary: "Add an OpenAPI spec",
    description: "Stores an OpenAPI specification under a slug, from text or a URL. Needs the create role or above in the organization. Text that expands past 8 MiB of JSON (YAML aliases included) or nests deeper than 100 levels is a 400; a URL's credentials (user, password, token parameters) are stored sealed and never shown."
  },
  "openAPISpecs.getOpenAPISpecBySlug": {
    summary: "Get an OpenAPI spec",
    description: "Answers an OpenAPI specification and its latest version. Any member may call it."
  },
  "openAPISpecs.createOrUpdateOpenAPISpecBySlug": {
    summary: "Create or replace an OpenAPI spec",
    description: "Stores a new version of the spec under the slug, creating it if absent. Needs the create role or above in the organization. The source is bounded and a URL's credentials sealed as on creation."
  },
  "openAPISpecs.updateOpenAPISpecBySlug": {
    summary: "Update an OpenAPI spec",
    description: "Stores a new version of an existing spec from text or a URL. Needs the create role or above in the organization."
  },
  "openAPISpecs.deleteOpenAPISpecBySlug": {
    summary: "Delete an OpenAPI spec",
    description: "Deletes a spec and all its versions. Needs the create role or above in the organization."
  },
  "openAPISpecs.listOpenAPISpecVersions": {
    summary: "List an OpenAPI spec's versions",
    description: "Lists the stored versions of a spec, newest first."
  },
  "openAPISpecs.getLatestOpenAPISpecVersion": {
    summary: "Get the latest version",
    description: "Answers the metadata of a spec's latest version."
  },
  "openAPISpecs.getLatestOpenAPISpecVersionContent": {
    summary: "Get the latest version's content",
    description: "Answers the content of a spec's latest version: `filesystem`, each file's path (`openapi` for the entry document) to its parsed content, and `url`, where the version's document is accessible."
  },
  "openAPISpecs.getOpenAPISpecVersionById": {
    summary: "Get a version",
    description: "Answers the metadata of one version of a spec."
  },
  "openAPISpecs.getOpenAPISpecVersionContentById": {
    summary: "Get a version's content",
    description: "Answers the content of one version of a spec: `filesystem`, each file's path to its parsed content, and `url`, where the version's document is accessible."
  },

  // translations
  "translations.listTranslations": {
    summary: "List translations",
    description: "Lists the organization's translations (a source space kept translated into a target space). Any member may call it."
  },
  "translations.createTranslation": {
    summary: "Create a translation",
    description: "Sets up a space to be translated into a language, into a new or given target space. Needs the admin role."
  },
  "translations.getTranslation": {
    summary: "Get a translation",
    description: "Answers a translation and the state of its last run."
  },
  "translations.updateTranslation": {
    summary: "Update a translation",
    description: "Changes a translation's language or instructions (at most 4000 characters of text, given to the provider as style notes, never as its rules). Needs the admin role."
  },
  "translations.deleteTranslation": {
    summary: "Delete a translation",
    description: "Stops translating; the target space is kept. Needs the admin role."
  },
  "translations.runTranslation": {
    summary: "Run a translation",
    description: "Translates the source space's current content into the target space, in the background. Needs the admin role."
  }
}

type Spec = Record<string, any>

const httpMethods = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"])

/**
 * The `"<group>.<endpoint>"` key of an operation of the generated document: its operationId, or for
 * a top-level group's operation (whose operationId is the endpoint's name alone) its tag and id.
 */
export const operationKey = (operation: Spec): string => {
  const id = String(operation["operationId"])
  return id.includes(".") ? id : `${operation["tags"]?.[0]}.${id}`
}

/** The bearer scheme's description in the document. */
const bearerDescription =
  "An API token (`quire_pat_...`) sent as `Authorization: Bearer <token>`. Issue one with `POST /v1/users/{userId}/tokens` or `quire login --sso ORG`."

/**
 * Writes `operationDocs` into an OpenAPI document (an `OpenApi.annotations` transform): each
 * operation's summary, description and request example, and the bearer scheme's description.
 */
export const withOperationDocs = (spec: Spec): Spec => {
  const paths: Spec = {}
  for (const [path, item] of Object.entries<Spec>(spec["paths"] ?? {})) {
    const operations: Spec = {}
    for (const [method, operation] of Object.entries<Spec>(item)) {
      const doc = httpMethods.has(method) ? operationDocs[operationKey(operation)] : undefined
      if (doc === undefined) {
        operations[method] = operation
        continue
      }
      let requestBody = operation["requestBody"]
      const json = requestBody?.content?.["application/json"]
      if (doc.example !== undefined && json !== undefined) {
        requestBody = { ...requestBody, content: { ...requestBody.content, "application/json": { ...json, example: doc.example } } }
      }
      operations[method] = {
        ...operation,
        summary: doc.summary,
        description: doc.description,
        ...(requestBody === undefined ? {} : { requestBody })
      }
    }
    paths[path] = operations
  }
  const securitySchemes: Spec = {}
  for (const [name, scheme] of Object.entries<Spec>(spec["components"]?.["securitySchemes"] ?? {})) {
    securitySchemes[name] = scheme["type"] === "http" && String(scheme["scheme"]).toLowerCase() === "bearer"
      ? { ...scheme, scheme: "bearer", description: bearerDescription }
      : scheme
  }
  return { ...spec, components: { ...spec["components"], securitySchemes }, paths }
}
