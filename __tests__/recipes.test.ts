// Every recipe in docs/recipes.md names the end-to-end tests that play it, so a recipe cannot
// promise what no run of the action shows: each heading's section has a line
// "Played by `__tests__/e2e/<file>.test.ts` › <test name>" (more follow as "and by …"), and
// each file and test it names exists.
import { describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8')

/** A page without its fenced code blocks, where `#` lines are YAML or shell comments. */
function prose(text: string): string {
  return text.replace(/^( *)(```+|~~~+)[^\n]*\n[\s\S]*?^\1\2 *$/gm, '')
}

interface Recipe {
  readonly heading: string
  readonly body: string
}

/** The recipes of a page: each `##` or `###` heading with the text up to the next one. */
function recipesOf(page: string): Recipe[] {
  const parts = prose(page).split(/^(#{2,3} .+)$/m)
  const recipes: Recipe[] = []
  for (let i = 1; i < parts.length; i += 2) {
    recipes.push({ heading: parts[i] ?? '', body: parts[i + 1] ?? '' })
  }
  return recipes
}

interface Player {
  readonly file: string
  readonly test: string
}

/** The tests a recipe names: its "Played by" line and the "and by" lines after it. */
function playersOf(body: string): Player[] {
  const lines = body.split('\n')
  const first = lines.findIndex((line) => line.startsWith('Played by '))
  if (first < 0) return []
  const players: Player[] = []
  for (const line of lines.slice(first)) {
    const match = /^(?:Played by|and by) `([^`]+)` › (.+)$/.exec(line)
    if (!match) break
    players.push({ file: match[1] ?? '', test: match[2] ?? '' })
  }
  return players
}

/** The titles of a test file's `it` and `test` calls (not `it.each`, whose titles are templates). */
function testTitles(source: string): string[] {
  return [...source.matchAll(/\b(?:it|test)\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g)].map(
    ([, , title = '']) => title.replace(/\\(.)/g, '$1')
  )
}

const recipes = recipesOf(read('docs/recipes.md'))

describe('docs/recipes.md', () => {
  it('has recipes', () => {
    expect(recipes.length).toBeGreaterThanOrEqual(10)
  })

  it.each(recipes.map(({ heading, body }) => [heading, body] as const))(
    '%s names the end-to-end tests that play it, and they exist',
    (_, body) => {
      const players = playersOf(body)
      expect(players.length).toBeGreaterThan(0)
      for (const { file, test } of players) {
        expect(file).toMatch(/^__tests__\/e2e\/[\w.-]+\.test\.ts$/)
        expect({ file, exists: existsSync(join(ROOT, file)) }).toEqual({ file, exists: true })
        expect(testTitles(read(file))).toContain(test)
      }
    }
  )
})

describe('how the recipes are read', () => {
  it('finds headings outside code, and the lines that name tests', () => {
    const page = [
      '# Recipes',
      '## One',
      '```yaml',
      '## not a heading',
      '```',
      'Played by `__tests__/e2e/a.test.ts` › does a',
      'and by `__tests__/e2e/b.test.ts` › does b: and more',
      'Not a player.',
      '### Two',
      'No line names a test.'
    ].join('\n')
    const found = recipesOf(page)
    expect(found.map(({ heading }) => heading)).toEqual(['## One', '### Two'])
    expect(playersOf(found[0]?.body ?? '')).toEqual([
      { file: '__tests__/e2e/a.test.ts', test: 'does a' },
      { file: '__tests__/e2e/b.test.ts', test: 'does b: and more' }
    ])
    expect(playersOf(found[1]?.body ?? '')).toEqual([])
  })

  it('reads test titles as the file writes them, and leaves out skipped and templated ones', () => {
    const source = [
      "it('plain', () => {})",
      'it("the action\'s own", () => {})',
      "it('it\\'s escaped', () => {})",
      "it.skip('skipped', () => {})",
      "it.each([1])('templated %s', () => {})",
      "describe('a group', () => {})"
    ].join('\n')
    expect(testTitles(source)).toEqual(['plain', "the action's own", "it's escaped"])
  })
})
