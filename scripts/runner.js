// @ts-check
// Running the action's bundle the way a GitHub runner does, for the demo, the benchmark and the
// end-to-end tests. Node's standard library only: the demo must work without `npm install`.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Inherited variables that would change what a run does: inputs, file commands, proxies. */
const NOT_INHERITED = /^(INPUT_|GITHUB_|RUNNER_)|_proxy$|^NODE_OPTIONS$/i

/**
 * Prepares one action step in `dir`: empty `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY` files, and
 * the environment a runner gives the step, with each input as `INPUT_<NAME>` (upper-cased,
 * hyphens kept: `INPUT_PROJECT-ID`). `extra` is added last, for proxies or certificates.
 *
 * @param {Record<string, string>} inputs
 * @param {string} dir
 * @param {Record<string, string>} [extra]
 * @returns {{ env: NodeJS.ProcessEnv, outputFile: string, summaryFile: string }}
 */
export function runnerStep(inputs, dir, extra = {}) {
  const outputFile = join(dir, 'github_output')
  const summaryFile = join(dir, 'step_summary.md')
  writeFileSync(outputFile, '')
  writeFileSync(summaryFile, '')
  /** @type {NodeJS.ProcessEnv} */
  const env = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!NOT_INHERITED.test(name)) env[name] = value
  }
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value
  Object.assign(env, { GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile }, extra)
  env.RUNNER_TEMP = dir
  return { env, outputFile, summaryFile }
}

/**
 * Reads a GITHUB_OUTPUT file: `name<<DELIMITER` blocks, and the older `name=value` lines.
 *
 * @param {string} text
 * @returns {[string, string][]} name and value, in the order written, repeats included
 */
export function parseOutputFile(text) {
  const lines = text.split(/\r?\n/)
  /** @type {[string, string][]} */
  const outputs = []
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? ''
    const block = /^([^=<]+)<<(.+)$/.exec(line)
    if (block) {
      const [, name = '', delimiter] = block
      /** @type {string[]} */
      const value = []
      while (i + 1 < lines.length && lines[i + 1] !== delimiter) {
        i += 1
        value.push(lines[i] ?? '')
      }
      i += 1
      outputs.push([name, value.join('\n')])
    } else if (line.includes('=')) {
      const at = line.indexOf('=')
      outputs.push([line.slice(0, at), line.slice(at + 1)])
    }
  }
  return outputs
}

/**
 * The variables a runner sets for the event that started the workflow, from a webhook payload
 * file such as those in `__fixtures__/events/`: the payload's path and the event's name, the
 * repository, the commit and ref the workflow runs on, and GitHub's API at `apiUrl` (for the demo
 * and the bench, the simulator's origin, which also plays GitHub). Pass them as `runnerStep`'s
 * `extra`.
 *
 * A pull request's workflow runs on its merge commit, which a payload may not name
 * (`merge_commit_sha` is null before GitHub has computed it); the head commit stands in then.
 *
 * @param {string} name the event's name: `push`, `pull_request`, …
 * @param {string} payloadFile
 * @param {string} apiUrl
 * @returns {Record<string, string>}
 */
export function runnerEvent(name, payloadFile, apiUrl) {
  /** @type {EventPayload} */
  const payload = JSON.parse(readFileSync(payloadFile, 'utf8'))
  const pr = payload.pull_request
  const repository = payload.repository?.full_name
  if (!repository) throw new Error(`${payloadFile} names no repository (repository.full_name)`)
  /** @type {Record<string, string>} */
  const env = {
    GITHUB_EVENT_NAME: name,
    GITHUB_EVENT_PATH: payloadFile,
    GITHUB_REPOSITORY: repository,
    GITHUB_API_URL: apiUrl,
    GITHUB_SERVER_URL: 'https://github.com'
  }
  const sha = pr ? (pr.merge_commit_sha ?? pr.head?.sha) : payload.after
  const ref = pr && typeof pr.number === 'number' ? `refs/pull/${pr.number}/merge` : payload.ref
  if (sha) env.GITHUB_SHA = sha
  if (ref) env.GITHUB_REF = ref
  return env
}

/**
 * The few fields of a webhook payload that `runnerEvent` reads.
 *
 * @typedef {object} EventPayload
 * @property {{ full_name?: string }} [repository]
 * @property {string} [ref]
 * @property {string} [after]
 * @property {{ number?: number, merge_commit_sha?: string | null, head?: { sha?: string } }} [pull_request]
 */

/** The annotation commands a log shows as a line of its own, and how the demo names them. */
const ANNOTATIONS = /** @type {Record<string, string>} */ ({
  error: 'Error',
  warning: 'Warning',
  notice: 'Notice'
})

/**
 * A log line as a person reads it on GitHub's page rather than as the runner receives it:
 * workflow commands that only steer the runner (`::debug::`, `::add-mask::`, `::endgroup::`,
 * `::save-state::`…) are left out (undefined); an annotation reads `Warning: …` (`Error:`,
 * `Notice:`), its message's escapes (`%0A`, `%0D`, `%25`) decoded and later lines indented under
 * it; a group's start reads `▸ title`. Every other line is itself. A command is a line that
 * starts with `::name` and has a second `::`, as the runner reads one.
 *
 * @param {string} line
 * @returns {string | undefined}
 */
export function readableLine(line) {
  const command = /^::([a-z-]+)(?:\s[^:]*)?::(.*)$/i.exec(line)
  if (!command) return line
  const [, name = '', data = ''] = command
  const text = data.replace(/%0D/gi, '\r').replace(/%0A/gi, '\n').replace(/%25/g, '%')
  const shown = ANNOTATIONS[name.toLowerCase()]
  if (shown) {
    const indent = ' '.repeat(shown.length + 2)
    return `${shown}: ${text.replace(/\r?\n/g, `\n${indent}`)}`
  }
  if (name.toLowerCase() === 'group') return `▸ ${text}`
  return undefined
}
