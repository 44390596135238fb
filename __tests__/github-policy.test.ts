import { describe, expect, it } from '@jest/globals'
import {
  budgetsFor,
  createOnce,
  gitHubError,
  Surface,
  type GitHubFailureKind
} from '../src/github/policy.js'

const http = (status: number, headers: Record<string, string> = {}, message = 'x') =>
  Object.assign(new Error(message), { name: 'HttpError', status, response: { headers } })

describe('budgetsFor', () => {
  it.each([
    [30 * 60_000, { change: 15_000, lookup: 10_000, write: 10_000, last: 5_000 }],
    [40_000, { change: 10_000, lookup: 8_000, write: 8_000, last: 4_000 }],
    [2_000, { change: 1_000, lookup: 1_000, write: 1_000, last: 1_000 }]
  ])('for a timeout of %i ms', (timeoutMs, expected) => {
    expect(budgetsFor(timeoutMs)).toEqual(expected)
  })

  it('never lets reading and looking up together take half the timeout or more', () => {
    for (const timeoutMs of [10_000, 20_000, 60_000, 600_000]) {
      const b = budgetsFor(timeoutMs)
      expect(Math.max(b.change, b.lookup)).toBeLessThan(timeoutMs / 2)
    }
  })
})

describe('gitHubError', () => {
  it.each<[unknown, GitHubFailureKind, boolean]>([
    [http(401), 'refused', false],
    [http(403), 'refused', false],
    [http(404), 'refused', false],
    [http(403, { 'x-ratelimit-remaining': '0' }), 'rate-limited', false],
    [http(403, {}, 'You have exceeded a secondary rate limit'), 'rate-limited', false],
    [http(429), 'rate-limited', false],
    [http(422), 'invalid', false],
    [http(409), 'invalid', false],
    [http(500), 'server', true],
    [http(502), 'server', true],
    [
      Object.assign(new Error('fetch failed'), { name: 'HttpError', status: 500 }),
      'no-answer',
      true
    ],
    [new DOMException('aborted', 'AbortError'), 'no-answer', true],
    [new DOMException('timed out', 'TimeoutError'), 'no-answer', true],
    [new Error('Unexpected end of JSON'), 'garbled', false]
  ])('%p is %s (may have landed: %p)', (error, kind, landed) => {
    const failure = gitHubError(error)
    expect(failure.kind).toBe(kind)
    expect(failure.mayHaveLanded).toBe(landed)
  })
})

describe('createOnce', () => {
  it('sends the create once and takes what the lookup finds after a 502', async () => {
    let creates = 0
    const made = await createOnce(
      () => {
        creates++
        return Promise.reject(http(502))
      },
      () => Promise.resolve('found')
    )
    expect(made).toBe('found')
    expect(creates).toBe(1)
  })

  it('does not look after a refusal: nothing landed', async () => {
    let looks = 0
    await expect(
      createOnce(
        () => Promise.reject(http(422)),
        () => {
          looks++
          return Promise.resolve('found')
        }
      )
    ).rejects.toMatchObject({ kind: 'invalid' })
    expect(looks).toBe(0)
  })

  it('reports the unknown outcome when the lookup finds nothing', async () => {
    await expect(
      createOnce(
        () => Promise.reject(new DOMException('aborted', 'AbortError')),
        () => Promise.resolve(undefined)
      )
    ).rejects.toMatchObject({ kind: 'no-answer', mayHaveLanded: true })
  })
})

describe('Surface', () => {
  const log = () => {
    const lines: string[] = []
    const debug: string[] = []
    return {
      lines,
      debug,
      sink: {
        info: () => undefined,
        warning: (m: string) => lines.push(m),
        debug: (m: string) => debug.push(m)
      }
    }
  }

  it('warns once and remembers a refusal, sending nothing after it', async () => {
    const { lines, debug, sink } = log()
    const surface = new Surface(sink, 'The docs job is not affected.')
    let calls = 0
    const refuse = () => {
      calls++
      return Promise.reject(http(403))
    }
    expect(await surface.write((e) => `Could not write: ${e.message}.`, refuse)).toBeUndefined()
    expect(await surface.write((e) => `Could not write: ${e.message}.`, refuse)).toBeUndefined()
    expect(calls).toBe(1)
    expect(lines).toEqual([
      'Could not write: GitHub refused (HTTP 403). The docs job is not affected.'
    ])
    // The first failure's own words go to the debug log beside the warning.
    expect(debug).toEqual(['GitHub write failed: x'])
  })

  it('keeps writing after a failure that is not a refusal, warning only the first time', async () => {
    const { lines, debug, sink } = log()
    const surface = new Surface(sink, '')
    let calls = 0
    const fail = () => {
      calls++
      return Promise.reject(http(502))
    }
    await surface.write(() => 'first', fail)
    await surface.write(() => 'second', fail)
    expect(calls).toBe(2)
    expect(lines).toEqual(['first'])
    expect(debug).toEqual(['GitHub write failed: x', 'GitHub write failed: x', 'second'])
  })
})
