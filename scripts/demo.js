// @ts-check
// npm run demo [-- --scenario NAME] [--raw]: runs the committed bundle against the local simulator
// the way a GitHub runner would, then shows the step outputs, the job summary it wrote (as text),
// what it wrote on GitHub (the status comment, the docs check, pull request changes), and what the
// simulator (playing both the Mintlify API and GitHub's REST API) received. The log reads as
// GitHub's page shows it; --raw shows the workflow commands the runner receives.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { htmlToText } from './html-text.js'
import { matchRoute } from '../simulator/routes.js'
import { startSimulator } from '../simulator/server.js'
import { createInterface } from 'node:readline'
import { parseOutputFile, readableLine, runnerEvent, runnerStep } from './runner.js'

/**
 * @typedef {import('../simulator/scenario.js').ScenarioInput} ScenarioInput
 * @typedef {import('../simulator/server.js').Simulator} Simulator
 * @typedef {import('../simulator/server.js').RecordedRequest} RecordedRequest
 * @typedef {import('../simulator/github-data.js').PullChange} PullChange
 */

/**
 * What a step that already ran left for the steps after it.
 *
 * @typedef {object} StepResult
 * @property {number} code the action's exit code
 * @property {Record<string, string>} outputs what it wrote to `GITHUB_OUTPUT`
 */

/**
 * One run of the action, as one step of a workflow (or, with an event of its own, of a later
 * workflow run).
 *
 * @typedef {object} Step
 * @property {string} title what the step does, for its heading
 * @property {(earlier: StepResult[]) => Record<string, string>} [inputs] inputs over the demo's,
 *   given the results of the steps before it (a later step reads `job-id` from an earlier one)
 * @property {DemoEvent} [event] the event that started this step's workflow, instead of the
 *   demo's (a later workflow run on another pull request)
 * @property {ScenarioInput} [scenario] knobs merged into the simulator's before this step (what a
 *   later push's comparison lists)
 */

/**
 * The event that started the workflow: its name and a payload file in __fixtures__/events/,
 * optionally edited for the demo (written to a file of its own, the fixture left as it is).
 *
 * @typedef {object} DemoEvent
 * @property {string} name
 * @property {string} payload
 * @property {{ what: string, apply: (payload: EditablePayload) => void }} [edit] what the
 *   edit changes, for the banner, and the edit itself
 */

/**
 * The fields of a `pull_request` payload the demo's edits change.
 *
 * @typedef {object} PullRequestPayload
 * @property {number} number
 * @property {{ login: string }} sender
 * @property {{ number: number, title: string, body: string | null, html_url: string,
 *   user: { login: string }, head: { ref: string, sha: string, label: string } }} pull_request
 */

/**
 * The fields of a `push` payload the demo's edits change.
 *
 * @typedef {object} PushPayload
 * @property {string} ref
 * @property {string} before
 * @property {string} after
 * @property {string} compare
 * @property {{ id: string, message: string, url: string }[]} commits
 * @property {{ id: string, message: string, url: string }} head_commit
 */

/**
 * The fields of an `issue_comment` payload the demo's edits change.
 *
 * @typedef {object} CommentPayload
 * @property {{ body: string, created_at: string }} comment
 */

/**
 * A payload an edit changes: each edit knows which event's fixture it edits.
 *
 * @typedef {PullRequestPayload & PushPayload & CommentPayload} EditablePayload
 */

/**
 * One scenario of the demo. A new one is an entry in `DEMOS`: the simulator's knobs, the inputs,
 * the event that started the workflow and, for more than one run, the steps. Every request the
 * simulator receives, the prompts it is sent and what was written on its GitHub (comments, commit
 * statuses, pull request changes) are shown whatever the scenario.
 *
 * @typedef {object} Demo
 * @property {string} about one line, for `--help` and the banner
 * @property {ScenarioInput} [scenario] the simulator's knobs (see simulator/scenario.js)
 * @property {Record<string, string>} [inputs] over `baseInputs`, for every step
 * @property {DemoEvent} [event] the event that started the workflow. Without one the action runs
 *   as outside a workflow and adds nothing to the prompt
 * @property {Step[]} [steps] default: one step that runs the action once
 */

