import { afterEach, describe, expect, it } from '@jest/globals'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ApiError, CancelledError } from '../src/base/errors.js'
import { describeHttpFailure } from '../src/clients/mintlify/explain.js'
import { createMintlifyApi } from '../src/clients/mintlify/api.js'
import { addSecret, clearSecrets } from '../src/base/secrets/redact.js'
import { createTransport, type Fetch, type HttpRequest } from '../src/clients/mintlify/transport.js'
import { pathSegment } from '../src/base/http.js'

const KEY = 'mint_test_key_123'
const never = new AbortController().signal
const notFailed = (): never => {
  throw new Error('The request did not fail.')
}

interface Sent {
  url: string
  init: HttpRequest
}

/** A fetch that answers every request with `status` and `body`, and records what was sent. */
function fakeFetch(status: number, body: string, headers: Record<string, string> = {}) {
  const sent: Sent[] = []
  const fetch: Fetch = async (url, init) => {
    sent.push({ url, init })
    return {
      status,
      headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
      text: async () => body
    }
  }
  return { fetch, sent }
}

function client(fetch?: Fetch, base = 'https://api.example.test', projectId = 'proj_1') {
  const transport = createTransport({
    baseUrl: new URL(base),
    apiKey: KEY,
    userAgent: 'mintlify-agent-action/test',
    fetch
  })
  return createMintlifyApi(transport, projectId)
}

const job = JSON.stringify({ id: 'job_1', status: 'active', unknownField: true })

describe('requests', () => {
  it('creates a job with exactly the documented request', async () => {
    const { fetch, sent } = fakeFetch(201, job)
    const created = await client(fetch).createJob('Update the docs', 30_000, never)
    expect(created).toMatchObject({ id: 'job_1', status: 'active' })
    expect(sent).toHaveLength(1)
    const [{ url, init }] = sent as [Sent]
    expect(url).toBe('https://api.example.test/v2/agent/proj_1/job')
    expect(init.method).toBe('POST')
    expect(init.body).toBe('{"prompt":"Update the docs"}')
    expect(init.redirect).toBe('manual')
    expect(init.headers).toEqual({
      Accept: 'application/json',
      Authorization: `Bearer ${KEY}`,
      'Content-Type': 'application/json',
      'User-Agent': 'mintlify-agent-action/test'
    })
  })

  it('accepts any 2xx on create', async () => {
    const { fetch } = fakeFetch(200, job)
    await expect(client(fetch).createJob('x', 30_000, never)).resolves.toMatchObject({
      id: 'job_1'
    })
  })

  it('reads a job with GET, keeping a path prefix of base-url', async () => {
    const { fetch, sent } = fakeFetch(200, job)
    await client(fetch, 'https://gateway.example.test/mintlify/').getJob('job_1', 30_000, never)
    expect(sent[0]?.url).toBe('https://gateway.example.test/mintlify/v2/agent/proj_1/job/job_1')
    expect(sent[0]?.init.method).toBe('GET')
    expect(sent[0]?.init.body).toBeUndefined()
  })

  it('encodes the project id and the job id as single path segments', async () => {
    const { fetch, sent } = fakeFetch(200, job)
    await client(fetch, undefined, 'a/b ?#').getJob('../x/..?y#z %', 30_000, never)
    expect(sent[0]?.url).toBe(
      'https://api.example.test/v2/agent/a%2Fb%20%3F%23/job/..%2Fx%2F..%3Fy%23z%20%25'
    )
    expect(new URL(sent[0]?.url ?? '').pathname.split('/')).toHaveLength(6)
  })

  it('refuses ids that every URL parser would resolve as . or ..', () => {
    expect(() => pathSegment('..')).toThrow()
    expect(() => pathSegment('.')).toThrow()
    expect(() => pathSegment('')).toThrow()
    expect(pathSegment('...')).toBe('...')
  })
})

describe('answers that are not a job', () => {
  it.each([
    ['HTML', '<html>oops</html>'],
    ['truncated JSON', '{"id": "job_1", "sta'],
    ['a JSON array', '[1,2]'],
    ['an empty body', '']
  ])('treats %s with 2xx as an invalid response', async (_, body) => {
    const { fetch } = fakeFetch(200, body)
    const error = await client(fetch)
      .getJob('job_1', 30_000, never)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).failure).toEqual({ kind: 'invalid-response' })
  })
})

