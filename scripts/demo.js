// @ts-check
// npm run demo [-- --scenario NAME]: runs the committed bundle against the local simulator the way
// a GitHub runner would, then shows the step outputs and the job summary it wrote.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { startSimulator } from '../simulator/server.js'
import { parseOutputFile, runnerStep } from './runner.js'

/**
 * @typedef {import('../simulator/scenario.js').ScenarioInput} ScenarioInput
 * @typedef {{ about: string, scenario: ScenarioInput, inputs?: Record<string, string> }} Demo
 */

const BUNDLE = fileURLToPath(new URL('../dist/index.js', import.meta.url))
const API_KEY = 'mint_simulator_key'
// A stuck action must not stall the demo; its own timeout input is a minute at most.
const WATCHDOG_MS = 3 * 60_000

/** @type {Record<string, Demo>} */
const DEMOS = {
  completed: { about: 'the agent opens a pull request', scenario: {} },
  'no-pr': { about: 'the job completes without changing a file', scenario: { prLink: false } },
  failed: { about: 'the agent gives up and the job fails', scenario: { finalStatus: 'failed' } },
  archived: { about: 'the job ends archived', scenario: { finalStatus: 'archived' } },
  flaky: {
    about: 'some status checks meet a 502 or a 503 on the way',
    // With the simulator's default seed this fails the second and third checks: one of each.
    scenario: { flakiness: 0.6 }
  },
  timeout: {
    about: 'the job is still running when the 5s timeout is up',
    scenario: { finalStatus: 'active' },
    inputs: { timeout: '5s' }
  }
}

const USAGE = `Usage: npm run demo [-- --scenario NAME]

Runs dist/index.js against the local API simulator, as a GitHub runner would.

Scenarios:
${Object.entries(DEMOS)
  .map(([name, demo]) => `  ${name.padEnd(10)} ${demo.about}`)
  .join('\n')}
`

/**
 * @param {[string, string][]} outputs
 * @returns {string}
 */
function formatOutputs(outputs) {
  if (outputs.length === 0) return '(none)'
  const width = Math.max(...outputs.map(([name]) => name.length))
  return outputs
    .map(([name, value]) => {
      const shown =
        value === '' ? '(empty)' : prettyJson(value).replaceAll('\n', `\n${' '.repeat(width + 2)}`)
      return `${name.padEnd(width)}  ${shown}`
    })
    .join('\n')
}

/**
 * @param {string} value
 * @returns {string} indented JSON when the value is a JSON object, else the value itself
 */
function prettyJson(value) {
  if (!value.startsWith('{')) return value
  try {
    return JSON.stringify(JSON.parse(value), null, 2)
  } catch {
    return value
  }
}

/** @param {string} title */
function heading(title) {
  console.log(`\n── ${title} ──`)
}

/**
 * @param {string[]} argv
 * @returns {Promise<number>} the exit code to leave with
 */
async function main(argv) {
  /** @type {string} */
  let name
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        scenario: { type: 'string', default: 'completed' },
        help: { type: 'boolean', default: false }
      }
    })
    if (values.help) {
      process.stdout.write(USAGE)
      return 0
    }
    name = values.scenario
  } catch (error) {
    console.error(`demo: ${error instanceof Error ? error.message : String(error)} (see --help)`)
    return 2
  }
  const demo = DEMOS[name]
  if (!demo) {
    console.error(
      `demo: unknown scenario "${name}"; choose one of ${Object.keys(DEMOS).join(', ')}`
    )
    return 2
  }
  if (!existsSync(BUNDLE)) {
    console.error(
      'demo: dist/index.js is missing. Build the action with `npm run build` (after ' +
        '`npm install`), then run `npm run demo` again.'
    )
    return 1
  }

  const simulator = await startSimulator({
    scenario: { jobDurationMs: 2000, ...demo.scenario },
    log: (line) => console.log(`[simulator] ${line}`)
  })
  const dir = mkdtempSync(join(tmpdir(), 'mintlify-agent-demo-'))
  try {
    /** @type {Record<string, string>} */
    const inputs = {
      prompt: 'Document the new --dry-run flag in the CLI reference',
      'project-id': 'demo-project',
      'api-key': API_KEY,
      'base-url': simulator.url,
      'poll-interval': '500ms',
      'max-poll-interval': '1s',
      timeout: '1m',
      wait: 'true',
      'fail-on-no-pr': 'false',
      ...demo.inputs
    }
    const { env, outputFile, summaryFile } = runnerStep(inputs, dir)

    console.log(`Mintlify agent action demo: ${name} (${demo.about})`)
    console.log(
      `API simulator at ${simulator.url}; running dist/index.js as a GitHub runner would.`
    )
    heading('Action log')
    const code = await runAction(env)

    heading('Step outputs')
    console.log(formatOutputs(parseOutputFile(readFileSync(outputFile, 'utf8'))))
    heading('Job summary')
    console.log(readFileSync(summaryFile, 'utf8').trim() || '(empty)')
    heading('Result')
    console.log(`The action exited with code ${code}.`)
    return code
  } finally {
    await simulator.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<number>}
 */
function runAction(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUNDLE], {
      env,
      stdio: ['ignore', 'inherit', 'inherit']
    })
    const watchdog = setTimeout(() => {
      console.error(`demo: the action was still running after ${WATCHDOG_MS / 1000}s; stopping it`)
      child.kill('SIGKILL')
    }, WATCHDOG_MS)
    // Ctrl-C reaches the action too; wait for it to stop so the outputs can still be shown.
    const ignore = () => {}
    process.on('SIGINT', ignore)
    child.on('error', reject)
    child.on('exit', (code) => {
      clearTimeout(watchdog)
      process.off('SIGINT', ignore)
      resolve(code ?? 1)
    })
  })
}

process.exitCode = await main(process.argv.slice(2)).catch((error) => {
  console.error(`demo: ${error instanceof Error ? error.message : String(error)}`)
  return 1
})
