// The preview deployment's client, its request policy and its loops, on a virtual clock; the
// answers are shaped as Mintlify's published openapi.json gives them ("Trigger preview
// deployment": 202 {statusId, previewUrl}, 400, 403; "Get update status": {status: queued |
// in_progress | success | failure, summary, …}, as of 2026-08-21).
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { ApiError, type Failure } from '../src/base/errors.js'
import {
  afterRequestFailure,
  createPreviewApi,
  followPreview,
  parseDeployment,
  parseStatus,
  requestPreview,
  type PreviewApi,
  type UpdateStatus
} from '../src/clients/mintlify/preview.js'
import type { Answer, Transport } from '../src/clients/mintlify/transport.js'
import type { Runtime } from '../src/base/runtime.js'
import { isSiteLinkShape } from '../src/given/ref.js'

/** A clock that only moves when the code under test sleeps. */
function virtual(start = 0) {
  let at = start
  const slept: number[] = []
  const said: string[] = []
  const runtime: Runtime = {
    now: () => at,
    sleep: async (ms) => {
      slept.push(ms)
      at += ms
    },
    random: () => 0.5,
    signal: new AbortController().signal,
    log: { info: (m) => said.push(m), warning: (m) => said.push(m), debug: () => undefined }
  }
  return { runtime, slept, said, advance: (ms: number) => (at += ms) }
}

const pace = { initialMs: 1_000, maxMs: 5_000 }

/** A transport that answers from a queue and records each request. */
function transport(answers: Partial<Answer>[]) {
  const sent: { method: string; path: string; body?: string }[] = []
  const t: Transport = {
    send: async (method, path, body) => {
      sent.push({ method, path, body })
      const next = answers.shift() ?? { status: 500, text: '' }
      return {
        status: next.status ?? 200,
        text: next.text ?? '',
        headers: next.headers ?? { get: () => null }
      }
    }
  }
  return { t, sent }
}

const headers = (values: Record<string, string>) => ({
  get: (name: string) => values[name.toLowerCase()] ?? null
})

describe('a docs site link in the strict shape', () => {
  it.each([
    'https://acme-mintlify-agent-1.mintlify.app',
    'https://acme-mintlify-agent-1.mintlify.app/',
    'https://docs.acme.com/preview/branch-1',
    'https://docs.acme.com:8443/a/b'
  ])('takes %s', (link) => expect(isSiteLinkShape(link)).toBe(true))

  it.each([
    ['a query', 'https://acme.mintlify.app/?token=mint_abc'],
    ['a fragment', 'https://acme.mintlify.app/#x'],
    ['user info', 'https://user:pass@acme.mintlify.app/'],
    ['an encoded character', 'https://acme.mintlify.app/%6dint_key'],
    ['http', 'http://acme.mintlify.app/'],
    ['a host without a dot', 'https://localhost/'],
    ['upper case in the host', 'https://Acme.mintlify.app/'],
    ['a dot segment', 'https://acme.mintlify.app/a/../b'],
    ['a default port a parser drops', 'https://acme.mintlify.app:443/'],
    ['a backslash', 'https://acme.mintlify.app\\@evil.com/'],
    ['a space', 'https://acme.mintlify.app/a b']
  ])('refuses %s', (_why, link) => expect(isSiteLinkShape(link)).toBe(false))

  it('never takes a link with anything but https, a host, a port and a path', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string()),
        (link) => {
          if (!isSiteLinkShape(link)) return
          const url = new URL(link)
          expect(url.protocol).toBe('https:')
          expect(url.username + url.password + url.search + url.hash).toBe('')
          expect(link).not.toMatch(/[%@?#\\\s]/)
          expect([link, `${link}/`]).toContain(url.href)
        }
      ),
      { numRuns: 2_000 }
    )
  })
})