const BUNDLE = fileURLToPath(new URL('../dist/index.js', import.meta.url))
const EVENTS = fileURLToPath(new URL('../__fixtures__/events/', import.meta.url))
const API_KEY = 'mint_simulator_key'
/** The `github-token` input when an event is replayed; the simulator's GitHub accepts only it. */
const GITHUB_TOKEN = 'ghs_demo_token_for_the_simulator'
/** The `docs-token` input of the docs pull request scenario. */
const DOCS_TOKEN = 'ghp_demo_docs_token_for_the_simulator'
/** The repository of the replayed events, which keeps its docs in a folder in the monorepo demo. */
const CODE_REPO = 'Codertocat/Hello-World'
/**
 * The branch, head commit and title of the docs pull request (#7) the agent opens in the code
 * repository in the monorepo demo; made up, as GitHub's examples have no such pull request.
 */
const DOCS_BRANCH = 'mintlify/document-dry-run'
const DOCS_SHA = '5d0c7a1e9b3f2c48a6e0d1b7c9f3a2e4b6d8f0a1'
const DOCS_TITLE = 'Document the --dry-run flag'
/**
 * The main branch of the gather demo, oldest first: the commit before the first push (the push
 * example's `before`), the first push, a push that did not run the workflow, the second push. All
 * but the first are made up, as GitHub's examples have no such branch.
 */
const MAIN = {
  documented: 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e',
  first: '3a1f0c9d2b7e4a6c8f0e1d2c3b4a59687766f5e4',
  between: '7c2e9b1a0f3d5e7a9c1b3d5f7e9a0c2e4b6d8f01',
  second: 'b94d27e1c3a5f7091e2d4c6b8a0f1e3d5c7b9a12'
}
// A stuck action must not stall the demo; its own timeout input is a minute at most.
const WATCHDOG_MS = 3 * 60_000
/** Lines of a prompt shown; the rest are counted. */
const PROMPT_LINES = 40
/** Lines of the prompt shown in the job summary, which the prompt's own section shows again. */
const SUMMARY_PROMPT_LINES = 8

