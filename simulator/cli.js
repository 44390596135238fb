// @ts-check
import { parseArgs } from 'node:util'
import { parseDuration } from './duration.js'
import { UNKNOWN_PROJECT } from './routes.js'
import { STATUSES } from './scenario.js'
import { startSimulator } from './server.js'

/**
 * @typedef {import('./scenario.js').ScenarioInput} ScenarioInput
 * @typedef {import('./scenario.js').JobStatus} JobStatus
 */

const USAGE = `Usage: npm run simulator -- [options]

Serves the Mintlify agent job API (v2) locally for the action to talk to, and on the same
origin the GitHub REST routes it reads and writes: set GITHUB_API_URL to the printed URL.

Options:
  --port N            port to listen on (default 8787; 0 picks a free port)
  --host HOST         address to bind (default 127.0.0.1)
  --key KEY           the API key to accept (default mint_simulator_key)
  --duration TIME     how long a job runs: 500ms, 5s, 2m; a bare number is seconds (default 3s)
  --status STATUS     how jobs end: ${STATUSES.join(', ')} (default completed; active never ends)
  --no-pr             complete jobs without a pull request, as when no file changed
  --pushed            complete jobs without a pull request, the agent having pushed a commit
                      straight to main of the docs repository (acme/docs) instead
  --docs-checks STATE the checks on every commit of acme/docs, so on the docs pull request:
                      success, failure (a failed build) or pending (a build still running)
  --flakiness RATE    fraction (0..1) of job reads answered with a 502 or 503
  --rate-limit N      creates and follow-ups allowed per project per hour (default 100); 0
                      answers every create and follow-up with 429 and a Retry-After
  --stale-reads N     after a follow-up message, N answers (the message's own first) still show
                      the job as it was before
  --refuse-messages   answer every follow-up message with 400
  --job-id ID         hand this id to the next job created, before random ones; repeat it for
                      more jobs. Any string, as the API's description allows (e.g. "velit in")
  --expired-key       the key is right but has expired: every request answers 401
  --read-only-key     the key has read scope: reads work, every create and follow-up answers 403
  --ip-allowlist IPS  comma-separated addresses the key may be used from; any other answers 403
  --projects IDS      comma-separated project ids the API knows; any other answers 404
                      (default: every id except ${UNKNOWN_PROJECT})
  --github-token TOK  the only token the fake GitHub accepts (default: any non-empty token)
  --github-user LOGIN the account of that token: it writes comments and statuses, and
                      GraphQL's viewer is it (default github-actions[bot])
  --help              show this help

To see how the action explains each refusal of the API:
  401  run it with another api-key, or start the simulator with --expired-key
  403  --read-only-key, or --ip-allowlist 203.0.113.7 (requests from here come from 127.0.0.1)
  404  run it with project-id ${UNKNOWN_PROJECT}, or a project id not in --projects
  429  --rate-limit 0
`

/**
 * @typedef {object} Settings
 * @property {false} help
 * @property {number} port
 * @property {string} host
 * @property {string} apiKey
 * @property {ScenarioInput} scenario
 */

/**
 * @param {string[]} argv
 * @returns {{ help: true } | Settings}
 */
