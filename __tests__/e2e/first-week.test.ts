// What a new user meets in the first week, run on the built action as a runner runs it: empty
// secrets on a fork's or Dependabot's pull request skip the run and say why; a misspelt input
// is named with the input it meant; a failure of several inputs and a run's warnings read in the
// job summary as they do in the log.
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { htmlToText } from '../../scripts/html-text.js'
import {
  KEY,
  QUICK,
  ROOT,
  onEvent,
  runAction,
  type ActionRun,
  WITH_GITHUB,
  endToEnd
} from './harness.js'

const sims = endToEnd(WITH_GITHUB)

/** The guard the documented workflows put on the docs job (README.md, docs/recipes.md). */
const GUARD =
  "if: github.event.pull_request.head.repo.full_name == github.repository && github.actor != 'dependabot[bot]'"

/** The annotations of one kind the runner reads from the log, without their properties. */
const annotations = (run: ActionRun, kind: 'error' | 'warning' | 'notice') =>
  run.stdout
    .split('\n')
    .filter((line) => line.startsWith(`::${kind}`))
    .map((line) => line.replace(/^::[a-z]+[^:]*::/, ''))

/**
 * GitHub's example pull request (pull_request-opened.json) as Dependabot opens one: the pull
 * request's user and the sender are dependabot[bot], a Bot (the account workflows-docs.test.ts
 * uses). The webhook examples have no Dependabot pull request.
 */
function dependabotPayload(): string {
  const opened = JSON.parse(
    readFileSync(join(ROOT, '__fixtures__', 'events', 'pull_request-opened.json'), 'utf8')
  ) as { pull_request: Record<string, unknown>; sender: unknown }
  const bot = { login: 'dependabot[bot]', type: 'Bot', id: 49699333 }
  const path = join(mkdtempSync(join(tmpdir(), 'dependabot-')), 'pull_request.json')
  writeFileSync(
    path,
    JSON.stringify({ ...opened, pull_request: { ...opened.pull_request, user: bot }, sender: bot })
  )
  return path
}

/** The inputs of a workflow whose secrets GitHub left empty: no api-key. */
const { 'api-key': _key, ...WITHOUT_KEY } = QUICK

describe('empty secrets where GitHub gives none', () => {
  it("skips a fork's pull request with an empty api-key: exit 0, skipped, a notice with the guard, nothing sent", async () => {
    const sim = await sims.start()
    const { env } = onEvent(sim, 'pull_request', 'pull_request-opened-fork.json', {
      GITHUB_ACTOR: 'hubot'
    })
    const run = await runAction({ ...WITHOUT_KEY, 'base-url': sim.url }, { env })

    expect(run.code).toBe(0)
    expect(run.outputs.skipped).toBe('true')
    expect(annotations(run, 'error')).toEqual([])
    const reason =
      'api-key is empty: GitHub gives no secrets to pull requests from forks (pull request #2 ' +
      'comes from hubot/Hello-World), so no docs job was started and this step is skipped. To ' +
      `keep such runs from starting, guard the docs job or step with \`${GUARD}\`.`
    expect(annotations(run, 'notice')).toEqual([reason])
    // Said once: the notice, not a log line besides it.
    expect(run.stdout.split(reason)).toHaveLength(2)
    // Nothing reached the platform or GitHub: the fork's run has a read-only token anyway.
    expect(sim.requests).toEqual([])
    expect(sim.github.statuses).toEqual([])
    // The summary shows the reason, the guard as code.
    expect(run.summary).toContain('⏭️ <strong>Skipped&#58; no job started</strong>')
    expect(run.summary).toContain('<code>if&#58; github.event.pull_request.head.repo.full_name')
    expect(htmlToText(run.summary)).toContain(`with ${GUARD}.`)
  })

  it('skips a pull request Dependabot opened and started, with both secrets empty', async () => {
    const sim = await sims.start()
    const { env } = onEvent(sim, 'pull_request', 'pull_request-opened.json', {
      GITHUB_EVENT_PATH: dependabotPayload(),
      GITHUB_ACTOR: 'dependabot[bot]'
    })
    const run = await runAction({ prompt: QUICK.prompt, 'base-url': sim.url }, { env })

    expect(run.code).toBe(0)
    expect(run.outputs.skipped).toBe('true')
    expect(annotations(run, 'error')).toEqual([])
    expect(annotations(run, 'notice')).toEqual([
      expect.stringMatching(
        /^api-key and project-id are empty: GitHub gives no secrets to runs Dependabot starts \(GITHUB_ACTOR is dependabot\[bot\]\)/
      )
    ])
    expect(sim.requests).toEqual([])
  })

  it('still fails a pull request of the repository itself whose api-key is empty', async () => {
    const sim = await sims.start()
    const { env } = onEvent(sim, 'pull_request', 'pull_request-opened.json', {
      GITHUB_ACTOR: 'Codertocat'
    })
    const run = await runAction({ ...WITHOUT_KEY, 'base-url': sim.url }, { env })

    expect(run.code).toBe(1)
    expect(run.outputs.skipped).toBe('false')
    expect(annotations(run, 'error')).toEqual([
      expect.stringMatching(/^Input "api-key": is required/)
    ])
  })
})

