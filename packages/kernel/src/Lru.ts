/**
 * A map bounded in entries and in total size (`sizeOf`, in its user's units) that forgets the least
 * recently used entries; an entry larger than the whole size is not kept. The per-process caches
 * of published sites and of link graphs use it.
 */
export class Lru<V> {
  private readonly map = new Map<string, { readonly value: V; readonly size: number }>()
  private total = 0
  constructor(
    private readonly maxEntries: number,
    private readonly maxSize: number,
    private readonly sizeOf: (value: V, key: string) => number
  ) {}
  get(key: string): V | undefined {
    const entry = this.map.get(key)
    if (entry === undefined) return undefined
    this.map.delete(key)
    this.map.set(key, entry)
    return entry.value
  }
  set(key: string, value: V): void {
    const size = this.sizeOf(value, key)
    if (size > this.maxSize) return
    this.drop(key)
    this.map.set(key, { value, size })
    this.total += size
    while (this.map.size > this.maxEntries || this.total > this.maxSize) this.drop(this.map.keys().next().value!)
  }
  private drop(key: string): void {
    const entry = this.map.get(key)
    if (entry === undefined) return
    this.map.delete(key)
    this.total -= entry.size
  }
}
