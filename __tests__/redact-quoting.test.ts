// An invalid input value is quoted short, on one honest line, and never with a secret in it.
import { afterEach, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { giveaways } from '../__fixtures__/secret-forms.js'
import { booleanInput, quoted } from '../src/given/inputs/parse.js'
import { hasControlCharacters, MAX_QUOTED_VALUE, quoteValue } from '../src/base/sanitize.js'
import { addSecret, clearSecrets } from '../src/base/secrets/redact.js'

afterEach(() => clearSecrets())

/** The message zod gives for `text` as a boolean input. */
function booleanError(text: string): string {
  const result = booleanInput.safeParse(text)
  expect(result.success).toBe(false)
  return result.error?.issues[0]?.message ?? ''
}

/** What `quoteValue` adds when it cuts: `… (N more characters)`. */
const CUT_NOTE = /… \(\d+ more characters\)$/

describe('quoteValue', () => {
  it('keeps a short value as it is', () => {
    expect(quoteValue('yes')).toBe('yes')
  })

  it('cuts a long value at the end of a word, saying how much is left out', () => {
    const value = 'please wait for the documentation job to finish before you go on'
    const shown = quoteValue(value)
    expect(shown).toBe(
      'please wait for the documentation job to finish before you… (6 more characters)'
    )
  })

  it('cuts a value without spaces at the limit, never inside an escape it wrote', () => {
    expect(quoteValue('x'.repeat(100))).toBe(`${'x'.repeat(60)}… (40 more characters)`)
    const shown = quoteValue(`${'x'.repeat(57)}\u202e${'y'.repeat(20)}`)
    expect(shown).toBe(`${'x'.repeat(57)}… (26 more characters)`)
  })

  it('shows control and bidirectional characters as escapes', () => {
    expect(quoteValue('tr\u202eue\u0007\n::error::x')).toBe('tr\\u202eue\\u0007\\n::error::x')
  })

  it('is one short line without control characters or a command, for any value (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (value) => {
        const shown = quoteValue(value)
        expect(hasControlCharacters(shown)).toBe(false)
        expect(shown).not.toMatch(/^\s*::/)
        expect(shown).not.toContain('##[')
        expect(shown.replace(CUT_NOTE, '').length).toBeLessThanOrEqual(MAX_QUOTED_VALUE)
      })
    )
  })
})

describe('an invalid input value in a message', () => {
  it('is quoted short and escaped', () => {
    const message = booleanError(`\u202e${'no'.repeat(5_000)}`)
    expect(message).toMatch(/^"\\u202e(?:no)+… \(\d+ more characters\)" is not a boolean/)
    expect(message.length).toBeLessThan(MAX_QUOTED_VALUE + 70)
  })

  it('never shows a registered secret, in any form (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'abcdefXYZ0123_-'), minLength: 20, maxLength: 40 }),
        fc.constantFrom(
          (s: string) => s,
          (s: string) =>
            encodeURIComponent(s).replace(/[a-z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`),
          (s: string) => JSON.stringify(s).slice(1, -1),
          (s: string) => s.replace(/(.{7})/g, '$1\n'),
          (s: string) => `true ${s}`
        ),
        (secret, write) => {
          clearSecrets()
          addSecret(secret)
          expect(giveaways(booleanError(write(secret)), secret)).toEqual([])
        }
      )
    )
  })

  it('is not shown at all when it looks like a key or a token no input registered', () => {
    for (const value of ['mint_abcdef0123456789', 'yes ghp_0123456789abcdef', 'Bearer abc.def']) {
      expect(quoted(value)).toBe('a value that looks like a key or a token (not shown)')
      expect(booleanError(value)).not.toContain(value.slice(-10))
    }
    expect(quoted('maybe')).toBe('"maybe"')
  })
})