describe('HTTP errors read like advice', () => {
  async function failWith(
    status: number,
    body: string,
    op: 'create' | 'poll' = 'create',
    headers = {}
  ) {
    const { fetch } = fakeFetch(status, body, headers)
    const c = client(fetch)
    const promise =
      op === 'create' ? c.createJob('x', 30_000, never) : c.getJob('job_9', 30_000, never)
    const error = await promise.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    return error as ApiError
  }

  it('401 says the key is wrong or expired and where to make one', async () => {
    const error = await failWith(401, '{"error":"Invalid API key"}')
    expect(error.message).toContain('HTTP 401')
    expect(error.message).toContain('it is wrong, or it has expired')
    // Keys expire after 7, 30, 60 or 90 days or never, 90 by default (Mintlify's API keys page).
    expect(error.message).toContain('7, 30, 60 or 90 days')
    expect(error.message).not.toMatch(/revoked|403|allowlist|plan/)
    expect(error.message).toContain('https://app.mintlify.com/settings/organization/api-keys')
    expect(error.message).toContain('The server said: Invalid API key')
  })

  // The documented causes of a 403: a plan without the REST API (it needs Pro or Enterprise, as
  // Mintlify's API introduction says), a key limited to read scope used for a POST, and an IP
  // allowlist. An expired key answers 401, so expiry is no cause of a 403.
  it('403 on create names the plan, a read-only key and the IP allowlist, with the fix for each', async () => {
    const { message } = await failWith(403, '{"error":"Forbidden"}')
    expect(message).toMatch(
      /HTTP 403\)\. The likely causes: .*plan.*Pro or Enterprise.*; or the key is read-only.*write scope.*; or .*IP allowlist.*self-hosted runner/
    )
    expect(message).toContain('The server said: Forbidden')
    expect(message).not.toMatch(/expire|not found/)
  })

  it('403 while checking a job names the plan and the allowlist, since a read-only key may read', async () => {
    const { message } = await failWith(403, '', 'poll')
    expect(message).toMatch(
      /HTTP 403.*read-only key can still read jobs.*Pro or Enterprise plan.*IP allowlist/
    )
    expect(message).toContain('"job_9"')
    expect(message).not.toMatch(/write scope|expire/)
  })

  it('404 on create points at project-id, 404 on poll names the job', async () => {
    expect((await failWith(404, '{"error":"nope"}')).message).toMatch(
      /Project "proj_1" was not found.*project-id/
    )
    expect((await failWith(404, '{"error":"nope"}', 'poll')).message).toMatch(
      /Agent job "job_9" was not found/
    )
  })

  it("400 quotes the server's own message", async () => {
    expect((await failWith(400, '{"error":"prompt is required"}')).message).toContain(
      'HTTP 400). The server said: prompt is required'
    )
  })

  it('429 explains the limit and keeps Retry-After for the retry loop', async () => {
    const error = await failWith(429, '{"error":"slow down"}', 'create', { 'retry-after': '30' })
    expect(error.message).toContain(
      '100 agent jobs and 100 follow-up messages per project per hour'
    )
    expect(error.failure).toEqual({ kind: 'http', status: 429, retryAfterMs: 30_000 })
  })

  it('quotes an HTML error page briefly, on one line, and names the request id', async () => {
    const html = `<html>\n<body>\n::error::injected\n${'x'.repeat(1000)}</body></html>`
    const error = await failWith(502, html, 'poll', { 'x-request-id': 'req_42' })
    expect(error.message).toContain('HTTP 502, a server error')
    expect(error.message).toContain('(request id req_42)')
    expect(error.message.split('\n')).toHaveLength(1)
    expect(error.message.length).toBeLessThan(500)
  })

  it('keeps the status for each advice message', () => {
    for (const status of [400, 401, 403, 404, 429, 500, 418]) {
      expect(describeHttpFailure('create', status, '', { projectId: 'p' })).toContain(
        String(status)
      )
    }
  })
})

describe('against a real server on 127.0.0.1', () => {
  const servers: Server[] = []
  afterEach(async () => {
    await Promise.all(
      servers.splice(0).map(
        (s) =>
          new Promise<void>((resolve) => {
            s.closeAllConnections()
            s.close(() => resolve())
          })
      )
    )
  })

  async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
    const requests: IncomingMessage[] = []
    const server = createServer((req, res) => {
      requests.push(req)
      handler(req, res)
    })
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
  }

  const realClient = (url: string) =>
    createMintlifyApi(createTransport({ baseUrl: new URL(url), apiKey: KEY, userAgent: 'ua' }), 'p')

  it('does not follow a redirect, so the key never reaches the other server', async () => {
    const other = await serve((_, res) => res.end(job))
    const api = await serve((_, res) => {
      res.writeHead(307, { Location: `${other.url}/v2/agent/p/job` }).end()
    })
    const error = await realClient(api.url)
      .createJob('x', 5000, never)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).message).toContain(`HTTP 307) to ${other.url}/v2/agent/p/job`)
    expect(other.requests).toHaveLength(0)
  })

  it('classifies a refused connection as never sent', async () => {
    const gone = await serve(() => undefined)
    const url = gone.url
    await new Promise<void>((resolve) => servers.pop()?.close(() => resolve()))
    const error = await realClient(url)
      .createJob('x', 5000, never)
      .catch((e: unknown) => e)
    expect((error as ApiError).failure).toEqual({ kind: 'unsent', permanent: false })
    expect((error as ApiError).message).toContain('ECONNREFUSED')
  })

  it('classifies a connection reset after the request as possibly sent', async () => {
    const api = await serve((req) => req.socket.destroy())
    const error = await realClient(api.url)
      .createJob('x', 5000, never)
      .catch((e: unknown) => e)
    expect((error as ApiError).failure).toEqual({ kind: 'lost' })
    expect((error as ApiError).message).toMatch(/^The request to http:\S+ got no answer/)
  })

  it('aborts a request that gets no answer within its own timeout', async () => {
    const api = await serve(() => undefined)
    const error = await realClient(api.url)
      .getJob('j', 200, never)
      .catch((e: unknown) => e)
    expect((error as ApiError).failure).toEqual({ kind: 'lost' })
    expect((error as ApiError).message).toContain('no answer within 200ms')
  })

  it('stops a request in flight when the run is cancelled', async () => {
    const api = await serve(() => undefined)
    const controller = new AbortController()
    const pending = realClient(api.url).getJob('j', 30_000, controller.signal)
    setTimeout(() => controller.abort(new CancelledError('cancelled')), 50)
    await expect(pending).rejects.toBeInstanceOf(CancelledError)
  })
})

