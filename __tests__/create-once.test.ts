// A create is sent once, as a property of whole runs over generated answers on a virtual clock:
// a request that starts a job, or sends a job a message, is sent again only when every earlier
// one of its kind provably did nothing: it never left the runner (a refused connection), or the
// platform's rate limit refused it (429), and at most MAX_ATTEMPTS times. Any other answer after
// sending, a 503 with Retry-After included, or a connection lost after the request was written,
// ends the step with "may exist" and the dashboard's address, never with a second request.
import { beforeEach, describe, expect, it, jest } from '@jest/globals'
import fc from 'fast-check'
import * as core from '../__fixtures__/core.js'
import { EPOCH } from '../__fixtures__/runtime.js'
import { MAX_ATTEMPTS } from '../src/clients/mintlify/policy.js'
import type { Fetch } from '../src/clients/mintlify/transport.js'

jest.unstable_mockModule('@actions/core', () => core)
const { run } = await import('../src/main.js')

/** What one request meets. */
type Answer =
  /** The connection was refused: the request never left. */
  | { readonly kind: 'refused' }
  /** The connection broke after the request was written. */
  | { readonly kind: 'reset' }
  /** No answer within the request's time. */
  | { readonly kind: 'hang' }
  /** An HTTP answer that is not a job: a status, perhaps with Retry-After (seconds). */
  | { readonly kind: 'http'; readonly status: number; readonly retryAfter?: number }
  /** A 2xx whose body is not a job. */
  | { readonly kind: 'garbled' }
  | { readonly kind: 'ok'; readonly status: 'active' | 'completed' }

const answer: fc.Arbitrary<Answer> = fc.oneof(
  fc.constant<Answer>({ kind: 'refused' }),
  fc.constant<Answer>({ kind: 'reset' }),
  fc.constant<Answer>({ kind: 'hang' }),
  fc.constant<Answer>({ kind: 'garbled' }),
  fc.record({
    kind: fc.constant('http' as const),
    status: fc.constantFrom(400, 404, 408, 429, 500, 502, 503, 504),
    retryAfter: fc.option(fc.integer({ min: 0, max: 120 }), { nil: undefined })
  }),
  fc.record({ kind: fc.constant('ok' as const), status: fc.constantFrom('active', 'completed') })
)

/** Whether the platform may have acted on a request that met `a`: it was sent and not refused. */
const mayHaveActed = (a: Answer) =>
  a.kind === 'reset' ||
  a.kind === 'hang' ||
  a.kind === 'garbled' ||
  (a.kind === 'http' && a.status >= 500)

/** Whether `a` proves the platform did nothing: the request never left, or the rate limit refused it. */
const provedNotDone = (a: Answer) => a.kind === 'refused' || (a.kind === 'http' && a.status === 429)

interface Post {
  readonly kind: 'create' | 'message'
  readonly sent: boolean
  readonly answer: Answer
}

describe('a request that starts a job or sends a message is sent once (property)', () => {
  beforeEach(() => core.reset())

  it('on every path, whatever the API answers, and a failure after sending says a job may exist', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('create', 'follow-up'),
        fc.array(answer, { minLength: 1, maxLength: 8 }),
        fc.array(answer, { minLength: 1, maxLength: 8 }),
        async (how, postAnswers, getAnswers) => {
          core.reset()
          Object.assign(core.inputs, {
            prompt: 'Update the docs',
            'project-id': 'proj_1',
            'api-key': 'mint_create_once_key',
            'job-id': how === 'create' ? '' : 'job_known',
            timeout: '2m',
            'poll-interval': '2s',
            'max-poll-interval': '10s'
          })
          let time = EPOCH
          const posts: Post[] = []
          let gets = 0
          // Each POST meets the next of `postAnswers` (the last one again once they run out),
          // each GET the next of `getAnswers`; a hang takes the request's whole time.
          const fetch: Fetch = async (url, init, sent) => {
            const isPost = init.method === 'POST'
            const next = isPost
              ? postAnswers[Math.min(posts.length, postAnswers.length - 1)]!
              : getAnswers[Math.min(gets++, getAnswers.length - 1)]!
            if (gets > 10_000) throw new Error('runaway: the run never stops')
            if (isPost) {
              const kind = url.endsWith('/message') ? 'message' : 'create'
              posts.push({ kind, sent: next.kind !== 'refused', answer: next })
            }
            if (next.kind === 'refused') {
              throw new TypeError('fetch failed', {
                cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
                  code: 'ECONNREFUSED'
                })
              })
            }
            sent()
            time += 50
            if (next.kind === 'reset' || next.kind === 'hang') {
              if (next.kind === 'hang') time += 30_000
              throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
            }
            const none = { get: () => null }
            if (next.kind === 'garbled')
              return { status: 200, headers: none, text: async () => '{"' }
            if (next.kind === 'ok') {
              const body = JSON.stringify({ id: 'job_known', status: next.status })
              return { status: isPost ? 201 : 200, headers: none, text: async () => body }
            }
            const retryAfter = next.retryAfter === undefined ? null : String(next.retryAfter)
            return {
              status: next.status,
              headers: { get: (name: string) => (name === 'retry-after' ? retryAfter : null) },
              text: async () => '{"error":"no"}'
            }
          }
          await run({
            fetch,
            now: () => time,
            sleep: async (ms, signal) => {
              if (signal.aborted) throw signal.reason
              time += ms
            },
            random: () => 0.5,
            env: {}
          })

          for (const kind of ['create', 'message'] as const) {
            const mine = posts.filter((p) => p.kind === kind)
            // Every request of a kind but the last met a connection that never opened, or a 429.
            expect(mine.slice(0, -1).every((p) => provedNotDone(p.answer))).toBe(true)
            expect(mine.length).toBeLessThanOrEqual(MAX_ATTEMPTS)
            // The last one, if it may have been acted on, is reported so, with where to look.
            const last = mine.at(-1)
            const failed = core.failures().join('\n')
            const saysMayExist =
              /not sent again/.test(failed) && failed.includes('(https://app.mintlify.com)')
            expect(!last || !mayHaveActed(last.answer) || saysMayExist).toBe(true)
          }
        }
      ),
      {
        numRuns: 200,
        examples: [
          // A create answered 503, then 429, each with Retry-After; a follow-up answered 429.
          [
            'create',
            [{ kind: 'http', status: 503, retryAfter: 1 }],
            [{ kind: 'ok', status: 'completed' }]
          ],
          [
            'create',
            [{ kind: 'http', status: 429, retryAfter: 1 }],
            [{ kind: 'ok', status: 'completed' }]
          ],
          [
            'follow-up',
            [{ kind: 'http', status: 429, retryAfter: 1 }],
            [{ kind: 'ok', status: 'completed' }]
          ]
        ]
      }
    )
  })
})
