// @ts-check
import { randomBytes } from 'node:crypto'
import { createServer as createHttpServer } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { performance } from 'node:perf_hooks'
import { createGitHub } from './github.js'
import { matchGitHubRoute } from './github-routes.js'
import { answer, isObject, JSON_TYPE, parseJson } from './http.js'
import { followUp, newJob, randomJobId, readView, renderJob, settle } from './jobs.js'
import { seededRandom } from './random.js'
import { createRateLimiter } from './rate-limit.js'
import { matchRoute, refuse } from './routes.js'
import { createPreviews } from './preview.js'
import { defaultScenario, mergeScenario } from './scenario.js'

/**
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 * @typedef {import('node:http').IncomingHttpHeaders} IncomingHttpHeaders
 * @typedef {import('node:http').ServerResponse} ServerResponse
 * @typedef {import('./jobs.js').JobRecord} JobRecord
 * @typedef {import('./jobs.js').AgentJob} AgentJob
 * @typedef {import('./routes.js').Route} Route
 * @typedef {import('./github-routes.js').GitHubRoute} GitHubRoute
 * @typedef {import('./github.js').CommentRecord} CommentRecord
 * @typedef {ReturnType<typeof createGitHub>} FakeGitHub
 * @typedef {import('./scenario.js').Fault} Fault
 * @typedef {import('./scenario.js').ScenarioInput} ScenarioInput
 * @typedef {import('./http.js').Answer} Answer
 * @typedef {import('./http.js').Outcome} Outcome
 */

/**
 * @typedef {object} SimulatorOptions
 * @property {number} [port] 0 (the default) picks a free port
 * @property {string} [host] default `127.0.0.1`
 * @property {string} [apiKey] the only key accepted, default `mint_simulator_key`
 * @property {{ key: string, cert: string }} [tls] PEM key and certificate: serve HTTPS
 * @property {(line: string) => void} [log] called once per request
 * @property {(method: string, path: string) => void} [received] called as a request's head
 *   arrives, before its body is read or anything answered: when it left the client, on loopback
 * @property {() => number} [now] the clock jobs age by, default `Date.now`
 * @property {(callback: () => void, ms: number) => NodeJS.Timeout} [setTimeout] the timer slowed
 *   answers wait on, in milliseconds of `now`'s clock; default the real one
 * @property {number} [seed] seed of the generator behind `flakiness`, default 1
 * @property {ScenarioInput} [scenario]
 */

/**
 * @typedef {object} RecordedRequest
 * @property {string} method
 * @property {string} path the raw request target, still percent-encoded
 * @property {IncomingHttpHeaders} headers
 * @property {string} body
 */

/**
 * @typedef {object} Simulator
 * @property {string} url origin, e.g. `http://127.0.0.1:40123`
 * @property {number} port
 * @property {RecordedRequest[]} requests every request received, Mintlify's and GitHub's, in
 *   order
 * @property {Map<string, JobRecord>} jobs job records, updated whenever the API reads them
 * @property {CommentRecord[]} comments every comment the fake GitHub holds (written through it,
 *   or seeded by the `github.comments` knob once read), in the order they came to be; records
 *   change in place when a comment is updated
 * @property {Pick<FakeGitHub, 'requests' | 'comments' | 'statuses' | 'reactions' | 'pulls' |
 *   'deleteComment'>} github what the fake GitHub received and holds: `requests` names the token
 *   each request carried by its label (see the `github.tokens` knob), `statuses` are per
 *   repository and sha, `reactions` those left on comments,
 *   `pulls` what was written to pull requests; `deleteComment(id)` deletes a comment as a person
 *   on GitHub would
 * @property {() => number} creates how many jobs were actually created
 * @property {Map<string, import('./preview.js').Deployment>} previews the preview deployments
 *   requested, by status id
 * @property {(scenario: ScenarioInput) => void} setScenario merges knobs while running
 * @property {() => Promise<void>} close stops listening and destroys every open connection
 */