/** @type {Record<string, Demo>} */
const DEMOS = {
  completed: { about: 'the agent opens a pull request', scenario: {} },
  'no-pr': { about: 'the job completes without changing a file', scenario: { prLink: false } },
  'no-change': {
    about: 'on a pull request, the job completes and the agent pushed nothing: no change needed',
    event: { name: 'pull_request', payload: 'pull_request-opened.json' },
    // The deploy branch is read: the agent has not committed there since the job began.
    scenario: { prLink: false }
  },
  pushed: {
    about: 'the agent pushes straight to main, without a pull request: the commits are linked',
    event: { name: 'pull_request', payload: 'pull_request-opened.json' },
    scenario: {
      prLink: false,
      // No branch named: the docs repository's default branch, main, is read.
      jobFields: { source: { repository: 'https://github.com/acme/docs', ref: null } },
      github: {
        branchCommits: {
          // Newest first; a commit without a date is dated when it is listed, after the job.
          'acme/docs@main': [
            { message: 'Document the --dry-run flag', author: { login: 'mintlify[bot]' } },
            { message: 'Fix a typo', author: { login: 'octocat' } }
          ]
        }
      }
    }
  },
  'docs-fail': {
    about: "the docs pull request's own build fails: the docs check fails, naming it",
    event: { name: 'pull_request', payload: 'pull_request-opened.json' },
    scenario: {
      github: {
        pulls: { 'acme/docs#101': { user: 'mintlify[bot]' } },
        checks: {
          'acme/docs#101': {
            runs: [
              { name: 'Mintlify Deployment', conclusion: 'failure' },
              { name: 'links', conclusion: 'success' }
            ]
          }
        }
      }
    },
    inputs: { preview: 'off' }
  },
  failed: { about: 'the agent gives up and the job fails', scenario: { finalStatus: 'failed' } },
  archived: { about: 'the job ends archived', scenario: { finalStatus: 'archived' } },
  flaky: {
    about: 'some reads of the job meet a 502 or a 503 on the way',
    // With the simulator's default seed this fails the second and third checks: one of each.
    scenario: { flakiness: 0.6 }
  },
  timeout: {
    about: 'the job is still running when the 10s timeout is up',
    scenario: { finalStatus: 'active' },
    // The last check comes before the deadline, at most one poll interval before it: a short
    // interval ends the step close to the 10s it reports (the shortest timeout accepted).
    inputs: { timeout: '10s', 'max-poll-interval': '1s' }
  },
  push: {
    about: 'a push starts the workflow; the change read from GitHub goes into the prompt',
    event: { name: 'push', payload: 'push.json' }
  },
  'docs-pr': {
    about: 'a pull request run with docs-token: the docs pull request links back, asks reviewers',
    event: { name: 'pull_request', payload: 'pull_request-opened.json' },
    scenario: {
      github: {
        // The workflow token reaches the code repository; the docs token, the docs repository.
        tokens: {
          docs: { token: DOCS_TOKEN, user: 'docs-writer[bot]', repos: ['acme/docs'] }
        },
        pulls: { 'acme/docs#101': { user: 'mintlify[bot]' } }
      }
    },
    inputs: {
      'docs-token': DOCS_TOKEN,
      'docs-reviewers': 'octocat, acme/writers, author',
      'docs-labels': 'documentation'
    }
  },
  preview: {
    about: 'the docs pull request is open: a preview of its branch is deployed and linked',
    event: { name: 'pull_request', payload: 'pull_request-opened.json' },
    scenario: {
      // The agent's docs pull request, on the branch the job names (`mintlify/agent-1`).
      github: {
        pulls: { 'acme/docs#101': { user: 'mintlify[bot]', head: { ref: 'mintlify/agent-1' } } }
      },
      preview: { buildMs: 2500 }
    }
  },
  monorepo: {
    about:
      'docs in the code repository: github-token follows the docs pull request; its own run is skipped',
    event: { name: 'pull_request', payload: 'pull_request-opened.json' },
    scenario: {
      // The agent works on the code repository itself and opens its pull request there, as
      // mintlify[bot].
      prLink: `https://github.com/${CODE_REPO}/pull/7`,
      jobFields: { source: { repository: `https://github.com/${CODE_REPO}`, ref: DOCS_BRANCH } },
      github: {
        pulls: {
          [`${CODE_REPO}#7`]: {
            user: 'mintlify[bot]',
            title: DOCS_TITLE,
            head: { ref: DOCS_BRANCH, sha: DOCS_SHA }
          }
        }
      }
    },
    // No docs-token: the workflow token reaches the docs pull request.
    inputs: { 'docs-reviewers': 'octocat, author', 'docs-labels': 'documentation' },
    steps: [
      { title: 'code pull request #2 opened: the agent opens docs pull request #7 beside it' },
      {
        title: 'docs pull request #7, opened by mintlify[bot], starts a workflow run of its own',
        event: {
          name: 'pull_request',
          payload: 'pull_request-opened.json',
          edit: {
            what: `pull request #7, opened by mintlify[bot] from ${DOCS_BRANCH}`,
            apply: (payload) => {
              const pull = payload.pull_request
              payload.number = pull.number = 7
              payload.sender.login = pull.user.login = 'mintlify[bot]'
              pull.title = DOCS_TITLE
              pull.body = null
              pull.html_url = `https://github.com/${CODE_REPO}/pull/7`
              pull.head.ref = DOCS_BRANCH
              pull.head.sha = DOCS_SHA
              pull.head.label = `Codertocat:${DOCS_BRANCH}`
            }
          }
        }
      }
    ]
  },
  gather: {
    about: 'two pushes to main gather into one docs job and its docs pull request',
    event: pushToMain(MAIN.documented, MAIN.first, 'Add a --dry-run flag to deploy'),
    scenario: {
      // GraphQL's history of main, where the action looks for the docs check that records the job.
      github: {
        history: Object.values(MAIN),
        tokens: {
          docs: { token: DOCS_TOKEN, user: 'docs-writer[bot]', repos: ['acme/docs'] }
        }
      }
    },
    // docs-token reads the docs pull request's state and keeps its backlink, which lists each
    // change that fed the job.
    inputs: { 'docs-token': DOCS_TOKEN },
    steps: [
      {
        title:
          'a push to main: no docs job on main yet, so one starts and opens a docs pull request'
      },
      {
        title:
          'two pushes later, the next run on main joins that job and its open docs pull request',
        event: pushToMain(MAIN.between, MAIN.second, 'Print the upload size in --dry-run'),
        // The comparison since the commit the job was last told about lists both pushes: the one
        // that did not run the workflow too.
        scenario: {
          github: {
            commits: [
              { sha: MAIN.between, message: 'List skipped files in --dry-run' },
              { sha: MAIN.second, message: 'Print the upload size in --dry-run' }
            ]
          }
        }
      }
    ]
  },
  command: {
    about: "a reviewer's /docs comment on the pull request goes to its docs job",
    // The run reads the comment again: GitHub holds it as the payload gives it.
    scenario: {
      github: {
        comments: {
          'Codertocat/Hello-World#2': [
            { id: 492700400, user: 'Codertocat', body: '/docs Also document the --retries flag' }
          ]
        }
      }
    },
    event: { name: 'pull_request', payload: 'pull_request-opened.json' },
    steps: [
      {
        title: 'code pull request #2 opened: a docs job starts, and the status comment records it'
      },
      {
        title: 'a reviewer who can write comments /docs on it: the request goes to that job',
        // On issue_comment the prompt is optional: the request is the instruction.
        inputs: () => ({ prompt: '' }),
        event: {
          name: 'issue_comment',
          payload: 'issue_comment-created-pull_request.json',
          edit: {
            what: 'a comment by Codertocat, an admin: /docs Also document the --retries flag',
            apply: (payload) => {
              payload.comment.body = '/docs Also document the --retries flag'
              // After the head commit the simulator makes up (15:20:30Z), as a reviewer would.
              payload.comment.created_at = '2019-05-15T15:21:00Z'
            }
          }
        }
      }
    ]
  },
  'follow-up': {
    about: 'a later step sends a follow-up message to the job an earlier step started',
    steps: [
      { title: 'start a job' },
      {
        title: 'a later step continues that job with a new prompt',
        inputs: ([first]) => ({
          'job-id': first?.outputs['job-id'] ?? '',
          prompt: 'Also add a --dry-run example to the quickstart'
        })
      }
    ]
  }
}

