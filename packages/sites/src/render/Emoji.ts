/**
 * GitHub's emoji shortcodes (`:fire:`, `:white_check_mark:`), which GitBook writes for the emoji of
 * a page, as the emoji themselves (gemoji's names).
 */
import { gemoji } from "gemoji"

const byName: ReadonlyMap<string, string> = new Map(gemoji.flatMap((entry) => entry.names.map((name) => [name, entry.emoji] as const)))

const shortcode = /:([a-z0-9_+-]{1,40}):/g

/** The emoji a shortcode names (`fire` is 🔥), if any. */
export const emojiOf = (name: string): string | undefined => byName.get(name)

/** `text` with the shortcodes it holds replaced by their emoji; unknown ones stay as written. */
export const replaceShortcodes = (text: string): string =>
  text.includes(":") ? text.replace(shortcode, (found, name: string) => byName.get(name) ?? found) : text
