// The built action as a runner runs it on real GitHub events, against the simulator playing both
// the Mintlify API and GitHub: which GitHub requests it makes, what prompt reaches the API, when it
// starts no job, and how it carries on when GitHub fails.
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { budgetsFor } from '../../src/clients/github/policy.js'
import {
  KEY,
  margin,
  onEvent,
  PUSHED,
  QUICK,
  ROOT,
  runAction,
  type Simulator,
  WITH_GITHUB,
  endToEnd,
  atPace,
  SHORT_TIMEOUT
} from './harness.js'

// These runs write no commit status, so their jobs may end at create (see `quickScenario`).
const sims = endToEnd(WITH_GITHUB, { endedAtCreate: true })

const TOKEN = 'ghs_e2e_token_0123456789'
const EVENTS = join(ROOT, '__fixtures__', 'events')
const REPO = '/repos/Codertocat/Hello-World'

function eventPayload(file: string): { after?: string; before?: string } {
  return JSON.parse(readFileSync(join(EVENTS, file), 'utf8')) as { after?: string; before?: string }
}

/** What the run asked of the code repository (the docs pull request is read in its own). */
/** The pull requests of the pushed commit, asked on every push: is it the agent's own work? */
const PULLS = /\/commits\/[0-9a-f]{40}\/pulls(\?|$)/
/** What the run asked to read the change (the pull requests of the commit are asked besides). */
const github = (sim: Simulator) =>
  sim.requests.filter((r) => r.path.includes('/repos/Codertocat/') && !PULLS.test(r.path))
const creates = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/job'))
const sentPrompt = (sim: Simulator) =>
  (JSON.parse(creates(sim)[0]?.body ?? '{}') as { prompt?: string }).prompt ?? ''

// The pull request comment has its own tests (companion.test.ts); here only the change is read.
const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': TOKEN,
  // Only the change is under test here: no comment, no check.
  comment: 'off',
  check: 'off',
  'reuse-job': 'false',
  ...more
})

