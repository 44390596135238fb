import { describe, expect, it } from '@jest/globals'
import { createRequire } from 'node:module'

// Jest's transform (scripts/strip-types.cjs): Node's type stripping, and the key Jest keeps its
// output under.
const require = createRequire(import.meta.url)
const transform = require('../scripts/strip-types.cjs') as {
  process(source: string): { code: string }
  getCacheKey(source: string, path: string, options: { instrument: boolean }): string
}

const SOURCE = [
  "import type { Plan } from './plan.js'",
  'export function act(plan: Plan, times: number = 2): string[] {',
  '  const seen = new Map<string, number>()',
  '  return [plan as unknown as string, String(times satisfies number), String(seen.size)]',
  '}'
].join('\n')

describe('the test transform', () => {
  it('strips the types and keeps every line and column where the source has it', () => {
    const { code } = transform.process(SOURCE)
    expect(code).not.toMatch(/Plan|: number|<string|as unknown|satisfies/)
    expect(code.split('\n').map((line) => line.length)).toEqual(
      SOURCE.split('\n').map((line) => line.length)
    )
    expect(code.indexOf('return')).toBe(SOURCE.indexOf('return'))
  })

  it('keeps what it made apart by source, file and whether coverage counters were added', () => {
    const key = (source: string, path: string, instrument: boolean) =>
      transform.getCacheKey(source, path, { instrument })
    const base = key(SOURCE, '/repo/src/act.ts', false)
    expect(key(SOURCE, '/repo/src/act.ts', false)).toBe(base)
    expect(key(`${SOURCE}\n`, '/repo/src/act.ts', false)).not.toBe(base)
    expect(key(SOURCE, '/repo/src/other.ts', false)).not.toBe(base)
    expect(key(SOURCE, '/repo/src/act.ts', true)).not.toBe(base)
  })
})