function readArguments(argv) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      key: { type: 'string', default: 'mint_simulator_key' },
      duration: { type: 'string' },
      status: { type: 'string' },
      'no-pr': { type: 'boolean', default: false },
      pushed: { type: 'boolean', default: false },
      'docs-checks': { type: 'string' },
      flakiness: { type: 'string' },
      'rate-limit': { type: 'string' },
      'stale-reads': { type: 'string' },
      'refuse-messages': { type: 'boolean', default: false },
      'job-id': { type: 'string', multiple: true },
      'expired-key': { type: 'boolean', default: false },
      'read-only-key': { type: 'boolean', default: false },
      'ip-allowlist': { type: 'string' },
      projects: { type: 'string' },
      'github-token': { type: 'string' },
      'github-user': { type: 'string' },
      help: { type: 'boolean', default: false }
    }
  })
  if (values.help) return { help: true }

  const port = Number(values.port)
  if (!/^\d+$/.test(values.port) || port > 65535) {
    throw new Error(`--port must be a whole number from 0 to 65535; got "${values.port}"`)
  }
  if (values.key === '') throw new Error('--key must not be empty')

  /** @type {ScenarioInput} */
  const scenario = {}
  if (values.duration !== undefined) {
    try {
      scenario.jobDurationMs = parseDuration(values.duration)
    } catch (error) {
      throw new Error(`--duration: ${reason(error)}`, { cause: error })
    }
  }
  if (values.status !== undefined) {
    if (!STATUSES.includes(/** @type {JobStatus} */ (values.status))) {
      throw new Error(`--status must be one of ${STATUSES.join(', ')}; got "${values.status}"`)
    }
    scenario.finalStatus = /** @type {JobStatus} */ (values.status)
  }
  if (values['no-pr']) scenario.prLink = false
  if (values.flakiness !== undefined) {
    const rate = Number(values.flakiness)
    if (values.flakiness.trim() === '' || !(rate >= 0 && rate <= 1)) {
      throw new Error(`--flakiness must be a number from 0 to 1; got "${values.flakiness}"`)
    }
    scenario.flakiness = rate
  }
  const limit = values['rate-limit']
  if (limit !== undefined) {
    if (!/^\d+$/.test(limit)) {
      throw new Error(`--rate-limit must be a whole number; got "${limit}"`)
    }
    scenario.rateLimit = { limit: Number(limit) }
  }
  const staleReads = values['stale-reads']
  if (staleReads !== undefined) {
    if (!/^\d+$/.test(staleReads)) {
      throw new Error(`--stale-reads must be a whole number; got "${staleReads}"`)
    }
    scenario.staleReadsAfterMessage = Number(staleReads)
  }
  if (values['refuse-messages']) scenario.refuseMessages = true
  const jobIds = values['job-id']
  if (jobIds !== undefined) {
    if (jobIds.some((id) => id === '')) throw new Error('--job-id must not be empty')
    scenario.jobIds = jobIds
  }
  if (values['expired-key']) scenario.keyExpired = true
  if (values['read-only-key']) scenario.keyScope = 'read'
  if (values['ip-allowlist'] !== undefined) {
    scenario.ipAllowlist = list(values['ip-allowlist'], '--ip-allowlist', 'IP addresses')
  }
  if (values.projects !== undefined) {
    scenario.projects = list(values.projects, '--projects', 'project ids')
  }
  const githubToken = values['github-token']
  if (githubToken !== undefined) {
    if (githubToken === '') throw new Error('--github-token must not be empty')
    scenario.github = { token: githubToken }
  }
  const githubUser = values['github-user']
  if (githubUser !== undefined) {
    if (!/^[A-Za-z0-9][A-Za-z0-9-]*(\[bot\])?$/.test(githubUser)) {
      throw new Error(`--github-user must be a GitHub login; got "${githubUser}"`)
    }
    scenario.github = { ...scenario.github, user: githubUser }
  }
  if (values.pushed) {
    // No branch named: the docs repository's default branch, main, is where the agent pushed.
    scenario.prLink = false
    scenario.jobFields = { source: { repository: 'https://github.com/acme/docs', ref: null } }
    const commit = { message: 'Document the change', author: { login: 'mintlify[bot]' } }
    scenario.github = { ...scenario.github, branchCommits: { 'acme/docs@main': [commit] } }
  }
  const docsChecks = values['docs-checks']
  if (docsChecks !== undefined) {
    const run = DOCS_CHECKS[docsChecks]
    if (!run) {
      throw new Error(
        `--docs-checks must be ${Object.keys(DOCS_CHECKS).join(', ')}; got "${docsChecks}"`
      )
    }
    scenario.github = { ...scenario.github, checks: { 'acme/docs': { runs: [run] } } }
  }
  return { help: false, port, host: values.host, apiKey: values.key, scenario }
}

/** The docs build's check run for each `--docs-checks` state. */
const DOCS_CHECKS = /** @type {Record<string, { name: string, conclusion?: string }>} */ ({
  success: { name: 'Mintlify Deployment', conclusion: 'success' },
  failure: { name: 'Mintlify Deployment', conclusion: 'failure' },
  pending: { name: 'Mintlify Deployment' }
})

/**
 * A comma-separated list, refusing an empty one.
 *
 * @param {string} text
 * @param {string} flag
 * @param {string} what
 * @returns {string[]}
 */
function list(text, flag, what) {
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
  if (items.length === 0) throw new Error(`${flag} must list ${what}, separated by commas`)
  return items
}

/**
 * @param {unknown} error
 * @returns {string}
 */
function reason(error) {
  return error instanceof Error ? error.message : String(error)
}

/** @type {ReturnType<typeof readArguments>} */
let settings
try {
  settings = readArguments(process.argv.slice(2))
} catch (error) {
  console.error(`simulator: ${reason(error)} (see --help)`)
  process.exit(2)
}

if (settings.help) {
  process.stdout.write(USAGE)
} else {
  const { port, host, apiKey, scenario } = settings
  try {
    const simulator = await startSimulator({ port, host, apiKey, scenario, log: console.log })
    console.log(`Mintlify agent API simulator listening on ${simulator.url} (API key: ${apiKey})`)
    const accepted = scenario.github?.token ? 'token given by --github-token' : 'any token'
    console.log(`GitHub REST API on the same origin: GITHUB_API_URL=${simulator.url} (${accepted})`)
    const stop = () => {
      simulator.close().then(
        () => console.log('Simulator stopped'),
        (error) => {
          console.error(`simulator: ${reason(error)}`)
          process.exitCode = 1
        }
      )
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  } catch (error) {
    console.error(`simulator: cannot listen on ${host}:${port}: ${reason(error)}`)
    process.exit(1)
  }
}