const USAGE = `Usage: npm run demo [-- --scenario NAME] [--raw]

Runs dist/index.js against the local API simulator, as a GitHub runner would. The action's log
is shown as GitHub's page shows it: commands to the runner (::debug::, ::add-mask::, …) are left
out and annotations read "Warning: …"; --raw shows the log exactly as the runner receives it.

Scenarios:
${Object.entries(DEMOS)
  .map(([name, demo]) => `  ${name.padEnd(10)} ${demo.about}`)
  .join('\n')}
`

/**
 * The inputs every step starts from: quick polling, and a token for GitHub when there is an
 * event to read.
 *
 * @param {Simulator} simulator
 * @param {Demo} demo
 * @returns {Record<string, string>}
 */
function baseInputs(simulator, demo) {
  return {
    prompt: 'Document the new --dry-run flag in the CLI reference',
    'project-id': 'demo-project',
    'api-key': API_KEY,
    'base-url': simulator.url,
    'poll-interval': '1s',
    'max-poll-interval': '1s',
    timeout: '1m',
    wait: 'true',
    'fail-on-no-pr': 'false',
    ...(demo.event ? { 'github-token': GITHUB_TOKEN } : {}),
    ...demo.inputs
  }
}

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
 * What kind of request the simulator received: one of the three Mintlify job routes, or GitHub.
 *
 * @param {RecordedRequest} request
 * @returns {import('../simulator/routes.js').RouteKind | 'github' | 'other'}
 */