describe('answers that look like a job but are not one', () => {
  it.each([
    ['an error body with 200', '{"error":"internal: job store unavailable"}'],
    ['an object with no job field', '{"ok":true}']
  ])('treats %s as an invalid response, retried for reads', async (_, body) => {
    const { fetch } = fakeFetch(200, body)
    const error = await client(fetch)
      .getJob('job_1', 30_000, never)
      .catch((e: unknown) => e)
    expect((error as ApiError).failure).toEqual({ kind: 'invalid-response' })
  })
})

describe('follow-up messages', () => {
  it('POSTs the prompt to the job’s message route', async () => {
    const { fetch, sent } = fakeFetch(200, job)
    await client(fetch).sendMessage('job/1', 'Also document --dry-run', 30_000, never)
    expect(sent[0]?.url).toBe('https://api.example.test/v2/agent/proj_1/job/job%2F1/message')
    expect(sent[0]?.init.method).toBe('POST')
    expect(sent[0]?.init.body).toBe('{"prompt":"Also document --dry-run"}')
  })

  it('explains a 400 as a job that cannot take messages, and a 404 as a wrong job id', async () => {
    const refused = await client(fakeFetch(400, '{"error":"Job is archived"}').fetch)
      .sendMessage('job_9', 'x', 30_000, never)
      .then(notFailed, (e: unknown) => e as ApiError)
    expect(refused.message).toMatch(/refused the message to agent job "job_9".*Job is archived/)
    expect(refused.message).toContain('start a new job')
    const missing = await client(fakeFetch(404, '').fetch)
      .sendMessage('job_9', 'x', 30_000, never)
      .then(notFailed, (e: unknown) => e as ApiError)
    expect(missing.message).toMatch(/Agent job "job_9" was not found in project "proj_1"/)
  })
})

describe('advice that fits the request', () => {
  it('says a 429 while checking does not touch the job, and invites no re-run', async () => {
    const error = await client(fakeFetch(429, '', { 'retry-after': '5' }).fetch)
      .getJob('job_1', 30_000, never)
      .then(notFailed, (e: unknown) => e as ApiError)
    expect(error.message).toContain('Rate limited while checking the job')
    expect(error.message).not.toMatch(/100 agent jobs|try again/i)
  })

  it('says on 401 that a key may expire, or never, and to create a new one', () => {
    const message = describeHttpFailure('poll', 401, '', { projectId: 'p' })
    expect(message).toContain('7, 30, 60 or 90 days after it is made, or never')
    expect(message).toContain('Create a new admin API key')
    expect(message).not.toMatch(/90 by default|expire 7 to 90 days/)
  })

  it('names the follow-up message and its job on a 403 to a message', () => {
    const message = describeHttpFailure('message', 403, '', { projectId: 'p', jobId: 'job_3' })
    expect(message).toContain('send a message to agent job "job_3" in project "p" (HTTP 403)')
    expect(message).toContain('write scope')
  })
})

describe('the key in what the server sends back', () => {
  afterEach(() => clearSecrets())

  it('is redacted before any cut, so no part of it survives a long quote', async () => {
    const secret = 'mint_abcdefghijklmnopqrstuvwxyz0123456789'
    addSecret(secret)
    // The key straddles the 200-character cut of a quoted HTML page.
    const body = `<html><body>${'x'.repeat(180)}${secret}</body></html>`
    const error = await client(fakeFetch(502, body).fetch)
      .getJob('job_1', 30_000, never)
      .then(notFailed, (e: unknown) => e as ApiError)
    expect(error.message).not.toContain('mint_abc')
    expect(error.message).toContain('***')
  })
})