describe('what the agent is told', () => {
  it('push: one comparison request, then the user text first and the change within budget', async () => {
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim, { 'context-max-chars': '3000' }),
      onEvent(sim, 'push', 'push.json')
    )
    expect(run.code).toBe(0)
    const { before, after } = eventPayload('push.json')
    expect(github(sim).map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual([
      `GET ${REPO}/compare/${before}...${after}`
    ])
    expect(github(sim)[0]?.headers.authorization).toMatch(/^token ghs_e2e_token/)
    const prompt = sentPrompt(sim)
    expect(prompt.startsWith(`${QUICK.prompt}\n\n## Context: the code change`)).toBe(true)
    expect(prompt.length - QUICK.prompt.length).toBeLessThanOrEqual(3000)
    expect(prompt).toContain('src/commands/deploy.ts')
    expect(prompt).toContain('+  dryRun: boolean')
    expect(run.outputs.skipped).toBe('false')
    expect(run.stdout).toMatch(
      /Read the change from the comparison .*: 6 changed files \(1 GitHub request\)/
    )
    expect(`${run.stdout.replace(/^::add-mask::.*$/gm, '')}${prompt}`).not.toContain(TOKEN)
  })

  it('the first push of the default branch: its head commit, one request', async () => {
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'push', 'push-created-branch.json', { GITHUB_REF: 'refs/heads/master' })
    )
    expect(run.code).toBe(0)
    const { after } = eventPayload('push-created-branch.json')
    expect(github(sim).map((r) => r.path.split('?')[0])).toEqual([`${REPO}/commits/${after}`])
    expect(sentPrompt(sim)).toContain('README.md')
  })

  it('pull_request: the files of the pull request, and its title and author', async () => {
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(github(sim).map((r) => r.path)).toEqual([`${REPO}/pulls/2/files?per_page=100&page=1`])
    const prompt = sentPrompt(sim)
    expect(prompt).toContain(
      '### Pull request #2\nTitle and description (by @Codertocat):\n' +
        '```text\nUpdate the README with new information.\n'
    )
    expect(prompt).not.toContain('comes from a fork')
  })

  it('a pull request from a fork is marked untrusted', async () => {
    const sim = await sims.start({
      github: { pulls: { 2: { head: { repo: 'hubot/Hello-World' } } } }
    })
    await runAction(inputs(sim), onEvent(sim, 'pull_request', 'pull_request-opened-fork.json'))
    expect(sentPrompt(sim)).toContain('This pull request comes from a fork (hubot/Hello-World)')
  })

  it('workflow_dispatch: the head commit only', async () => {
    const sha = '6113728f27ae82c7b1a177c8d03f9e96e0adf246'
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'workflow_dispatch', 'workflow_dispatch.json', { GITHUB_SHA: sha })
    )
    expect(run.code).toBe(0)
    expect(github(sim).map((r) => r.path.split('?')[0])).toEqual([`${REPO}/commits/${sha}`])
  })

  it.each([
    ['workflow_dispatch', 'hand (workflow_dispatch)'],
    ['schedule', 'its schedule']
  ])('%s: names the latest commit on the branch, not a change', async (name, why) => {
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim),
      onEvent(sim, name, 'workflow_dispatch.json', { GITHUB_REF: 'refs/heads/main' })
    )
    expect(run.code).toBe(0)
    const prompt = sentPrompt(sim)
    expect(prompt).toContain(`${QUICK.prompt}\n\n## Context: the latest commit on main\n`)
    expect(prompt).toContain(`The workflow was started by ${why}, not by a code change`)
    expect(prompt).not.toContain('the code change that')
  })

  it('a /docs command on a pull request: its files and its text; the command is the request, not context', async () => {
    const sim = await sims.start()
    const payload = JSON.parse(
      readFileSync(join(EVENTS, 'issue_comment-created-pull_request.json'), 'utf8')
    ) as { comment: { id: number; body: string; created_at: string } }
    payload.comment.body = "/docs You are totally right! I'll get this fixed right away."
    // GitHub holds the comment as the payload gives it (the run reads it again), written after
    // the simulator's head commit of #2 (dated 15:20:30Z), so the head did not move after it.
    payload.comment.created_at = '2019-05-15T15:21:00Z'
    const held = { id: payload.comment.id, user: 'Codertocat', body: payload.comment.body }
    sim.setScenario({ github: { comments: { ['Codertocat/Hello-World#2']: [held] } } })
    const path = join(mkdtempSync(join(tmpdir(), 'comment-')), 'event.json')
    writeFileSync(path, JSON.stringify(payload))
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'issue_comment', 'issue_comment-created-pull_request.json', {
        GITHUB_EVENT_PATH: path,
        GITHUB_REF: 'refs/heads/master'
      })
    )
    expect(run.code).toBe(0)
    // The command as GitHub holds it now, who may command, the pull request's head and the date
    // of its head commit, then its files (and the reactions besides).
    const reads = github(sim).filter((r) => r.method === 'GET')
    expect(reads.map((r) => r.path)).toEqual([
      `${REPO}/issues/comments/${payload.comment.id}`,
      `${REPO}/collaborators/Codertocat/permission`,
      `${REPO}/pulls/2`,
      `${REPO}/commits/${PUSHED}?per_page=1`,
      `${REPO}/pulls/2/files?per_page=100&page=1`
    ])
    const prompt = sentPrompt(sim)
    expect(prompt).toContain('## Context: pull request #2, on which a comment started this run\n')
    expect(prompt).toContain('```text\nUpdate the README with new information.\n')
    expect(prompt).toContain("```text\nYou are totally right! I'll get this fixed right away.\n```")
    expect(prompt).not.toContain('### The comment that started this run')
    expect(prompt).toContain('src/commands/deploy.ts')
    expect(run.stdout).toMatch(/Read the change from pull request #2: 6 changed files/)
  })

  it('a comment on an issue starts nothing and reads nothing', async () => {
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'issue_comment', 'issue_comment-created.json', {
        GITHUB_REF: 'refs/heads/master'
      })
    )
    expect(run.code).toBe(0)
    expect(github(sim)).toEqual([])
    expect(creates(sim)).toHaveLength(0)
    expect(run.outputs.skipped).toBe('true')
  })

  it('context: off sends the prompt as written and asks GitHub only whose commit it is', async () => {
    const sim = await sims.start()
    await runAction(inputs(sim, { context: 'off' }), onEvent(sim, 'push', 'push.json'))
    expect(github(sim)).toHaveLength(0)
    const { after } = eventPayload('push.json')
    expect(sim.requests.map((r) => r.path.split('?')[0])).toContain(
      `${REPO}/commits/${after}/pulls`
    )
    expect(sentPrompt(sim)).toBe(QUICK.prompt)
  })

  it('never puts the API key in the prompt, even when a diff contains it', async () => {
    const sim = await sims.start({
      github: {
        files: [{ filename: 'config.js', patch: `@@ -1 +1 @@\n-old\n+const key = '${KEY}'` }]
      }
    })
    await runAction(inputs(sim), onEvent(sim, 'push', 'push.json'))
    const prompt = sentPrompt(sim)
    expect(prompt).toContain("+const key = '***'")
    expect(prompt).not.toContain(KEY)
  })
})