function kindOf(request) {
  const path = request.path.split('?')[0] ?? ''
  if (path.includes('/repos/') || /^(?:\/api)?\/graphql$|^(?:\/api\/v3)?\/user$/.test(path)) {
    return 'github'
  }
  const route = matchRoute(request.path)
  return 'kind' in route && route.method === request.method ? route.kind : 'other'
}

/**
 * @param {RecordedRequest} request
 * @returns {string | undefined} the prompt a create or a follow-up message carried
 */
function promptOf(request) {
  try {
    const prompt = JSON.parse(request.body)?.prompt
    return typeof prompt === 'string' ? prompt : undefined
  } catch {
    return undefined
  }
}

/**
 * Lists the requests one step made, runs of the same one folded (`×4`), then counts them by kind.
 *
 * @param {RecordedRequest[]} requests
 */
function showRequests(requests) {
  heading('What the simulator received')
  if (requests.length === 0) {
    console.log('(nothing)')
    return
  }
  /** @type {{ line: string, times: number }[]} */
  const rows = []
  for (const request of requests) {
    // Shas are shortened as GitHub shows them; the log above has them whole.
    const path = request.path.replace(/\b([0-9a-f]{7})[0-9a-f]{33}\b/g, '$1')
    const kind = kindOf(request)
    const prompt = promptOf(request)
    const note =
      kind === 'github'
        ? '  (GitHub)'
        : prompt === undefined
          ? ''
          : `  prompt ${prompt.length} chars`
    const line = `${request.method.padEnd(5)} ${path}${note}`
    const last = rows.at(-1)
    if (last?.line === line) last.times += 1
    else rows.push({ line, times: 1 })
  }
  for (const { line, times } of rows) console.log(times > 1 ? `${line}  ×${times}` : line)
  const count = (/** @type {string} */ kind) => requests.filter((r) => kindOf(r) === kind).length
  console.log(
    `Counted: ${count('create')} × POST …/job, ${count('message')} × POST …/message, ` +
      `${count('get')} × GET …/job/{id}, ${count('github')} × GitHub` +
      (count('preview') + count('previewStatus') > 0
        ? `, ${count('preview')} × POST …/preview, ${count('previewStatus')} × GET …/update-status`
        : '') +
      (count('other') > 0 ? `, ${count('other')} × other` : '')
  )
}

/**
 * Shows each prompt the step sent the agent, with how much of it the action added to the prompt
 * input (the change that started the workflow).
 *
 * @param {RecordedRequest[]} requests
 * @param {string} given the step's `prompt` input
 */
function showPrompts(requests, given) {
  for (const request of requests) {
    const kind = kindOf(request)
    const prompt = promptOf(request)
    if ((kind !== 'create' && kind !== 'message') || prompt === undefined) continue
    const what =
      kind === 'create'
        ? 'The prompt the new job was given'
        : 'The follow-up message the job was sent'
    const added = prompt.startsWith(given) ? prompt.length - given.length : undefined
    const origin =
      added === 0
        ? 'the prompt input as written'
        : added === undefined
          ? 'not the prompt input as written'
          : `${given.length} from the prompt input, ${added} added by the action`
    const lines = prompt.split('\n')
    const shown =
      lines.length > PROMPT_LINES ? `, first ${PROMPT_LINES} of ${lines.length} lines` : ''
    heading(`${what} (${prompt.length} chars: ${origin}${shown})`)
    console.log(
      lines
        .slice(0, PROMPT_LINES)
        .map((line) => `│ ${line}`.trimEnd())
        .join('\n')
    )
    if (lines.length > PROMPT_LINES) {
      console.log(`│ … ${lines.length - PROMPT_LINES} more lines`)
    }
  }
}

/**
 * What the simulator's GitHub held before a step, so that what the step wrote can be told apart.
 *
 * @typedef {object} GitHubBefore
 * @property {Map<number, number>} comments each comment's id and number of versions
 * @property {number} statuses how many commit statuses had been written
 * @property {Map<string, string>} pulls each changed pull request's changes, as JSON
 */

/**
 * @param {Simulator} simulator
 * @returns {GitHubBefore}
 */
