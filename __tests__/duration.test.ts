import { describe, expect, it } from '@jest/globals'
import { formatDuration, parseDuration } from '../src/duration.js'

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['1.5m', 90_000],
    ['1h', 3_600_000],
    ['250ms', 250],
    ['30', 30_000],
    ['0.5', 500],
    ['.5s', 500],
    [' 2M ', 120_000],
    ['10 s', 10_000],
    ['0', 0]
  ])('reads %j as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms)
  })

  it.each(['', 'soon', '5 minutes', '-5s', '1d', '1e3', '5s5', 'm', '1.2.3s', 'Infinity'])(
    'rejects %j',
    (text) => {
      expect(parseDuration(text)).toBeUndefined()
    }
  )
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