const BAD_GATEWAY_HTML = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx</center>
</body>
</html>
`

/**
 * Starts a local stand-in for the Mintlify agent job API (v2) with knobs for the ways a real
 * server and the network between can misbehave. The same origin also plays the few GitHub REST
 * routes the action reads and writes (`/repos/...`), so `GITHUB_API_URL` can point at it.
 *
 * @param {SimulatorOptions} [options]
 * @returns {Promise<Simulator>} once the server is listening
 */
export async function startSimulator(options = {}) {
  const apiKey = options.apiKey ?? 'mint_simulator_key'
  const now = options.now ?? Date.now
  const setTimer = options.setTimeout ?? setTimeout
  const log = options.log
  let scenario = mergeScenario(defaultScenario(), options.scenario ?? {})
  let random = seededRandom(options.seed ?? options.scenario?.seed ?? 1)
  let flakyAnswers = 0
  let created = 0
  const limiter = createRateLimiter()
  const github = createGitHub({ now })
  const previews = createPreviews()
  /** @type {Map<string, JobRecord>} */
  const jobs = new Map()
  /** @type {RecordedRequest[]} */
  const requests = []
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set()
  /** The delays of slowed answers still waiting: `close` ends them, so none holds the process. */
  /** @type {Set<NodeJS.Timeout>} */
  const delays = new Set()

  /**
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   */
  const onRequest = async (req, res) => {
    const started = performance.now()
    const method = req.method ?? 'GET'
    const path = req.url ?? '/'
    options.received?.(method, path)
    /** @type {string} */
    let body
    try {
      body = await readBody(req)
    } catch {
      return
    }
    requests.push({ method, path, headers: { ...req.headers }, body })

    const host = req.headers.host ?? `${hostname}:${port}`
    const origin = `${options.tls ? 'https' : 'http'}://${host}`
    const githubRoute = matchGitHubRoute(path, method)
    const outcome = githubRoute
      ? await respondGitHub(githubRoute, method, path, req.headers, body, origin)
      : respond(method, path, req.headers, body, req.socket.remoteAddress ?? '')
    const note = bodyNote(githubRoute, method, path, body)
    if (outcome.type === 'reset') {
      log?.(`${method} ${path} reset${note}`)
      req.socket.destroy()
    } else if (outcome.type === 'hang') {
      log?.(`${method} ${path} hang${note}`)
    } else {
      // Logged before sending so the line never trails what the client prints about the answer.
      const ms = Math.round(performance.now() - started)
      log?.(`${method} ${path} ${outcome.status} ${ms}ms${note}`)
      send(res, outcome)
    }
  }

  /**
   * @param {GitHubRoute | { status: number, message: string }} route
   * @param {string} method
   * @param {string} path
   * @param {IncomingHttpHeaders} headers
   * @param {string} body
   * @param {string} origin
   * @returns {Promise<Outcome>}
   */
  const respondGitHub = async (route, method, path, headers, body, origin) => {
    if (!('kind' in route)) return github.error(route.status, route.message)
    const record = github.receive(route, method, path, headers, scenario.github)
    const outcome = await githubOutcome(route, headers, body, origin)
    if (outcome.type === 'answer') record.status = outcome.status
    return outcome
  }

  /**
   * @param {GitHubRoute} route
   * @param {IncomingHttpHeaders} headers
   * @param {string} body
   * @param {string} origin
   * @returns {Promise<Outcome>}
   */
  const githubOutcome = async (route, headers, body, origin) => {
    const handle = () => github.handle(route, { headers, body, origin }, scenario.github)
    const fault = scenario.githubFaults[route.kind].shift()
    if (!fault) return handle()
    if (fault.action === 'slow') {
      await new Promise((resolve) => {
        const timer = setTimer(() => resolve(delays.delete(timer)), fault.delayMs ?? 0)
        delays.add(timer)
      })
      if (fault.status === undefined) return handle()
      if (fault.perform) handle()
      return { ...answer(fault.status, fault.body ?? '', fault.headers ?? {}), github: true }
    }
    // A truncated answer is cut from a real one, so the request did its work.
    const handled =
      fault.perform || fault.createJob || fault.action === 'truncate' ? handle() : undefined
    const outcome = faultOutcome(fault, handled, () => '')
    return outcome.type === 'answer' ? { ...outcome, github: true } : outcome
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {IncomingHttpHeaders} headers
   * @param {string} body
   * @param {string} address the client's IP address
   * @returns {Outcome}
   */
  const respond = (method, path, headers, body, address) => {
    const route = matchRoute(path)
    if ('error' in route) return errorAnswer(route.status, route.error)
    if (method !== route.method) {
      return errorAnswer(405, 'Method not allowed', { allow: route.method })
    }

    const fault = scenario.faults[route.kind].shift()
    if (fault) {
      const handled =
        fault.createJob || fault.perform ? handle(route, headers, body, address) : undefined
      return faultOutcome(fault, handled, () => sampleJobBody(route))
    }
    if (route.kind === 'get' && scenario.flakiness > 0 && random() < scenario.flakiness) {
      flakyAnswers += 1
      return flakyAnswers % 2 === 1
        ? answer(502, BAD_GATEWAY_HTML, { 'content-type': 'text/html' })
        : errorAnswer(503, 'Service temporarily unavailable', { 'retry-after': '1' })
    }
    return handle(route, headers, body, address)
  }

  /**
   * @param {Route} route
   * @param {IncomingHttpHeaders} headers
   * @param {string} body
   * @param {string} address
   * @returns {Answer}
   */
  const handle = (route, headers, body, address) => {
    const caller = { authorization: headers.authorization, address, apiKey }
    if (route.kind === 'preview' || route.kind === 'previewStatus') {
      const previewed = previews.handle(
        /** @type {import('./preview.js').PreviewRoute} */ (route),
        {
          body,
          now: now(),
          knobs: scenario.preview,
          refuse: (projectId) => refuse({ ...route, projectId }, caller, scenario)
        }
      )
      return errorAnswer(previewed.status, '', previewed.headers, previewed.body)
    }
    const refused = refuse(route, caller, scenario)
    if (refused) return errorAnswer(refused.status, refused.error, refused.headers)
    const at = now()

    if (route.kind === 'create') {
      const prompt = readPrompt(body)
      if (typeof prompt !== 'string') return prompt
      const limited = rateLimited(route.projectId, at)
      if (limited) return limited
      created += 1
      const id = scenario.jobIds.shift() ?? randomJobId()
      const job = newJob({ id, projectId: route.projectId, prompt, number: created, now: at })
      jobs.set(id, job)
      if (scenario.endsAtCreate) settle(job, scenario, at)
      return jobAnswer(201, job)
    }

    if (route.kind === 'message') {
      const prompt = readPrompt(body)
      if (typeof prompt !== 'string') return prompt
      const job = findJob(route)
      if (!job) return errorAnswer(404, 'Job not found')
      if (refusesMessages(job.id)) {
        return errorAnswer(400, 'This job does not accept follow-up messages')
      }
      const limited = rateLimited(route.projectId, at)
      if (limited) return limited
      settle(job, scenario, at)
      followUp(job, prompt, at, scenario.staleReadsAfterMessage)
      // With stale reads, the message's own answer is the first of them.
      return jobAnswer(200, readView(job))
    }

    const job = findJob(route)
    if (!job) return errorAnswer(404, 'Job not found')
    settle(job, scenario, at)
    return jobAnswer(200, readView(job))
  }

  /**
   * @param {string} jobId
   * @returns {boolean}
   */
  const refusesMessages = (jobId) => {
    const refuse = scenario.refuseMessages
    return typeof refuse === 'boolean' ? refuse : refuse.includes(jobId)
  }

  /**
   * @param {Route} route
   * @returns {JobRecord | undefined}
   */
  const findJob = (route) => {
    const job = route.jobId === null ? undefined : jobs.get(route.jobId)
    return job?.projectId === route.projectId ? job : undefined
  }

  /**
   * @param {string} projectId
   * @param {number} at
   * @returns {Answer | undefined}
   */
  const rateLimited = (projectId, at) => {
    const { limit, windowMs } = scenario.rateLimit
    const waitMs = limiter.take(projectId, at, scenario.rateLimit)
    if (waitMs === 0) return undefined
    const seconds = Math.ceil(waitMs / 1000)
    const rule = `${limit} requests per ${windowMs / 1000} seconds for this project`
    return errorAnswer(429, `Rate limit exceeded: ${rule}; retry in ${seconds} seconds`, {
      'retry-after': String(seconds)
    })
  }

  /**
   * @param {number} status
   * @param {AgentJob} job
   * @returns {Answer}
   */
  const jobAnswer = (status, job) =>
    answer(status, JSON.stringify(renderJob(job, scenario.jobFields)), {
      'content-type': JSON_TYPE
    })

  /**
   * The job a truncated answer is cut from: the one the request names, or a stand-in.
   *
   * @param {Route} route
   * @returns {string}
   */
  const sampleJobBody = (route) => {
    const job =
      findJob(route) ??
      newJob({
        id: route.jobId ?? randomJobId(),
        projectId: route.projectId,
        prompt: '',
        number: created + 1,
        now: now()
      })
    return JSON.stringify(renderJob(job, scenario.jobFields))
  }

  const server = options.tls
    ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert })
    : createHttpServer()
  server.on('request', (req, res) => {
    onRequest(req, res).catch((error) => {
      log?.(`${req.method} ${req.url} crashed: ${error instanceof Error ? error.message : error}`)
      if (!res.headersSent) {
        res.statusCode = 500
        res.setHeader('content-type', JSON_TYPE)
        res.end(JSON.stringify({ error: 'Simulator error' }))
      } else {
        res.destroy()
      }
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve(undefined)
    })
  })

  const address = server.address()
  if (address === null || typeof address === 'string') {
    throw new Error('simulator is not listening on a TCP port')
  }
  const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const port = address.port
  /** @type {Promise<void> | undefined} */
  let closing

  return {
    url: `${options.tls ? 'https' : 'http'}://${hostname}:${address.port}`,
    port: address.port,
    requests,
    jobs,
    comments: github.comments,
    github: {
      requests: github.requests,
      comments: github.comments,
      statuses: github.statuses,
      reactions: github.reactions,
      pulls: github.pulls,
      deleteComment: github.deleteComment
    },
    creates: () => created,
    previews: previews.deployments,
    setScenario(input) {
      scenario = mergeScenario(scenario, input)
      if (input.seed !== undefined) random = seededRandom(input.seed)
    },
    close() {
      closing ??= new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        for (const socket of sockets) socket.destroy()
        // A closed simulator answers nothing more: a slowed answer still waiting is dropped.
        for (const timer of delays) clearTimeout(timer)
        delays.clear()
      })
      return closing
    }
  }
}