describe('the preview request answer', () => {
  it('keeps a status id and a link in their shapes', () => {
    expect(parseDeployment({ statusId: 'abc123', previewUrl: 'https://a-b.mintlify.app' })).toEqual(
      {
        statusId: 'abc123',
        previewUrl: 'https://a-b.mintlify.app'
      }
    )
  })

  it.each([
    'https://a.mintlify.app/?key=mint_x',
    'https://me:secret@a.mintlify.app/',
    'https://a.mintlify.app/%6d',
    'javascript:alert(1)'
  ])('refuses the link %s and says so, never keeping it', (previewUrl) => {
    const deployment = parseDeployment({ statusId: 's1', previewUrl })
    expect(deployment).toEqual({ statusId: 's1', urlRefused: true })
    expect(JSON.stringify(deployment)).not.toContain(previewUrl)
  })

  it('reads a status the platform documents, and any other as not known', () => {
    expect(parseStatus({ status: 'failure', summary: 'broken link' })).toEqual({
      status: 'failure',
      summary: 'broken link'
    })
    expect(parseStatus({ status: 'deploying' })).toEqual({ unknown: 'deploying' })
    expect(parseStatus([])).toBeUndefined()
  })
})

describe('after a failed preview request', () => {
  const at = (failures = 1) => ({ failures, now: 0, deadline: 60_000, pace, random: () => 0.5 })

  it('waits as Retry-After asks when the deadline allows, and stops when it does not', () => {
    const within: Failure = { kind: 'http', status: 429, retryAfterMs: 20_000 }
    expect(afterRequestFailure(within, at())).toEqual({ retry: true, waitMs: 20_000 })
    const beyond: Failure = { kind: 'http', status: 429, retryAfterMs: 90_000 }
    expect(afterRequestFailure(beyond, at())).toEqual({
      retry: false,
      cause: { kind: 'rate-limit', waitMs: 90_000, leftMs: 60_000 }
    })
  })

  it('takes a 403 as the plan, and a 5xx or no answer as unknown, never sending again', () => {
    expect(afterRequestFailure({ kind: 'http', status: 403 }, at())).toMatchObject({
      retry: false,
      cause: { kind: 'plan' }
    })
    for (const failure of [
      { kind: 'http', status: 503 },
      { kind: 'http', status: 500 },
      { kind: 'lost' },
      { kind: 'invalid-response' }
    ] as Failure[]) {
      expect(afterRequestFailure(failure, at())).toMatchObject({
        retry: false,
        cause: { kind: 'unanswered' }
      })
    }
  })

  it('sends again only when the answer proved nothing was done (never left, or a 429)', () => {
    const failure: fc.Arbitrary<Failure> = fc.oneof(
      fc.record({ kind: fc.constant('unsent' as const), permanent: fc.boolean() }),
      fc.constant({ kind: 'lost' as const }),
      fc.constant({ kind: 'invalid-response' as const }),
      fc.record({
        kind: fc.constant('http' as const),
        status: fc.integer({ min: 300, max: 599 }),
        retryAfterMs: fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: undefined })
      })
    )
    fc.assert(
      fc.property(failure, fc.integer({ min: 1, max: 10 }), (f, failures) => {
        const next = afterRequestFailure(f, at(failures))
        if (!next.retry) return
        const provedNothing =
          (f.kind === 'unsent' && !f.permanent) || (f.kind === 'http' && f.status === 429)
        expect(provedNothing).toBe(true)
        expect(next.waitMs).toBeLessThan(60_000)
      })
    )
  })
})

