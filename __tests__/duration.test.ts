import { describe, expect, it } from '@jest/globals'
import { formatDuration, isBareNumber, parseDuration } from '../src/base/duration.js'
import { parseDuration as parseSimulatorDuration } from '../simulator/duration.js'

/**
 * One table for both duration parsers: the action's inputs (src/base/duration.ts) and the simulator's
 * command line (simulator/duration.js, kept apart because the simulator runs without a build).
 * `undefined` means the text is not a duration.
 */
const DURATIONS: readonly (readonly [string, number | undefined])[] = [
  ['90s', 90_000],
  ['1.5m', 90_000],
  ['1h', 3_600_000],
  ['1.25h', 4_500_000],
  ['250ms', 250],
  ['500MS', 500],
  ['2H', 7_200_000],
  ['30', 30_000],
  ['0.5', 500],
  ['.5s', 500],
  [' 2M ', 120_000],
  ['10 s', 10_000],
  ['10\ts', 10_000],
  ['0', 0],
  ['0ms', 0],
  ['0.4ms', 0],
  ['1.0005s', 1001],
  ['', undefined],
  ['   ', undefined],
  ['soon', undefined],
  ['5 minutes', undefined],
  ['-5s', undefined],
  ['+5s', undefined],
  ['5.s', undefined],
  ['1,5s', undefined],
  ['1d', undefined],
  ['1e3', undefined],
  ['5s5', undefined],
  ['5 s s', undefined],
  ['m', undefined],
  ['1.2.3s', undefined],
  ['Infinity', undefined],
  ['NaN', undefined],
  ['9'.repeat(400), undefined],
  [`1${'0'.repeat(400)}h`, undefined]
]

const label = (text: string) => JSON.stringify(text.length > 20 ? `${text.slice(0, 12)}…` : text)
const cases = DURATIONS.map(([text, ms]) => [label(text), text, ms] as const)

describe('parseDuration (action inputs)', () => {
  it.each(cases)('reads %s', (_, text, ms) => {
    expect(parseDuration(text)).toBe(ms)
  })
})

describe('parseDuration with bare numbers in minutes (timeout)', () => {
  it.each([
    ['30', 1_800_000],
    ['1.5', 90_000],
    [' 2 ', 120_000],
    ['30s', 30_000],
    ['250ms', 250],
    ['1h', 3_600_000],
    ['soon', undefined]
  ])('reads %j', (text, ms) => {
    expect(parseDuration(text, 'm')).toBe(ms)
  })

  it.each([
    ['30', true],
    [' .5 ', true],
    ['30s', false],
    ['30 m', false],
    ['soon', false],
    ['', false]
  ])('knows whether %j has no unit', (text, bare) => {
    expect(isBareNumber(text)).toBe(bare)
  })
})

/** The simulator's parser, read like the action's: undefined where it refuses the text. */
function simulatorReads(text: string): number | undefined {
  try {
    return parseSimulatorDuration(text)
  } catch (error) {
    if (error instanceof RangeError) return undefined
    throw error
  }
}

describe('parseDuration (simulator command line)', () => {
  it.each(cases)('reads %s', (_, text, ms) => {
    expect(simulatorReads(text)).toBe(ms)
  })

  it('says what it accepts', () => {
    expect(() => parseSimulatorDuration('soon')).toThrow(
      'invalid duration "soon": use a number with ms, s, m or h (a bare number is seconds)'
    )
  })
})

describe('formatDuration', () => {
  it.each([
    [850, '850ms'],
    [1500, '1.5s'],
    [12_000, '12s'],
    [12_400, '12s'],
    [60_000, '1m'],
    [125_000, '2m 5s'],
    [3_600_000, '1h'],
    [5_400_000, '1h 30m'],
    [-5, '0ms']
  ])('formats %d ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })
})