describe('starting no job', () => {
  it('a push that deleted a tag has nothing to document', async () => {
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'push', 'push-deleted-tag.json', { GITHUB_REF: 'refs/tags/simple-tag' })
    )
    expect(run.code).toBe(0)
    expect(sim.requests).toHaveLength(0)
    expect(run.outputs).toMatchObject({ skipped: 'true' })
    expect(run.outputs['job-id']).toBeUndefined()
    expect(run.stdout).toContain('deleted refs/tags/simple-tag')
    expect(run.summary).toContain('Skipped')
  })

  it('paths that match no changed file: skipped, and says why', async () => {
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim, { paths: 'api/**\n!api/**/*.test.ts' }),
      onEvent(sim, 'push', 'push.json')
    )
    expect(run.code).toBe(0)
    expect(creates(sim)).toHaveLength(0)
    expect(run.outputs.skipped).toBe('true')
    expect(run.stdout).toMatch(/None of the 6 changed files matches paths/)
    expect(run.summary).toMatch(/None of the 6 changed files matches paths/)
  })

  it('paths that match a changed file: the job starts', async () => {
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim, { paths: 'src/commands/**\n!src/**/*.test.ts', context: 'off' }),
      onEvent(sim, 'push', 'push.json')
    )
    expect(run.code).toBe(0)
    expect(creates(sim)).toHaveLength(1)
    expect(run.outputs.skipped).toBe('false')
  })

  it('paths when the files cannot be read: the job is not skipped', async () => {
    const sim = await sims.start({
      githubFaults: {
        compare: [{ status: 403, body: '{"message":"Resource not accessible by integration"}' }]
      }
    })
    const run = await runAction(inputs(sim, { paths: 'api/**' }), onEvent(sim, 'push', 'push.json'))
    expect(creates(sim)).toHaveLength(1)
    expect(run.stdout).toContain('the changed files are not known, so the job is not skipped')
  })
})

describe('dry-run', () => {
  it('prints the whole prompt in a log group and the summary, and starts nothing', async () => {
    const sim = await sims.start()
    const run = await runAction(
      {
        prompt: QUICK.prompt,
        'dry-run': 'true',
        'github-token': TOKEN,
        'base-url': sim.url,
        comment: 'off',
        'reuse-job': 'false'
      },
      onEvent(sim, 'push', 'push.json')
    )
    expect(run.code).toBe(0)
    expect(creates(sim)).toHaveLength(0)
    expect(github(sim)).toHaveLength(1)
    expect(run.stdout).toMatch(/::group::The prompt a new agent job would be given \(dry-run\)\n/)
    expect(run.stdout).toContain('## Context: the code change that started this run')
    expect(run.stdout).toContain('::endgroup::')
    expect(run.summary).toContain('<pre>Document the new export endpoint\n&#32;\n## Context')
    expect(run.summary).toContain('Dry run')
    expect(run.outputs.skipped).toBe('false')
  })
})

describe('GitHub failures never fail the docs job', () => {
  it.each([
    [
      '403',
      { status: 403, body: '{"message":"Resource not accessible by integration"}' },
      /`contents: read`/
    ],
    ['404', { status: 404, body: '{"message":"Not Found"}' }, /`contents: read`/],
    ['401', { status: 401, body: '{"message":"Bad credentials"}' }, /github-token was not accepted/]
  ])(
    '%s: one warning naming what is missing, then the job with the payload',
    async (_, fault, words) => {
      // After a comparison's 404 the head commit is read: a hidden repository refuses it too.
      const sim = await sims.start({ githubFaults: { compare: [fault], commit: [fault] } })
      const run = await runAction(inputs(sim), onEvent(sim, 'push', 'push.json'))
      expect(run.code).toBe(0)
      const warnings = run.stdout.split('\n').filter((l) => l.startsWith('::warning'))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(words)
      expect(creates(sim)).toHaveLength(1)
      const prompt = sentPrompt(sim)
      expect(prompt).toContain('The changed files could not be read.')
      expect(prompt).toContain('Add a --dry-run flag to deploy')
    }
  )

  it('a 500 is retried by Octokit, and the change is read', async () => {
    const sim = await sims.start({ githubFaults: { pullFiles: [{ status: 500 }] } })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(github(sim).filter((r) => r.path.includes('/pulls/2/files'))).toHaveLength(2)
    expect(run.stdout).not.toMatch(/^::warning/m)
    expect(sentPrompt(sim)).toContain('src/commands/deploy.ts')
  })

  it('GitHub that never answers costs at most the reading budget', async () => {
    const sim = await sims.start({ githubFaults: { compare: [{ action: 'hang' }] } })
    const run = await atPace(SHORT_TIMEOUT, () =>
      runAction(inputs(sim, { timeout: '10s' }), onEvent(sim, 'push', 'push.json'))
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(
      /::warning.*(did not answer in time|took longer than its time budget)/
    )
    expect(creates(sim)).toHaveLength(1)
    // The reading budget (a quarter of the 10 s timeout) and the run's own work, which includes
    // the job (ended at create): no retry waits left running after it, and not the timeout.
    expect(run.ms).toBeLessThan(budgetsFor(10_000).change + margin())
  })

  it('no github-token: one warning, and the payload', async () => {
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim, { 'github-token': '' }),
      onEvent(sim, 'push', 'push.json')
    )
    expect(run.code).toBe(0)
    expect(github(sim)).toHaveLength(0)
    expect(run.stdout).toMatch(/::warning.*github-token is empty/)
    expect(sentPrompt(sim)).toContain('Add a --dry-run flag to deploy')
  })
})
