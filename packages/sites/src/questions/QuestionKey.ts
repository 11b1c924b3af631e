/**
 * How askings are grouped into one question: by their words, lowercased, without stop words and
 * common English endings, in their order ("How do I install Docker?" and "how to install docker"
 * are one question); a question of stop words only keeps its lowercased words.
 */
import { keywordsOf, stemOf } from "@quire/content"

/** Whitespace collapsed and trimmed: the text an asking is shown with. */
export const normalText = (question: string): string => question.replace(/\s+/g, " ").trim()

/** The grouping key of a question. */
export const questionKey = (question: string): string => {
  const stems = keywordsOf(question).map(stemOf)
  const unique = stems.filter((stem, i) => stems.indexOf(stem) === i)
  if (unique.length > 0) return unique.join(" ")
  return normalText(question).toLowerCase().normalize("NFKC").replace(/[\s\p{P}]+$/u, "")
}