function gitHubBefore(simulator) {
  const { comments, statuses, pulls } = simulator.github
  return {
    comments: new Map(comments.map((c) => [c.id, c.history.length])),
    statuses: statuses.length,
    pulls: new Map([...pulls].map(([key, change]) => [key, JSON.stringify(change)]))
  }
}

/**
 * @param {string} text
 * @returns {string} the text with the margin the demo sets quoted text apart with
 */
function quoted(text) {
  return text
    .split('\n')
    .map((line) => `│ ${line}`.trimEnd())
    .join('\n')
}

/**
 * Shows what the step wrote on the simulator's GitHub: comments (as GitHub renders them, in
 * text), the commit statuses of the docs check and changes to pull requests.
 *
 * @param {Simulator} simulator
 * @param {GitHubBefore} before
 */
function showGitHub(simulator, before) {
  showComments(simulator, before.comments)
  showStatuses(simulator.github.statuses.slice(before.statuses))
  showPulls(
    [...simulator.github.pulls]
      .filter(([key, c]) => before.pulls.get(key) !== JSON.stringify(c))
      .map(([key, change]) => [spelled(simulator, key), change])
  )
}

/**
 * @param {Simulator} simulator
 * @param {string} key a pull request as the simulator keeps it, `owner/name#number` in lower case
 * @returns {string} the same, spelled as the requests that reached it spelled the repository
 */
function spelled(simulator, key) {
  const [name = '', number = ''] = key.split('#')
  for (const request of simulator.requests) {
    const repo = /^(?:\/api\/v3)?\/repos\/([^/]+\/[^/?]+)/.exec(request.path)?.[1]
    if (repo?.toLowerCase() === name) return `${repo}#${number}`
  }
  return key
}

/**
 * Shows the comments the step wrote or edited, each body as text, with the hidden marker that
 * lets a later run find the status comment and its job.
 *
 * @param {Simulator} simulator
 * @param {Map<number, number>} before each comment's id and number of versions before the step
 */
function showComments(simulator, before) {
  const touched = simulator.github.comments.filter(
    (comment) => comment.history.length > (before.get(comment.id) ?? 0)
  )
  if (touched.length === 0) return
  heading('Comments written on GitHub (the simulator), as text')
  for (const comment of touched) {
    const had = before.get(comment.id)
    const edits = comment.history.length - (had ?? 1)
    const what =
      had === undefined ? (edits > 0 ? `new, then edited ${edits}×` : 'new') : `edited ${edits}×`
    console.log(
      `${comment.owner}/${comment.repo}#${comment.issueNumber}, comment ${comment.id} by ` +
        `${comment.user} (${what}):`
    )
    console.log(quoted(htmlToText(comment.body)))
    const marker = /^<!--\s*([\s\S]*?)\s*-->/.exec(comment.body)?.[1]
    if (marker) console.log(`(hidden marker: ${marker})`)
  }
}

/**
 * Shows the commit statuses the step set (the docs check), by commit and context, in the order
 * they were written; GitHub shows the last of each context.
 *
 * @param {import('../simulator/github.js').StatusRecord[]} statuses
 */
function showStatuses(statuses) {
  if (statuses.length === 0) return
  heading('Docs check on GitHub (commit statuses the simulator recorded)')
  /** @type {Map<string, typeof statuses>} */
  const groups = new Map()
  for (const status of statuses) {
    const key = `${status.owner}/${status.repo}@${status.sha.slice(0, 7)}, context "${status.context}"`
    groups.set(key, [...(groups.get(key) ?? []), status])
  }
  const width = Math.max(...statuses.map((status) => status.state.length))
  for (const [key, list] of groups) {
    console.log(`${key}:`)
    for (const status of list) {
      console.log(`  ${status.state.padEnd(width)}  ${status.description ?? '(no description)'}`)
      if (status.targetUrl) console.log(`  ${' '.repeat(width)}  target ${status.targetUrl}`)
    }
    console.log(`  GitHub shows: ${list.at(-1)?.state}`)
  }
}

/**
 * Shows what the step changed on pull requests (state, title, labels, reviewers), one line each.
 *
 * @param {[string, PullChange][]} changes by `owner/name#number`
 */