describe('an input under a wrong name', () => {
  it('api_key (INPUT_API_KEY) instead of api-key: the error says which input it meant, never the key', async () => {
    const sim = await sims.start()
    // The runner upper-cases the name as written: api_key arrives as INPUT_API_KEY.
    const run = await runAction({ ...WITHOUT_KEY, api_key: KEY, 'base-url': sim.url })

    expect(run.code).toBe(1)
    expect(annotations(run, 'error')).toEqual([
      'Input "api-key": is required: an admin API key (mint_…), passed from a secret. The step ' +
        'was given "api_key" (INPUT_API_KEY), which is not an input of this action: did you ' +
        'mean api-key?'
    ])
    expect(run.stdout + run.stderr + run.summary).not.toContain(KEY)
    expect(sim.requests).toEqual([])
  })
})

describe('the job summary reads as the log does', () => {
  it('several bad inputs: a list, one a line, with real line breaks and no \\n', async () => {
    const sim = await sims.start()
    const run = await runAction({
      ...QUICK,
      'base-url': sim.url,
      timeout: 'soon',
      wait: 'yes',
      context: 'sometimes'
    })

    expect(run.code).toBe(1)
    expect(run.summary).not.toContain('\\n')
    expect(run.summary).toMatch(
      /<p>3 inputs cannot be used&#58;<\/p>\n<ul>\n<li>Input &quot;wait&quot;/
    )
    expect(run.summary.match(/<li>Input &quot;/g)).toHaveLength(3)
    // No blank line inside the HTML: GitHub would render what follows it as markdown.
    const html = run.summary.slice(run.summary.indexOf('<p>'))
    expect(html.trimEnd()).not.toMatch(/\n[ \t]*\n/)
    expect(htmlToText(run.summary)).toMatch(
      /3 inputs cannot be used:\n\n- Input "wait": "yes" is not a boolean; use true or false\n- Input "timeout": "soon" is not a duration;.*\n- Input "context": "sometimes" is not one of auto, off/
    )
  })

  it('a run with two warnings shows both in the summary, each once, with its reason', async () => {
    const sim = await sims.start({}, { apiKey: 'sim_key_without_prefix' })
    const run = await runAction({
      ...QUICK,
      'api-key': 'sim_key_without_prefix',
      'base-url': sim.url,
      // fail_on_no_pr arrives as INPUT_FAIL_ON_NO_PR, which names no input.
      fail_on_no_pr: 'true'
    })

    expect(run.code).toBe(0)
    const warnings = annotations(run, 'warning')
    expect(warnings).toEqual([
      expect.stringMatching(/^The api-key does not start with "mint_"/),
      '"fail_on_no_pr" (INPUT_FAIL_ON_NO_PR) is not an input of this action, so it is ignored; ' +
        'did you mean fail-on-no-pr? Write it as fail-on-no-pr under with:.'
    ])
    const section = run.summary.slice(run.summary.indexOf('<h3>Warnings</h3>'))
    expect(section.match(/<p>⚠️ /g)).toHaveLength(2)
    expect(section).toContain('<p>⚠️ The api-key does not start with &quot;mint_&quot;')
    expect(section).toContain(
      '<p>⚠️ &quot;fail_on_no_pr&quot; &#40;INPUT_FAIL_ON_NO_PR&#41; is not an input of this action'
    )
    const text = htmlToText(run.summary)
    expect(text).toContain('Warnings\n--------\n\n⚠️ The api-key does not start with "mint_"')
    expect(text).toContain('⚠️ "fail_on_no_pr" (INPUT_FAIL_ON_NO_PR) is not an input')
  })
})