/**
 * @param {IncomingMessage} req
 * @returns {Promise<string>}
 */
async function readBody(req) {
  /** @type {Buffer[]} */
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Takes any content type, as real servers tend to, but the body itself must be the JSON the
 * contract asks for.
 *
 * @param {string} body
 * @returns {string | Answer} the prompt, or the 400 to send
 */
function readPrompt(body) {
  const parsed = parseJson(body)
  if (!isObject(parsed)) {
    return errorAnswer(400, 'Invalid request: the body must be a JSON object')
  }
  const prompt = parsed.prompt
  if (typeof prompt !== 'string' || prompt.length === 0) {
    return errorAnswer(400, 'Invalid request: "prompt" must be a non-empty string')
  }
  return prompt
}

/**
 * @param {Fault} fault
 * @param {Answer | undefined} handled the real answer, when the request was handled first
 * @param {() => string} sample what a truncated answer is cut from when there is no real one
 * @returns {Outcome}
 */
function faultOutcome(fault, handled, sample) {
  if (fault.action === 'reset' || fault.action === 'hang') return { type: fault.action }
  if (fault.action === 'truncate') {
    const whole = handled && handled.status < 300 ? handled.body : sample()
    return answer(200, whole.slice(0, Math.floor(whole.length / 2)), {
      'content-type': JSON_TYPE
    })
  }
  return answer(fault.status ?? 500, fault.body ?? '', fault.headers ?? {})
}

/**
 * What the log line adds about a request's body: the prompt's length for a create or a follow-up,
 * the comment's for a comment written to GitHub (in UTF-16 code units, as JavaScript's `length`).
 *
 * @param {GitHubRoute | { status: number } | undefined} githubRoute
 * @param {string} method
 * @param {string} path
 * @param {string} body
 * @returns {string} empty, or a leading space and the note
 */
function bodyNote(githubRoute, method, path, body) {
  /** @type {string} */
  let field
  if (githubRoute) {
    if (!('kind' in githubRoute)) return ''
    if (githubRoute.kind !== 'createComment' && githubRoute.kind !== 'updateComment') return ''
    field = 'body'
  } else {
    const route = matchRoute(path)
    if ('error' in route || route.method !== method || route.kind === 'get') return ''
    field = 'prompt'
  }
  const parsed = parseJson(body)
  const value = isObject(parsed) ? parsed[field] : undefined
  return typeof value === 'string' ? ` ${field} ${value.length} chars` : ''
}

/**
 * @param {number} status
 * @param {string} message
 * @param {Record<string, string>} [headers]
 * @param {unknown} [body] sent instead of `{error: message}`
 * @returns {Answer}
 */
function errorAnswer(status, message, headers = {}, body = undefined) {
  return answer(status, JSON.stringify(body ?? { error: message }), {
    'content-type': JSON_TYPE,
    ...headers
  })
}

/**
 * @param {ServerResponse} res
 * @param {Answer} outcome
 */
function send(res, outcome) {
  res.statusCode = outcome.status
  if (outcome.github) {
    // Shaped like GitHub's own, e.g. `C0DE:3A5C:1B2F3E:1C4D5A:6572F1B0`.
    const id = [2, 2, 3, 3, 4].map((n) => randomBytes(n).toString('hex').toUpperCase()).join(':')
    res.setHeader('x-github-request-id', id)
  } else {
    res.setHeader('x-request-id', `req_${randomBytes(8).toString('hex')}`)
  }
  res.setHeader('content-length', Buffer.byteLength(outcome.body))
  // After the defaults, so a fault can replace any of them (a known request id, a wrong length).
  for (const [name, value] of Object.entries(outcome.headers)) res.setHeader(name, value)
  res.end(outcome.body)
}