function showPulls(changes) {
  if (changes.length === 0) return
  heading('Pull request changes on GitHub (the simulator)')
  for (const [key, change] of changes) {
    const body = change.body ? change.body.replace(/\s+/g, ' ') : undefined
    const parts = [
      change.state && `state ${change.state}`,
      change.title && `title "${change.title}"`,
      body && `body "${body.length > 80 ? `${body.slice(0, 80)}…` : body}"`,
      change.labels?.length && `labels ${change.labels.join(', ')}`,
      change.reviewers?.length && `reviewers ${change.reviewers.join(', ')}`,
      change.teams?.length && `teams ${change.teams.join(', ')}`
    ].filter(Boolean)
    console.log(`${key}: ${parts.join('; ') || 'updated'}`)
  }
}

/**
 * Runs one step: the bundle with the step's inputs and the runner's variables, then everything
 * it left behind.
 *
 * @param {Simulator} simulator
 * @param {Record<string, string>} inputs
 * @param {Record<string, string>} runnerVariables the event's, when there is one
 * @param {boolean} raw show the log as the runner receives it, workflow commands and all
 * @returns {Promise<StepResult>}
 */
async function runStep(simulator, inputs, runnerVariables, raw) {
  const dir = mkdtempSync(join(tmpdir(), 'mintlify-agent-demo-'))
  try {
    const { env, outputFile, summaryFile } = runnerStep(inputs, dir, runnerVariables)
    const first = simulator.requests.length
    const github = gitHubBefore(simulator)

    heading('Action log')
    const code = await runAction(env, raw)
    const outputs = parseOutputFile(readFileSync(outputFile, 'utf8'))
    const requests = simulator.requests.slice(first)

    heading('Step outputs')
    console.log(formatOutputs(outputs))
    heading('Job summary (as text)')
    const summary = readFileSync(summaryFile, 'utf8')
    console.log(htmlToText(summary, { maxPreLines: SUMMARY_PROMPT_LINES }) || '(empty)')
    showGitHub(simulator, github)
    showRequests(requests)
    showPrompts(requests, inputs.prompt ?? '')
    return { code, outputs: Object.fromEntries(outputs) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * @param {string[]} argv
 * @returns {Promise<number>} the exit code to leave with
 */
async function main(argv) {
  /** @type {string} */
  let name
  /** @type {boolean} */
  let raw
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        scenario: { type: 'string', default: 'completed' },
        raw: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false }
      }
    })
    if (values.help) {
      process.stdout.write(USAGE)
      return 0
    }
    name = values.scenario
    raw = values.raw
  } catch (error) {
    console.error(`demo: ${error instanceof Error ? error.message : String(error)} (see --help)`)
    return 2
  }
  const demo = Object.hasOwn(DEMOS, name) ? DEMOS[name] : undefined
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
    scenario: { jobDurationMs: 2000, github: { token: GITHUB_TOKEN } },
    log: (line) => console.log(`[simulator] ${line}`)
  })
  const eventDir = mkdtempSync(join(tmpdir(), 'mintlify-agent-demo-events-'))
  try {
    simulator.setScenario(demo.scenario ?? {})
    const steps = demo.steps ?? [{ title: 'run the action' }]

    console.log(`Mintlify agent action demo: ${name} (${demo.about})`)
    console.log(
      `API simulator at ${simulator.url}, playing the Mintlify API and GitHub's REST API; ` +
        'running dist/index.js as a GitHub runner would'
    )
    console.log(
      demo.event
        ? `${describeEvent(demo.event)}, with GITHUB_API_URL set to the simulator.`
        : 'outside a workflow run (no event), so nothing is added to the prompt.'
    )

    /** @type {StepResult[]} */
    const results = []
    for (const [index, step] of steps.entries()) {
      if (steps.length > 1) {
        console.log(`\n━━ Step ${index + 1} of ${steps.length}: ${step.title} ━━`)
      }
      if (step.event) console.log(`A new workflow run, ${describeEvent(step.event)}.`)
      if (step.scenario) simulator.setScenario(step.scenario)
      const event = step.event ?? demo.event
      const runnerVariables = event ? eventVariables(event, eventDir, simulator.url) : {}
      const inputs = { ...baseInputs(simulator, demo), ...step.inputs?.(results) }
      const result = await runStep(simulator, inputs, runnerVariables, raw)
      results.push(result)
      // As in a workflow, a failed step skips the steps after it.
      if (result.code !== 0) break
    }

    heading('Result')
    if (steps.length === 1) {
      console.log(`The action exited with code ${results[0]?.code}.`)
    } else {
      steps.forEach((step, index) => {
        const result = results[index]
        console.log(
          result
            ? `Step ${index + 1} (${step.title}) exited with code ${result.code}.`
            : `Step ${index + 1} (${step.title}) did not run: a step before it failed.`
        )
      })
    }
    return results.find((result) => result.code !== 0)?.code ?? 0
  } finally {
    await simulator.close()
    rmSync(eventDir, { recursive: true, force: true })
  }
}