describe('asking for a preview', () => {
  it('posts the branch once to the published route and reads the answer', async () => {
    const { t, sent } = transport([
      {
        status: 202,
        text: JSON.stringify({ statusId: 's1', previewUrl: 'https://a.mintlify.app' })
      }
    ])
    const clock = virtual()
    const got = await requestPreview(
      createPreviewApi(t, 'proj/1'),
      'mintlify/agent-1',
      { deadline: 60_000, ...pace },
      clock.runtime
    )
    expect(got).toEqual({ deployment: { statusId: 's1', previewUrl: 'https://a.mintlify.app' } })
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/v1/project/preview/proj%2F1',
        body: '{"branch":"mintlify/agent-1"}'
      }
    ])
  })

  it('waits out a 429 and asks again once', async () => {
    const { t, sent } = transport([
      { status: 429, text: '{"error":"Rate limit"}', headers: headers({ 'retry-after': '12' }) },
      { status: 202, text: JSON.stringify({ statusId: 's2' }) }
    ])
    const clock = virtual()
    const got = await requestPreview(
      createPreviewApi(t, 'p'),
      'b',
      { deadline: 60_000, ...pace },
      clock.runtime
    )
    expect(got.deployment?.statusId).toBe('s2')
    expect(sent).toHaveLength(2)
    expect(clock.slept).toEqual([12_000])
  })

  it('sends a 503 once, and a 5xx whose body names a status hands it on', async () => {
    const { t, sent } = transport([{ status: 503, text: '{"error":"upstream"}' }])
    const got = await requestPreview(
      createPreviewApi(t, 'p'),
      'b',
      { deadline: 60_000, ...pace },
      virtual().runtime
    )
    expect(got.cause).toMatchObject({ kind: 'unanswered' })
    expect(sent).toHaveLength(1)

    const again = transport([{ status: 502, text: JSON.stringify({ statusId: 's9' }) }])
    const named = await requestPreview(
      createPreviewApi(again.t, 'p'),
      'b',
      { deadline: 60_000, ...pace },
      virtual().runtime
    )
    expect(named).toMatchObject({ cause: { kind: 'unanswered' }, deployment: { statusId: 's9' } })
    expect(again.sent).toHaveLength(1)
  })
})

describe('following a deployment', () => {
  /** Statuses answered in order; the last repeats. */
  function statuses(list: UpdateStatus[]) {
    const reads: number[] = []
    return {
      reads,
      api: (clock: ReturnType<typeof virtual>): PreviewApi => ({
        request: () => Promise.reject(new Error('not here')),
        status: async () => {
          reads.push(clock.runtime.now())
          return list.length > 1 ? list.shift()! : list[0]!
        }
      })
    }
  }

  it('reads on the job schedule until success', async () => {
    const clock = virtual()
    const s = statuses([{ status: 'queued' }, { status: 'in_progress' }, { status: 'success' }])
    const seen: UpdateStatus[] = []
    const followed = await followPreview(
      s.api(clock),
      's1',
      { deadline: 60_000, ...pace },
      clock.runtime,
      (read) => seen.push(read)
    )
    expect(followed.last).toEqual({ status: 'success' })
    expect(seen.map((r) => r.status)).toEqual(['queued', 'in_progress', 'success'])
    // First read at once, then the poll schedule: 1 s less jitter, then ×1.5.
    expect(s.reads).toEqual([0, 950, 950 + 1_425])
  })

  it('stops at the deadline with the last status, still building', async () => {
    const clock = virtual()
    const s = statuses([{ status: 'in_progress' }])
    const followed = await followPreview(
      s.api(clock),
      's1',
      { deadline: 10_000, ...pace },
      clock.runtime
    )
    expect(followed.last).toEqual({ status: 'in_progress' })
    expect(Math.max(...s.reads)).toBeLessThan(10_000)
    expect(clock.runtime.now()).toBeLessThan(10_000)
  })

  it('reads again after a failed read, as a read may be', async () => {
    const clock = virtual()
    let calls = 0
    const api: PreviewApi = {
      request: () => Promise.reject(new Error('not here')),
      status: async () => {
        calls++
        if (calls === 1) throw new ApiError('502', { kind: 'http', status: 502 })
        return { status: 'failure', summary: 'Build failed' }
      }
    }
    const followed = await followPreview(api, 's', { deadline: 60_000, ...pace }, clock.runtime)
    expect(followed.last).toEqual({ status: 'failure', summary: 'Build failed' })
    expect(calls).toBe(2)
  })
})
