/**
 * Every window of a fixed width of some needles, found in a text in one scan with a rolling hash:
 * the cost is linear in the text and in the needles, whatever their length, and no regular
 * expression is ever built from a secret. A hash only proposes a window; it is compared code unit
 * by code unit before it counts, so a collision costs a comparison and never a false match. Pure.
 */

/** The multiplier of the polynomial hash (odd, so every power of it is too). */
const BASE = 0x01000193

/** Size of the filter in `Windows.seen`: 2^21 bits (256 KiB), few false hits for any secret. */
const FILTER_BITS = 1 << 21

/** `BASE` to the power `exponent`, modulo 2^32. */
function power(exponent: number): number {
  let result = 1
  for (let k = 0; k < exponent; k++) result = Math.imul(result, BASE)
  return result
}

/** The windows of one width, from any number of needles, and where each is found. */
export class Windows {
  readonly width: number
  private readonly drop: number
  /** The needles' code units, one after another; a window is named by its offset here. */
  private pool = new Uint16Array(64)
  private used = 0
  /** The first window with each hash (the hash's top 30 bits, so the keys stay small integers). */
  private readonly first = new Map<number, number>()
  /** Further windows with a hash already taken, different from the first (rare). */
  private readonly more = new Map<number, number[]>()
  /**
   * One bit per low bits of a key: set for every window held. Most windows of a text are none of
   * the secret's, and this turns them away without a map lookup.
   */
  private readonly seen = new Int32Array(FILTER_BITS >>> 5)

  constructor(width: number) {
    if (!Number.isInteger(width) || width < 1) throw new RangeError('a window is at least 1 long')
    this.width = width
    this.drop = power(width - 1)
  }

  /** How many distinct windows are held. */
  get size(): number {
    let count = this.first.size
    for (const offsets of this.more.values()) count += offsets.length
    return count
  }

  /** Adds every window of `needle` (one when it is as long as the width, none when shorter). */
  add(needle: ArrayLike<number>): void {
    if (needle.length < this.width) return
    const offset = this.append(needle)
    this.roll(this.pool, offset, offset + needle.length, (end, key) => {
      const at = end - this.width
      const taken = this.first.get(key)
      if (taken === undefined) {
        this.first.set(key, at)
        const bit = key & (FILTER_BITS - 1)
        this.seen[bit >>> 5] = (this.seen[bit >>> 5] ?? 0) | (1 << (bit & 31))
        return
      }
      if (this.matches(this.pool, at, taken)) return
      const others = this.more.get(key) ?? []
      if (others.some((other) => this.matches(this.pool, at, other))) return
      others.push(at)
      this.more.set(key, others)
    })
  }

  /**
   * Calls `found(start, end)` with the unit range of every window of `codes[0, length)` that is
   * one of the windows held, in order.
   */
  find(codes: Uint16Array, length: number, found: (start: number, end: number) => void): void {
    if (this.first.size === 0) return
    // The rolling hash of `roll`, written out: this loop runs once per unit of every text.
    const width = this.width
    const drop = this.drop
    const seen = this.seen
    let hash = 0
    for (let i = 0; i < length; i++) {
      if (i >= width) hash = (hash - Math.imul(codes[i - width] ?? 0, drop)) | 0
      hash = (Math.imul(hash, BASE) + (codes[i] ?? 0)) | 0
      if (i < width - 1) continue
      const key = hash >>> 2
      const bit = key & (FILTER_BITS - 1)
      if (((seen[bit >>> 5] ?? 0) & (1 << (bit & 31))) === 0) continue
      const at = this.first.get(key)
      if (at === undefined) continue
      const start = i + 1 - width
      if (
        this.matches(codes, start, at) ||
        this.more.get(key)?.some((other) => this.matches(codes, start, other))
      ) {
        found(start, i + 1)
      }
    }
  }

  /** Copies `needle` to the end of the pool; its offset there. */
  private append(needle: ArrayLike<number>): number {
    if (this.used + needle.length > this.pool.length) {
      const bigger = new Uint16Array(Math.max(this.pool.length * 2, this.used + needle.length))
      bigger.set(this.pool.subarray(0, this.used))
      this.pool = bigger
    }
    const offset = this.used
    for (let i = 0; i < needle.length; i++) this.pool[offset + i] = needle[i] ?? 0
    this.used += needle.length
    return offset
  }

  /** Calls `visit(end, key)` for each window `[end - width, end)` of `codes[from, to)`. */
  private roll(
    codes: Uint16Array,
    from: number,
    to: number,
    visit: (end: number, key: number) => void
  ): void {
    const width = this.width
    let hash = 0
    for (let i = from; i < to; i++) {
      if (i - from >= width) hash = (hash - Math.imul(codes[i - width] ?? 0, this.drop)) | 0
      hash = (Math.imul(hash, BASE) + (codes[i] ?? 0)) | 0
      if (i - from >= width - 1) visit(i + 1, hash >>> 2)
    }
  }

  /** Whether `codes` from `start` holds the pool's window at `at`. */
  private matches(codes: Uint16Array, start: number, at: number): boolean {
    for (let k = 0; k < this.width; k++) {
      if (codes[start + k] !== this.pool[at + k]) return false
    }
    return true
  }
}