/**
 * @param {DemoEvent} event
 * @returns {string} which event started the workflow, and from which payload
 */
function describeEvent(event) {
  const file = `__fixtures__/events/${event.payload}`
  return event.edit
    ? `on the ${event.name} event in ${file} edited to ${event.edit.what}`
    : `on the ${event.name} event in ${file}`
}

/**
 * A direct push to main of one commit, `after`, onto `before`: the push example (a push to the
 * branch `changes`) with its ref, its commits and its comparison changed.
 *
 * @param {string} before
 * @param {string} after
 * @param {string} message the pushed commit's
 * @returns {DemoEvent}
 */
function pushToMain(before, after, message) {
  return {
    name: 'push',
    payload: 'push.json',
    edit: {
      what: `a push of ${after.slice(0, 7)} onto ${before.slice(0, 7)} on main`,
      apply: (payload) => {
        const commit = {
          id: after,
          message,
          url: `https://github.com/${CODE_REPO}/commit/${after}`
        }
        payload.ref = 'refs/heads/main'
        payload.before = before
        payload.after = after
        payload.compare = `https://github.com/${CODE_REPO}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`
        payload.commits = [{ ...payload.commits[0], ...commit }]
        payload.head_commit = { ...payload.head_commit, ...commit }
      }
    }
  }
}

/**
 * The runner's variables for `event`; an edited payload is written to a file of its own in `dir`.
 *
 * @param {DemoEvent} event
 * @param {string} dir
 * @param {string} apiUrl
 * @returns {Record<string, string>}
 */
function eventVariables(event, dir, apiUrl) {
  let file = join(EVENTS, event.payload)
  if (event.edit) {
    /** @type {EditablePayload} */
    const payload = JSON.parse(readFileSync(file, 'utf8'))
    event.edit.apply(payload)
    // Steps run one after another, so one file per fixture is enough.
    file = join(dir, event.payload)
    writeFileSync(file, JSON.stringify(payload, null, 2))
  }
  return runnerEvent(event.name, file, apiUrl)
}

/**
 * Runs the bundle; its log goes to the terminal line by line, as `readableLine` shows it unless
 * `raw`.
 *
 * @param {NodeJS.ProcessEnv} env
 * @param {boolean} raw
 * @returns {Promise<number>}
 */
function runAction(env, raw) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUNDLE], {
      env,
      stdio: ['ignore', raw ? 'inherit' : 'pipe', 'inherit']
    })
    /** @type {Promise<void>} */
    let shown = Promise.resolve()
    if (child.stdout) {
      const lines = createInterface({ input: child.stdout, crlfDelay: Infinity })
      lines.on('line', (line) => {
        const readable = readableLine(line)
        if (readable !== undefined) console.log(readable)
      })
      shown = new Promise((done) => lines.on('close', done))
    }
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
      // Every line the action wrote is shown before what comes after it.
      void shown.then(() => resolve(code ?? 1))
    })
  })
}

process.exitCode = await main(process.argv.slice(2)).catch((error) => {
  console.error(`demo: ${error instanceof Error ? error.message : String(error)}`)
  return 1
})
