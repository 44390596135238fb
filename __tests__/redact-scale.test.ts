// A secret of any size is registered without an error and without being printed, and found in a
// large text in the forms it is redacted in. (How the cost grows is not asserted here: the
// machine's speed is no property of the code.)
import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals'
import fc from 'fast-check'
import { KEPT } from '../__fixtures__/secret-forms.js'
import { forLog } from '../src/base/sanitize.js'
import { readings } from '../src/base/secrets/readings.js'
import { addSecret, clearSecrets, redact } from '../src/base/secrets/redact.js'

afterAll(() => clearSecrets())
afterEach(() => {
  jest.restoreAllMocks()
})

/** A text as a failure shows it: each `|`-separated piece, a filler named so, the rest in short. */
function pieces(text: string, filler: string): string[] {
  return text.split('|').map((piece) => (piece === filler ? 'filler' : piece.slice(0, 40)))
}

/** A random-looking secret of `length` characters (a fixed sequence, so a failure repeats). */
function secretOf(length: number, start = 12345): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'
  let seed = start
  let text = 'mint_'
  while (text.length < length) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    text += alphabet[(seed >>> 16) % alphabet.length]
  }
  return text
}

describe('a secret of 100,000 characters', () => {
  const secret = secretOf(100_000)

  // Registered once, by the first test, for all of them: indexing it is the cost measured here.
  it('is registered without an error, and nothing is printed', () => {
    const printed = [
      jest.spyOn(process.stdout, 'write'),
      jest.spyOn(process.stderr, 'write'),
      jest.spyOn(console, 'log'),
      jest.spyOn(console, 'error')
    ]
    expect(() => addSecret(secret)).not.toThrow()
    for (const spy of printed) expect(spy).not.toHaveBeenCalled()
  })

  it('is cut from a large text, whole, in part, and percent-encoded', () => {
    const filler = 'Job failed: see https://github.com/acme/docs/pull/7 for details. '.repeat(3_000)
    const part = secret.slice(50_000, 50_040)
    const text = [
      filler,
      secret,
      filler,
      part,
      filler,
      KEPT.everyByte(secret.slice(1_000, 3_000), 1)
    ].join('|')
    expect(pieces(redact(text), filler)).toEqual([
      'filler',
      '***',
      'filler',
      '***',
      'filler',
      '***'
    ])
  })

  it('leaves a large text without it as it is', () => {
    const other = secretOf(100_000, 678)
    const text = `${other}|${'ordinary words, '.repeat(10_000)}|${encodeURIComponent(other)}`
    const redacted = redact(text)
    expect(redacted.length).toBe(text.length)
    expect(redacted === text).toBe(true)
  })

  it('is quoted as *** when a message quotes it', () => {
    expect(forLog(`the key was ${secret}`)).toBe('the key was ***')
  })
})

describe('the readings of a text', () => {
  it('are at most nine, none longer than the text: the cost is linear in it (property)', () => {
    const escapes = fc.constantFrom('%', '%25', '%5C', '\\', '\\u0025', '\\\\', '\n', ' ', 'a')
    fc.assert(
      fc.property(fc.array(escapes, { maxLength: 200 }), (parts) => {
        const text = parts.join('')
        const all = [...readings(text)]
        expect(all.length).toBeLessThanOrEqual(9)
        for (const reading of all) expect(reading.text.length).toBeLessThanOrEqual(text.length)
      })
    )
  })
})
