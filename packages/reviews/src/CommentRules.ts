/**
 * Who may do what with comments. The `permissions` objects of responses and the checks that
 * guard the operations are both computed here: viewing needs `view` on the space; replying,
 * reacting and resolving need `comment`; only the author edits a body; the author or a space
 * admin deletes.
 */
import type { Access } from "@quire/content"
import type { CommentPermissions } from "./domain/Comment.ts"

/** The caller's permissions on a comment or a reply posted by `authorId`. */
export const commentPermissions = (space: Access.SpacePermissions, actorId: string, authorId: string): CommentPermissions => {
  const author = actorId === authorId
  return {
    view: space.view,
    edit: author && space.comment,
    reply: space.comment,
    delete: (author && space.comment) || space.admin
  }
}

/** Reacting to, resolving and reopening comments. */
export const canDiscuss = (space: Access.SpacePermissions): boolean => space.comment
