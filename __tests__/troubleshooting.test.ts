// docs/troubleshooting.md is searched for the message a log shows, so each of its entries is
// headed by a message, and the words of every heading are words the action prints: a message
// reworded in src/ fails here until the page follows it.
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Every source file's text, with string literals split over lines (`'a ' +\n 'b'`) joined. */
function sources(dir: string): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) =>
      statSync(path).isDirectory()
        ? sources(path)
        : path.endsWith('.ts')
          ? readFileSync(path, 'utf8').replace(/(['`"])\s*\+\s*\n\s*(['`"])/g, '')
          : ''
    )
    .join('\n')
}

const SRC = sources(join(ROOT, 'src'))
const page = readFileSync(join(ROOT, 'docs/troubleshooting.md'), 'utf8').replace(
  /^( *)(```+)[^\n]*\n[\s\S]*?^\1\2 *$/gm,
  ''
)
const headings = [...page.matchAll(/^### (.+)$/gm)].map(([, text = '']) => text)

/** The code spans of a heading: the message text it quotes. */
const spans = (heading: string): string[] =>
  [...heading.matchAll(/``(.+?)``|`([^`]+)`/g)].map(([, double, single]) => double ?? single ?? '')

/**
 * The fixed words of a quoted message: the text between what varies in it (`…`, `<sha>`, `#N`,
 * numbers, a quoted value, a code span) and between the parts a message is built from (`: `,
 * brackets), long enough to say something.
 */
const fragments = (message: string): string[] =>
  message
    .split(/…|<[^>]+>|#N|\bN\b|: |"…"|`[^`]*`|HTTP \d+|[()]/)
    .map((piece) => piece.replace(/^[\s.,:;]+|[\s.,:;]+$/g, ''))
    .filter((piece) => piece.length >= 10)

/**
 * Fragments the action builds from several parts, each with the parts that make it: an input's
 * name before `is empty`, a job's status before `at the last check`, a token's name before its
 * refusal, a variable's name before `names`.
 */
const COMPOSED: Record<string, readonly string[]> = {
  'api-key is empty': ["'api-key'", 'empty: GitHub gives no secrets to'],
  'The environment variable HTTPS_PROXY is not a proxy URL': [
    "'HTTPS_PROXY'",
    'The environment variable',
    'is not a proxy URL'
  ],
  'was still active at the last check before the': ['was still', 'at the last check before the'],
  'was merged, so this change went to a new job': [
    "'was merged'",
    ', so this change went to a new job.'
  ],
  'Starting an agent job in project': ['Starting an agent job in', '`project '],
  'github-token needs the': ["'github-token'", 'needs the'],
  'github-token was not accepted': ["'github-token'", 'was not accepted (HTTP 401)'],
  'GITHUB_STEP_SUMMARY names': ["'GITHUB_STEP_SUMMARY'", 'names "']
}

describe('docs/troubleshooting.md', () => {
  it('has entries', () => {
    expect(headings.length).toBeGreaterThanOrEqual(30)
  })

  it.each(headings)('%s: is headed by a message the action prints', (heading) => {
    expect(heading.startsWith('`')).toBe(true)
    const missing = spans(heading)
      .flatMap(fragments)
      .flatMap((fragment) => COMPOSED[fragment] ?? [fragment])
      .filter((text) => !SRC.includes(text))
    expect(missing).toEqual([])
  })

  it('finds fixed words between what varies, and keeps every composed fragment in use', () => {
    expect(fragments('Agent job … was already told commit …: this run sends it nothing.')).toEqual([
      'was already told commit',
      'this run sends it nothing'
    ])
    const used = new Set(headings.flatMap(spans).flatMap(fragments))
    expect(Object.keys(COMPOSED).filter((fragment) => !used.has(fragment))).toEqual([])
  })
})
