/**
 * The forms a secret is looked for in, and how long a part of one must be to count. A text is
 * compared in its skeleton (`skeleton.ts`), where escapes are decoded, whitespace and invisible
 * characters are gone and case is folded, so one needle per secret covers the secret as itself,
 * percent-encoded, as HTML entities, JSON- or JavaScript-escaped, in any case, split over lines
 * or by invisible characters, and any mix of these. Two more needles cover what encodes its bytes:
 * hexadecimal (either case, as the folded view reads it) and base64 (standard or url-safe, padded
 * or not, alone or inside a longer encoded text). Pure; the registry of secrets is `redact.ts`'s.
 */
import { layerOf, unitsOf } from './skeleton.js'

/**
 * How many characters of a secret, in a row, are cut wherever they appear; a shorter secret is cut
 * only whole. A part this long of a key or token (`mint_…`, `ghp_…`, `github_pat_…`) always holds
 * characters past its public prefix (the longest, `github_pat_`, has 11), so it carries enough of
 * the secret to matter and is never met by chance in ordinary text: sixteen characters of a
 * random alphanumeric secret are 2^80 or more possibilities, even with case folded. Shorter parts
 * are left alone, so that a few characters a secret shares with ordinary words never cut them.
 */
export const PART_LENGTH = 16

/** The same part in hexadecimal: two digits a byte. */
export const HEX_PART_LENGTH = 2 * PART_LENGTH

/**
 * The same part in base64: 16 bytes of a secret always give at least 20 base64 characters made of
 * its bits alone, wherever they sit in the encoded text (their offset modulo 3 loses at most one).
 */
export const BASE64_PART_LENGTH = 20

/** Shortest secret looked for: anything shorter would cut ordinary words. */
export const MIN_SECRET_LENGTH = 4

/** Shortest base64 run looked for: 36 bits, which ordinary text does not hit by chance. */
const MIN_BASE64_LENGTH = 6

/** Which view of a text's skeleton a needle is compared with. */
export type View = 'folded' | 'base64'

/** One form of a secret: code units looked for in a view, in windows of `width`. */
export interface Needle {
  readonly view: View
  readonly codes: Uint16Array
  readonly width: number
  /**
   * A base64 form: the base64 character on each side of a match mixes bits of the secret with
   * bits of the text around it, so it is cut too.
   */
  readonly widen: boolean
}

/** The code units of an ASCII `text`. */
function asciiCodes(text: string): Uint16Array {
  const codes = new Uint16Array(text.length)
  for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i)
  return codes
}

/**
 * The runs of base64 that encode `bytes` wherever they sit in a longer base64 text. Base64 turns
 * each 3 bytes into 4 characters, so the secret encodes one of three ways, by its offset modulo 3
 * in what was encoded (`Bearer <key>`, `x-access-token:<token>`, `user:<token>` or a whole echoed
 * request). For each offset, the characters whose 6 bits all come from the secret are the same
 * whatever surrounds it: that run is what is looked for, with or without padding.
 */
export function base64Runs(bytes: Uint8Array): string[] {
  const runs: string[] = []
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
    const first = Math.ceil((8 * offset) / 6)
    const end = Math.floor((8 * (offset + bytes.length)) / 6)
    if (end - first >= MIN_BASE64_LENGTH) runs.push(encoded.slice(first, end))
  }
  return runs
}

/**
 * Every form `secret` is looked for in: itself without whitespace and invisible characters, case
 * folded (its own escapes are not decoded: the text's are, one depth at a time), its bytes in hexadecimal
 * (folded too, so either case), and its base64 runs. None when the secret is shorter than
 * `MIN_SECRET_LENGTH` once its whitespace and invisible characters are left out.
 */
export function needlesOf(secret: string): Needle[] {
  const text = layerOf(unitsOf(secret), 0).folded
  if (text.length < MIN_SECRET_LENGTH) return []
  const codes = text.codes.slice(0, text.length)
  const bytes = Buffer.from(secret, 'utf8')
  const hex = asciiCodes(bytes.toString('hex'))
  const needles: Needle[] = [
    { view: 'folded', codes, width: Math.min(codes.length, PART_LENGTH), widen: false },
    { view: 'folded', codes: hex, width: Math.min(hex.length, HEX_PART_LENGTH), widen: false }
  ]
  for (const run of base64Runs(bytes)) {
    const width = Math.min(run.length, BASE64_PART_LENGTH)
    needles.push({ view: 'base64', codes: asciiCodes(run), width, widen: true })
  }
  return needles
}
